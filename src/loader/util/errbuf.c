// SPDX-License-Identifier: GPL-2.0
#include "loader/util/errbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>

void errbuf_fmt(struct errbuf *eb, const char *fmt, ...)
{
	va_list ap;

	if (!eb)
		return;
	va_start(ap, fmt);
	vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
	va_end(ap);
}

int errbuf_nofile(struct errbuf *eb, int err, const char *fmt, ...)
{
	struct rlimit rl;
	char what[256];
	va_list ap;

	if (err != -EMFILE && err != -ENFILE)
		return 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (err == -ENFILE)
		errbuf_fmt(eb, "too many open files in the system: %s: the kernel's file table is full (fs.file-max); close files elsewhere or raise fs.file-max, and try again",
			   what);
	else if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		errbuf_fmt(eb, "too many open files: %s: all %llu file descriptors RLIMIT_NOFILE allows this process are in use; raise the limit (ulimit -n) and try again",
			   what, (unsigned long long)rl.rlim_cur);
	else
		errbuf_fmt(eb, "too many open files: %s: all file descriptors RLIMIT_NOFILE allows this process are in use; raise the limit (ulimit -n) and try again",
			   what);
	return err;
}
