/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file system side of ext4dist: from the embedded object to attached
 * probes (following the plan, tool/plan.h), and from the maps back to
 * numbers.  Uses the loader; the loader knows nothing of ext4.
 */
#ifndef EXT4DIST_TOOL_TRACER_H
#define EXT4DIST_TOOL_TRACER_H

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "output/report.h"
#include "tool/fs.h"
#include "tool/plan.h"

struct tracer_config {
	const struct fs_table *fs;
	unsigned int tgid;		/* 0 = every process */
	unsigned long long factor;	/* ns per output unit */
	unsigned int ops_mask;		/* bit per enum ext4dist_op */
	enum attach_mode attach;	/* --attach */
	unsigned int maxactive;		/* --maxactive, 0 = not given */
	int read_generic;		/* force the generic read path */
	unsigned long long fops_addr;	/* 0 = look it up */
	struct obj_load_opts load;	/* --pretend's map fallbacks */
	unsigned int pretend;		/* bit per enum args_pretend */
	/* Test-only overrides of system paths; NULL = the real ones. */
	const char *kallsyms_path;
	const char *sysfs_kprobe;
	const struct tracefs_paths *tracefs;
	const char *filesystems_path;
};

/*
 * What start-up found and decided, in order, so that --check can print
 * exactly what a run would do (it runs the same start-up).
 */
struct tracer_record {
	struct attach_caps caps;	/* asked as the plan needed them */
	struct attach_choice attach;	/* the attach path taken */
	int planned;			/* attach decided */
	int fs_registered;		/* 1, 0, or -errno */
	unsigned int progs_loaded;	/* programs through the verifier */
	char tracing_dir[300];		/* where tracefs was found */
	char object[160];		/* which embedded BPF object */
	char read_path[256];		/* how reads are traced, and why */
	char addresses[768];		/* kprobes by address or by name */
	char fops[256];			/* generic path: the f_op filter */
	char missing[256];		/* an operation this kernel lacks */
};

struct tracer {
	const struct fs_table *fs;
	unsigned int ops_mask;
	unsigned int pretend;		/* bit per enum args_pretend */
	struct bpf_obj obj;
	struct obj_load_state load;
	struct obj_load_opts lo;
	struct attach_ctx actx;
	int actx_ready;
	const struct attach_ops *ops;
	struct probe_link links[2 * NR_OPS];
	unsigned int nr_links;
	int multi_fd[2];		/* kprobe_multi links: return, entry */
	int calls_fd, hist_fd, ctl_fd;
	int percpu;			/* calls and hist are per-CPU maps */
	int ncpus;
	unsigned int epoch;		/* the hist buffer in use: epoch & 1 */
	void *scratch;			/* one map value per possible CPU */
	struct op_calls calls_seen[NR_OPS];	/* entry counts at the last drain */
	struct op_hist returns[NR_OPS];		/* every drained buffer, summed */
	int stale_removed;		/* stale events removed at start */
	/*
	 * The module's functions by address, where its file is the build
	 * the kernel loaded: names[i] at addrs[i] when found[i].
	 */
	const char *fn_names[NR_OPS + 1];
	unsigned long long fn_addrs[NR_OPS + 1];
	int fn_found[NR_OPS + 1];
	unsigned int nr_fn;		/* 0: every probe by name */
	struct tracer_record rec;
};

/* Everything up to attached probes.  On failure, eb says why. */
int tracer_start(struct tracer *t, const struct tracer_config *cfg,
		 struct errbuf *eb);
/*
 * Probes, for --check, what start-up did not need to know; the decision
 * is not touched.
 */
void tracer_probe_rest(struct tracer *t, const char *filesystems_path);
/* Why return probes go missing on the path in use, and what to do. */
const char *tracer_missed_reason(const struct tracer *t);
/* Detaches the entry probes only: calls in flight still reach a return. */
void tracer_stop_entries(struct tracer *t);
/* Detaches every probe (entries first), closes every fd. */
void tracer_stop(struct tracer *t);

/*
 * tally.c: the numbers since the last drain.  Flips the epoch, waits
 * until no program can still use the old buffer, reads it (summed over
 * CPUs) into ops[] and zeroes it; flow[] gets the calls entered and
 * missed since the last drain and those in flight now.  total, when not
 * NULL, gets every drain so far (for --prometheus).
 */
int tracer_drain(struct tracer *t, struct op_hist *ops, struct op_flow *flow,
		 struct op_hist *total_ops, struct op_flow *total_flow);

#endif
