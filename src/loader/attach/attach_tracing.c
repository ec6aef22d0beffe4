// SPDX-License-Identifier: GPL-2.0
/*
 * Back-end 4: fentry and fexit (5.5+).  The program was loaded for its
 * function (its BTF id, and its module's BTF object); the link is what
 * puts it on a BPF trampoline, and closing the link takes it off.
 */
#include "loader/attach/attach.h"

#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include "loader/obj/bpf_sys.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

#define ENOTSUPP_KERNEL 524

static int tracing_attach(struct attach_ctx *ctx, const struct probe_spec *spec,
			  struct probe_link *link, struct errbuf *eb)
{
	const char *kind = spec->kind == PROBE_RETURN ? "fexit" : "fentry";
	uint32_t type = spec->kind == PROBE_RETURN ? BPF_TRACE_FEXIT :
						     BPF_TRACE_FENTRY;
	const char *how = "BPF_LINK_CREATE";
	int fd;

	(void)ctx;
	kcall_why("%s %s: a link puts the program on the function's BPF trampoline; it lives as long as this fd",
		  kind, spec->func);
	fd = bpf_link_create_tracing(spec->prog_fd, type);
	if (fd == -EINVAL) {
		/* BPF_LINK_CREATE took tracing programs in 5.19 (5.10 says EINVAL). */
		kcall_why("%s %s: the same link the older way (this kernel's BPF_LINK_CREATE does not take tracing programs)",
			  kind, spec->func);
		how = "BPF_RAW_TRACEPOINT_OPEN";
		fd = bpf_raw_tp_open(spec->prog_fd);
	}
	/*
	 * A trampoline is called from the function's ftrace site by a
	 * "direct call"; arm64 has them from 6.4, so its 6.1 and 5.10 load
	 * the program and refuse its link.
	 */
	if (errbuf_nofile(eb, fd, "cannot attach %s %s", kind, spec->func))
		return fd;
	if (fd == -ENOTSUPP_KERNEL)
		return errbuf_set(eb, fd,
				  "cannot attach %s %s: this kernel makes no BPF trampolines for kernel functions (error 524, ENOTSUPP: its ftrace has no direct calls, CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, which arm64 gained in 6.4)",
				  kind, spec->func);
	if (fd < 0)
		return errbuf_set(eb, fd, "cannot attach %s %s (%s): %s", kind,
				  spec->func, how, strerror(-fd));
	link->ops = &attach_tracing_ops;
	link->perf_fd = fd;
	link->event[0] = '\0';
	vlog(1, "attached %s %s via %s: link fd %d", kind, spec->func, how, fd);
	return 0;
}

static void tracing_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	(void)ctx;
	if (link->perf_fd >= 0)
		kcall_close(link->perf_fd, "a tracing link: closing it takes the program off the function's trampoline");
	link->perf_fd = -1;
}

const struct attach_ops attach_tracing_ops = {
	.name = "fentry",
	.attach = tracing_attach,
	.detach = tracing_detach,
};
