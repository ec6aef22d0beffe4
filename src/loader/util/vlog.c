// SPDX-License-Identifier: GPL-2.0
#include "loader/util/vlog.h"

#include <stdarg.h>

static int vlog_lvl;
static FILE *vlog_out;
static const char *vlog_prefix = "";

void vlog_set(int level, FILE *out, const char *prefix)
{
	vlog_lvl = level;
	vlog_out = out;
	vlog_prefix = prefix ? prefix : "";
}

int vlog_level(void)
{
	return vlog_out ? vlog_lvl : 0;
}

void vwarn(const char *fmt, ...)
{
	va_list ap;

	if (!vlog_out)
		return;
	fprintf(vlog_out, "%swarning: ", vlog_prefix);
	va_start(ap, fmt);
	vfprintf(vlog_out, fmt, ap);
	va_end(ap);
	fputc('\n', vlog_out);
}

void vlog(int level, const char *fmt, ...)
{
	va_list ap;

	if (!vlog_out || vlog_lvl < level)
		return;
	fputs(vlog_prefix, vlog_out);
	va_start(ap, fmt);
	vfprintf(vlog_out, fmt, ap);
	va_end(ap);
	fputc('\n', vlog_out);
}
