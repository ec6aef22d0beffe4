// SPDX-License-Identifier: GPL-2.0
/* Back-end 1: the perf kprobe PMU (Linux 4.17+). */
#include "loader/attach/attach.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "loader/attach/perf_event.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

static int pmu_attach(struct attach_ctx *ctx, const struct probe_spec *spec,
		      struct probe_link *link, struct errbuf *eb)
{
	struct perf_event_attr attr;
	const char *kind = spec->kind == PROBE_RETURN ? "kretprobe" : "kprobe";
	char what[160];
	int fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)ctx->pmu_type;
	attr.config = spec->kind == PROBE_RETURN ?
		      1ULL << ctx->pmu_retprobe_bit : 0;
	if (spec->addr) {
		attr.config1 = 0;		/* no kprobe_func: ... */
		attr.config2 = spec->addr;	/* ... kprobe_addr */
	} else {
		attr.config1 = (uint64_t)(uintptr_t)spec->func; /* kprobe_func */
		attr.config2 = 0;				/* probe_offset */
	}
	snprintf(what, sizeof(what), "%s %s", kind, spec->func);
	kcall_why("%s: a kprobe made by the kprobe PMU (type %d, 4.17+)%s; %s; it lives as long as this fd",
		  what, ctx->pmu_type, spec->kind == PROBE_RETURN ?
		  ", config bit for a return probe set" : "",
		  spec->addr ? "config2 = the function's address (kprobe_addr), config1 0: no name to look up" :
		  "config1 = a pointer to the function's name (kprobe_func), config2 = offset 0");
	fd = perf_event_open_fd(&attr);
	if (errbuf_nofile(eb, fd, "cannot create %s via the kprobe PMU", what))
		return fd;
	if (fd < 0) {
		if (fd == -EINVAL &&
		    attach_refused_on_ftrace(ctx, what, spec->func, eb))
			return -EOPNOTSUPP;
		/* Unknown or blacklisted symbols: ENOENT, or EINVAL before 5.x. */
		if (fd == -ENOENT || fd == -EINVAL)
			return errbuf_set(eb, -ENOENT,
					  "cannot create %s: kernel function %s not found or not probeable (%s)",
					  what, spec->func, strerror(-fd));
		return errbuf_set(eb, fd,
				  "cannot create %s via the kprobe PMU: %s", what,
				  strerror(-fd));
	}
	err = perf_set_bpf_and_enable(fd, spec->prog_fd, what, eb);
	if (err) {
		kcall_close(fd, "%s: its program could not be attached: the probe goes", what);
		return err;
	}
	link->ops = &attach_pmu_ops;
	link->perf_fd = fd;
	link->event[0] = '\0';
	if (spec->addr)
		vlog(1, "attached %s via kprobe PMU: perf type %d, config 0x%llx, config2 (kprobe_addr) 0x%llx, perf fd %d",
		     what, ctx->pmu_type, (unsigned long long)attr.config,
		     spec->addr, fd);
	else
		vlog(1, "attached %s via kprobe PMU: perf type %d, config 0x%llx, config1 \"%s\", perf fd %d",
		     what, ctx->pmu_type, (unsigned long long)attr.config, spec->func,
	     fd);
	return 0;
}

static void pmu_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	(void)ctx;
	if (link->perf_fd >= 0)
		kcall_close(link->perf_fd, "a kprobe PMU event: closing it removes the kprobe (nothing to clean up in tracefs)");
	link->perf_fd = -1;
}

const struct attach_ops attach_pmu_ops = {
	.name = "pmu",
	.attach = pmu_attach,
	.detach = pmu_detach,
};
