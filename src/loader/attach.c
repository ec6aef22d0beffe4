#include "loader/attach.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "loader/vlog.h"

static int read_int_file(const char *path, int *out)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", out) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* format/retprobe reads "config:0": the bit that makes a kretprobe. */
static int read_retprobe_bit(const char *dir)
{
	char path[512];
	FILE *f;
	int bit = 0;

	snprintf(path, sizeof(path), "%s/format/retprobe", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "config:%d", &bit) != 1 || bit < 0 || bit > 63)
		bit = 0;
	fclose(f);
	return bit;
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
		     const char *sysfs_kprobe, const struct tracefs_paths *paths,
		     int need_tracefs)
{
	char path[512];
	struct errbuf eb;

	memset(ctx, 0, sizeof(*ctx));
	ctx->prefix = prefix;
	ctx->pid = getpid();
	make_token(ctx->token, sizeof(ctx->token));
	snprintf(ctx->sysfs_kprobe, sizeof(ctx->sysfs_kprobe), "%s",
		 sysfs_kprobe ? sysfs_kprobe :
				"/sys/bus/event_source/devices/kprobe");
	snprintf(path, sizeof(path), "%s/type", ctx->sysfs_kprobe);
	if (read_int_file(path, &ctx->pmu_type) || ctx->pmu_type < 0) {
		ctx->pmu_type = -1;
		vlog(1, "no kprobe PMU (%s absent: kernel before 4.17)", path);
	} else {
		ctx->pmu_retprobe_bit = read_retprobe_bit(ctx->sysfs_kprobe);
		vlog(1, "kprobe PMU present: perf type %d, retprobe = config bit %d",
		     ctx->pmu_type, ctx->pmu_retprobe_bit);
	}
	ctx->tracefs_sweep_only = !need_tracefs && ctx->pmu_type >= 0;
	if (tracefs_open(&ctx->tf, paths, need_tracefs || ctx->pmu_type < 0,
			 &eb))
		vlog(1, "%s", eb.msg);
	else
		vlog(1, "tracing dir %s%s", ctx->tf.dir,
		     ctx->tf.has_kprobe_events ? " (has kprobe_events)" :
						 " (no kprobe_events)");
}

void attach_ctx_release(struct attach_ctx *ctx)
{
	tracefs_close(&ctx->tf);
}

const struct attach_ops *attach_choose(const struct attach_ctx *ctx,
				       const char *want, int need_maxactive,
				       struct errbuf *eb)
{
	int pmu = ctx->pmu_type >= 0, tfs = ctx->tf.has_kprobe_events;

	if (!pmu && !tfs) {
		errbuf_set(eb, -EOPNOTSUPP,
			   "this kernel has no kprobes: there is no kprobe PMU (%s) and no kprobe_events in %s; ext4dist needs a kernel built with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y",
			   ctx->sysfs_kprobe,
			   ctx->tf.dir[0] ? ctx->tf.dir : "tracefs (none mounted)");
		return NULL;
	}
	if (want && strcmp(want, "pmu") == 0) {
		if (!pmu) {
			errbuf_set(eb, -EOPNOTSUPP,
				   "--attach=pmu: this kernel has no kprobe PMU (%s/type is missing; it arrived in 4.17); use --attach=tracefs",
				   ctx->sysfs_kprobe);
			return NULL;
		}
		if (need_maxactive) {
			errbuf_set(eb, -EINVAL,
				   "--maxactive needs the tracefs path: the kprobe PMU cannot set it; drop --attach=pmu");
			return NULL;
		}
		return &attach_pmu_ops;
	}
	if (want && strcmp(want, "tracefs") == 0) {
		if (!tfs) {
			errbuf_set(eb, -EOPNOTSUPP,
				   "--attach=tracefs: no kprobe_events in %s (CONFIG_KPROBE_EVENTS off?); use --attach=pmu",
				   ctx->tf.dir[0] ? ctx->tf.dir : "tracefs (not mounted)");
			return NULL;
		}
		return &attach_tracefs_ops;
	}
	if (pmu && !need_maxactive)
		return &attach_pmu_ops;
	if (!tfs) {
		errbuf_set(eb, -EOPNOTSUPP,
			   "--maxactive needs kprobe_events in tracefs, which this kernel lacks");
		return NULL;
	}
	return &attach_tracefs_ops;
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
}
