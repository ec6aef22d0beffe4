// SPDX-License-Identifier: GPL-2.0
#include "loader/util/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

void errbuf_fmt(struct errbuf *eb, const char *fmt, ...)
{
	va_list ap;

	if (!eb)
		return;
	va_start(ap, fmt);
	vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
	va_end(ap);
}
