/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer's own state, for the engine's files and the plan's probes
 * (tool/plan/probe.h).  Everyone else uses tool/engine/tracer.h.
 */
#ifndef EXT4DIST_TOOL_TRACER_PRIV_H
#define EXT4DIST_TOOL_TRACER_PRIV_H

#include "tool/engine/fentry.h"
#include "tool/discover/read_path.h"
#include "tool/plan/resolve.h"
#include "tool/engine/tracer.h"

struct tracer {
	struct tracer_config cfg;	/* the run's, as tracer_start() was given it */
	struct bpf_obj obj;
	struct obj_load_state load;
	struct obj_load_opts lo;
	struct attach_ctx actx;
	int actx_ready;
	const struct attach_ops *ops;
	/* Every path's links: (return, entry) pairs, kprobe_multi's too. */
	struct probe_link links[2 * NR_OPS];
	unsigned int nr_links;
	int calls_fd, hist_fd, ctl_fd;
	int events_fd, slow_stats_fd;
	struct perf_buf events;		/* slow mode's rings */
	int percpu;			/* hist is a per-CPU map */
	int kprobes_only;		/* the object read for kprobes alone */
	int names_off[2];		/* f_path.dentry, d_name.name; or 0 */
	int ncpus;
	unsigned int calls_rows;	/* CALLS_ROWS(ncpus) */
	unsigned int epoch;		/* the hist buffer in use: epoch & 1 */
	void *scratch;			/* a hist value per CPU, or calls' value */
	struct op_calls calls_seen[NR_OPS];	/* entry counts at the last drain */
	struct op_hist returns[NR_OPS];		/* every drained buffer, summed */
	/*
	 * Each operation's entry program, where it has one of its own (not
	 * kprobe_multi's), and the kernel's count of the runs of it that it
	 * skipped at the last drain (tally.c: "unseen" calls).
	 */
	const struct obj_prog *entry_prog[NR_OPS];
	unsigned long long unseen_seen[NR_OPS];
	int unseen_counted;	/* the kernel counts them for these programs */
	int stale_removed;		/* stale events removed at start */
	struct fn_addrs fn;		/* the traced functions' addresses */
	int scan_at_hint;		/* the f_op probe at System.map's address */
	struct fentry_ids fids;		/* fentry/fexit: the BTF ids */
	struct tp_event tp[2];		/* the fsync tracepoints: enter, exit */
	int btf_obj_fd;			/* the module's BTF object, or -1 */
	struct tracer_record rec;
};

#endif
