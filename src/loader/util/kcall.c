// SPDX-License-Identifier: GPL-2.0
#include "loader/util/kcall.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/util/vlog.h"

static char why[640];

void kcall_why(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
}

/* The kernel's own ENOTSUPP (include/linux/errno.h) has no libc name. */
#define ENOTSUPP_KERNEL 524

static const char *errno_name(int e)
{
	const char *name = e == ENOTSUPP_KERNEL ? "ENOTSUPP" :
			   strerrorname_np(e);

	return name ? name : "E?";
}

const char *kcall_result(long ret, char *buf, unsigned long size)
{
	if (ret >= 0)
		snprintf(buf, size, "%ld", ret);
	else
		snprintf(buf, size, "-1 %s (%s)", errno_name((int)-ret),
			 strerror((int)-ret));
	return buf;
}

void kcall_log(int level, long ret, const char *fmt, ...)
{
	char call[1024], res[96];
	va_list ap;

	if (vlog_level() < level) {
		why[0] = '\0';
		return;
	}
	va_start(ap, fmt);
	vsnprintf(call, sizeof(call), fmt, ap);
	va_end(ap);
	vlog(level, "%s = %s", call, kcall_result(ret, res, sizeof(res)));
	vlog(level, "# %s", why[0] ? why : "(no reason given)");
	why[0] = '\0';
}

int kcall_close(int fd, const char *fmt, ...)
{
	int err = close(fd) ? -errno : 0;
	va_list ap;

	if (vlog_level() >= 1) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
		kcall_log(1, err, "close(%d)", fd);
	}
	return err;
}
