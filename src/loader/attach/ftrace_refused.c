// SPDX-License-Identifier: GPL-2.0
/*
 * Why a kprobe on a function's first instruction was refused with EINVAL
 * where the function exists: the kernel puts no kprobe on an ftrace call
 * site unless it was built with CONFIG_KPROBES_ON_FTRACE
 * (kernel/kprobes.c, check_ftrace_location()), and the call site is a
 * traceable function's first instruction on architectures whose ftrace
 * pads the entry with no-ops (Debian's riscv64 6.12).  Return probes are
 * placed there too.  A function ftrace can trace is listed in the tracing
 * dir's available_filter_functions, as "name" or "name [module]".
 */
#include "loader/attach/attach.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* 1 when func is listed in the file at fd (closed here), else 0. */
static int listed(int fd, const char *func)
{
	size_t n = strlen(func);
	char line[512];
	FILE *f;
	int found = 0;

	if (fd < 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return 0;
	}
	while (!found && fgets(line, sizeof(line), f))
		found = strncmp(line, func, n) == 0 &&
			(line[n] == '\n' || line[n] == ' ' || line[n] == '\0');
	fclose(f);
	return found;
}

/*
 * In the tracing dir held, or (the fentry path lets it go) where tracefs
 * is mounted: nothing is mounted for this.
 */
static int traceable(const struct attach_ctx *ctx, const char *func)
{
	static const char name[] = "available_filter_functions";
	const char *dir = ctx->paths && ctx->paths->tracing ?
			  ctx->paths->tracing : "/sys/kernel/tracing";
	char path[512];

	if (ctx->tf.dirfd >= 0)
		return listed(openat(ctx->tf.dirfd, name, O_RDONLY | O_CLOEXEC),
			      func);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return listed(open(path, O_RDONLY | O_CLOEXEC), func);
}

int attach_refused_on_ftrace(const struct attach_ctx *ctx, const char *what,
			     const char *func, struct errbuf *eb)
{
	if (!traceable(ctx, func))
		return 0;
	return errbuf_set(eb, -EOPNOTSUPP,
			  "cannot create %s: the kernel refuses entry kprobes on traceable functions (EINVAL for %s, which ftrace can trace: a kernel built without CONFIG_KPROBES_ON_FTRACE); fentry/fexit needs none (--attach=fentry, where the kernel has BTF)",
			  what, func);
}
