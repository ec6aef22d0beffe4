// SPDX-License-Identifier: GPL-2.0
#include "loader/attach/attach.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "loader/kernel/kversion.h"
#include "loader/util/small_file.h"
#include "loader/util/vlog.h"

/* format/retprobe reads "config:0": the bit that makes a kretprobe. */
static int read_retprobe_bit(const char *dir)
{
	char path[512], text[64], *end;
	long bit;

	snprintf(path, sizeof(path), "%s/format/retprobe", dir);
	if (small_file_read(path, text, sizeof(text)) < 0 ||
	    strncmp(text, "config:", 7) || text[7] < '0' || text[7] > '9')
		return 0;
	bit = strtol(text + 7, &end, 10);
	return end > text + 7 && bit <= 63 ? (int)bit : 0;
}

/*
 * 8 hex digits that another instance will not draw: getrandom (3.17+),
 * else /dev/urandom, else the clock mixed with our PID.
 */
static void make_token(char *buf, size_t size)
{
	unsigned int r = 0;
	struct timespec ts;
	int fd;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
		fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || read(fd, &r, sizeof(r)) != sizeof(r)) {
			clock_gettime(CLOCK_REALTIME, &ts);
			r = (unsigned int)ts.tv_nsec * 2654435761u ^
			    (unsigned int)ts.tv_sec ^ (unsigned int)getpid();
		}
		if (fd >= 0)
			close(fd);
	}
	snprintf(buf, size, "%08x", r);
}

void attach_ctx_init(struct attach_ctx *ctx, const char *prefix,
		     const char *sysfs_kprobe, const struct tracefs_paths *paths)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->prefix = prefix;
	ctx->pid = getpid();
	ctx->pmu_type = -1;
	ctx->tf.dirfd = ctx->tf.events_fd = -1;
	ctx->paths = paths;
	make_token(ctx->token, sizeof(ctx->token));
	snprintf(ctx->sysfs_kprobe, sizeof(ctx->sysfs_kprobe), "%s",
		 sysfs_kprobe ? sysfs_kprobe :
				"/sys/bus/event_source/devices/kprobe");
}

/*
 * Why there is no kprobe PMU: it arrived in 4.17, and it exists only in
 * kernels built with kprobe events (CONFIG_KPROBE_EVENTS, which needs
 * CONFIG_KPROBES).  The running kernel's version tells the two apart.
 */
static void pmu_absent_why(char *buf, size_t size)
{
	unsigned int code;
	const char *source;

	if (kversion_running(&code, &source))
		snprintf(buf, size, "kernel before 4.17, or built without kprobes");
	else if (code < kversion_code(4, 17, 0))
		snprintf(buf, size, "kernel %u.%u is before 4.17, which added it",
			 code >> 16, (code >> 8) & 0xff);
	else
		snprintf(buf, size, "kernel %u.%u has it only with kprobes (CONFIG_KPROBES, CONFIG_KPROBE_EVENTS): built without them",
			 code >> 16, (code >> 8) & 0xff);
}

int attach_probe_pmu(struct attach_ctx *ctx, struct errbuf *why)
{
	char path[512], reason[160];
	int err;

	snprintf(path, sizeof(path), "%s/type", ctx->sysfs_kprobe);
	err = small_file_read_int(path, &ctx->pmu_type);
	if (errbuf_nofile(why, err, "cannot read %s", path)) {
		ctx->pmu_type = -1;
		return err;
	}
	if (err || ctx->pmu_type < 0) {
		ctx->pmu_type = -1;
		pmu_absent_why(reason, sizeof(reason));
		vlog(1, "no kprobe PMU (%s absent: %s)", path, reason);
		return errbuf_set(why, -ENOENT, "%s missing: %s", path, reason);
	}
	ctx->pmu_retprobe_bit = read_retprobe_bit(ctx->sysfs_kprobe);
	vlog(1, "kprobe PMU present: perf type %d, retprobe = config bit %d",
	     ctx->pmu_type, ctx->pmu_retprobe_bit);
	return 0;
}

int attach_probe_tracefs(struct attach_ctx *ctx, int may_mount,
			 struct errbuf *why)
{
	struct errbuf eb;

	int err;

	if (!ctx->tf.dir[0]) {
		err = tracefs_open(&ctx->tf, ctx->paths, may_mount, &eb);
		if (err) {
			vlog(1, "%s", eb.msg);
			return errbuf_set(why, errno_nofile(err) ? err : -ENOENT,
					  "%s", eb.msg);
		}
	}
	vlog(1, "tracing dir %s%s", ctx->tf.dir,
	     ctx->tf.has_kprobe_events ? " (has kprobe_events)" :
					 " (no kprobe_events)");
	if (!ctx->tf.has_kprobe_events)
		return errbuf_set(why, -ENOENT, "no kprobe_events in %s",
				  ctx->tf.dir);
	return 0;
}

void attach_ctx_release(struct attach_ctx *ctx)
{
	tracefs_close(&ctx->tf);
}

void attach_tracefs_release(struct attach_ctx *ctx)
{
	tracefs_close(&ctx->tf);
}

void probe_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	if (link->ops)
		link->ops->detach(ctx, link);
	link->ops = NULL;
}

void attach_event_name(const struct attach_ctx *ctx,
		       const struct probe_spec *spec, char *buf, size_t size)
{
	/* Event names are limited to 64 bytes (MAX_EVENT_NAME_LEN). */
	if (size > 64)
		size = 64;
	snprintf(buf, size, "%s_%d_%s_%c_%s", ctx->prefix, (int)ctx->pid,
		 ctx->token, spec->kind == PROBE_RETURN ? 'r' : 'p', spec->func);
	/*
	 * kprobe_events takes [A-Za-z0-9_] only; functions the compiler
	 * cloned are called "name.isra.0", "name.constprop.0".
	 */
	for (; *buf; buf++)
		if (!isalnum((unsigned char)*buf) && *buf != '_')
			*buf = '_';
}
