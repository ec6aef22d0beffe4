#include "loader/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

int errbuf_set(struct errbuf *eb, int err, const char *fmt, ...)
{
	va_list ap;

	if (!eb)
		return err;
	va_start(ap, fmt);
	vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
	va_end(ap);
	return err;
}
