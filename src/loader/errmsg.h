/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to src/loader/: the message helper of the functions that take a
 * caller's (char *errbuf, size_t errlen) pair instead of a struct errbuf
 * (sysmap.c, module_file.c, modsym.c).
 */
#ifndef EXT4DIST_LOADER_ERRMSG_H
#define EXT4DIST_LOADER_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Formats a one-line message into errbuf; errbuf NULL or errlen 0: none. */
static inline __attribute__((format(printf, 3, 4)))
void set_err(char *errbuf, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errbuf || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(errbuf, errlen, fmt, ap);
	va_end(ap);
}

#endif
