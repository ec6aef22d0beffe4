/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file system side of ext4dist: from the embedded object to attached
 * probes (following the plan, tool/plan/plan.h), and from the maps back to
 * numbers.  Uses the loader; the loader knows nothing of ext4.
 */
#ifndef EXT4DIST_TOOL_TRACER_H
#define EXT4DIST_TOOL_TRACER_H

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "output/report.h"
#include "tool/fs/fs.h"
#include "tool/plan/plan.h"

struct tracer_config {
	const struct fs_table *fs;
	unsigned int tgid;		/* 0 = every process */
	unsigned long long factor;	/* ns per output unit */
	const char *unit;		/* its name: "usecs" or "msecs" */
	unsigned int ops_mask;		/* bit per enum ext4dist_op */
	int ops_given;			/* --ops given: the dumps keep to them */
	enum attach_mode attach;	/* --attach */
	unsigned int maxactive;		/* --maxactive, 0 = not given */
	int read_generic;		/* force the generic read path */
	unsigned long long fops_addr;	/* 0 = look it up */
	struct obj_load_opts load;	/* --pretend's map fallbacks */
	unsigned int pretend;		/* bit per enum pretend */
	/*
	 * Slow mode (ext4slower): the slow programs, an event for each call
	 * of at least slow_ns, event rings of slow_pages pages per CPU.
	 */
	int slow;
	unsigned long long slow_ns;
	unsigned int slow_pages;
	int verifier_log;		/* --verifier-log: every load's log */
	const char *prog_glob;		/* --prog: the programs whose log shows */
	int dump_maps;			/* --dump-maps: each CPU's counts */
	unsigned int start_slots;	/* --start-slots, 0 = by MemTotal */
	/* Test-only overrides of system paths; NULL = the real ones. */
	const char *kallsyms_path;
	const char *sysfs_kprobe;
	const struct tracefs_paths *tracefs;
	const char *sys_module;		/* /sys/module */
	const char *meminfo;		/* /proc/meminfo */
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
	int privileged;			/* privileges were enough */
	int pmu_type;			/* the kprobe PMU's perf type, or -1 */
	unsigned int progs_loaded;	/* programs through the verifier */
	unsigned long insns_given;	/* their instructions, as sent */
	unsigned long insns_processed;	/* the verifier's walk (5.16+) */
	int processed_unknown;		/* some kernel count was 0 (< 5.16) */
	int verified_only;		/* loaded by --check alone, unattached */
	size_t nr_maps;			/* maps created */
	const char *hist_type;		/* "percpu_array", or "array" before 4.6 */
	int names_ok;			/* maps and programs have names (4.15+) */
	int names_pretend;		/* off by --pretend=no-names, not the kernel */
	int percpu;			/* per-CPU maps: plain adds, else atomic */
	const char *verifier_log;	/* of a refused program, else NULL */
	char tracing_dir[300];		/* where tracefs was found */
	char object[160];		/* which embedded BPF object */
	char read_path[256];		/* how reads are traced, and why */
	char addresses[768];		/* kprobes by address or by name */
	char fops[256];			/* generic path: the f_op filter */
	char missing[256];		/* an operation this kernel lacks */
	char names[320];		/* slow mode: where file names come from */
	char fentry_ids[600];		/* fentry: where the BTF ids came from */
	char tracepoints[600];		/* the tracepoints' ids and field */
	enum preempt_model preemption;	/* CAP_NO_PREEMPT's finding */
	unsigned int start_slots;	/* start records kept (start_slots.h) */
	unsigned int start_slot_bytes;	/* 8 per traced operation */
	char start_why[128];		/* how that number was chosen */
};

/* Private: tool/engine/tracer_priv.h.  tracer_new() makes one. */
struct tracer;


/*
 * The object's maps a run does not create (NULL-ended): in the histogram
 * mode (slow 0) slow mode's and the lessons', in slow mode the lessons'.
 */
const char *const *tracer_maps_skipped(int slow);

/* An empty tracer, or NULL without memory. */
struct tracer *tracer_new(void);
/* tracer_stop() and the memory. */
void tracer_free(struct tracer *t);

/* Everything up to attached probes.  On failure, eb says why. */
int tracer_start(struct tracer *t, const struct tracer_config *cfg,
		 struct errbuf *eb);
/*
 * Start-up up to the maps made and the run's constants patched, nothing
 * attached (--dump-bpf=xlated); tracer_verify_unattached() then loads.
 */
int tracer_prepare(struct tracer *t, const struct tracer_config *cfg,
		   struct errbuf *eb);
/* The object as loaded: maps with their fds, constants patched. */
const struct bpf_obj *tracer_obj(const struct tracer *t);
/* What start-up found and decided (for --check, and errors). */
const struct tracer_record *tracer_record(const struct tracer *t);
const struct fs_table *tracer_fs(const struct tracer *t);
unsigned int tracer_ops_mask(const struct tracer *t);
/*
 * Probes, for --check, what start-up did not need to know; the decision
 * is not touched.
 */
void tracer_probe_rest(struct tracer *t);
/*
 * verify.c, for --check when start-up stopped before loading programs:
 * loads (and closes again) the programs a run would load on the path
 * planned (the kprobe pairs when none), patched as a run patches them,
 * counting them in the record.  0 when nothing was parsed yet.
 */
int tracer_verify_unattached(struct tracer *t, struct errbuf *eb);
/*
 * The same, calling each(arg, t, p) with every program while it is
 * loaded (p->fd open), before it is closed again.
 */
int tracer_verify_each(struct tracer *t,
		       void (*each)(void *arg, const struct obj_prog *p),
		       void *arg, struct errbuf *eb);
/* Why return probes go missing on the path in use, and what to do. */
const char *tracer_missed_reason(const struct tracer *t);
/* Detaches the entry probes only: calls in flight still reach a return. */
void tracer_stop_entries(struct tracer *t);
/* Detaches every probe (entries first), closes every fd. */
void tracer_stop(struct tracer *t);

/*
 * kmem_use.c: the kernel memory of the maps and programs open now, as
 * the kernel counts it (memlock in /proc/self/fdinfo, bytes); fds whose
 * fdinfo has no memlock line (a kernel that does not show it) are
 * counted in unshown, and then the text says it is not shown.  0 or
 * -errno.
 */
struct tracer_kmem {
	unsigned long long maps, progs, start;
	unsigned int nr_maps, nr_progs, unshown;
};
int tracer_kmem(const struct tracer *t, struct tracer_kmem *k);
/* The same as one line of text, for --check and -v. */
void tracer_kmem_text(const struct tracer *t, char *buf, size_t size);
/* This process's peak RSS as one line of text. */
void own_peak_rss_text(char *buf, size_t size);

/* Slow mode: the per-CPU event rings, open once tracer_start() is done. */
struct perf_buf *tracer_events(struct tracer *t);
/* Slow mode: events the programs sent and the sends the kernel refused. */
int tracer_slow_stats(struct tracer *t, struct slow_stats *sum);

/*
 * tally.c: the numbers since the last drain.  Flips the epoch, waits
 * until no program can still use the old buffer, reads it (summed over
 * CPUs) into ops[] and zeroes it; flow[] gets the calls entered and
 * missed since the last drain and those in flight now.  total, when not
 * NULL, gets every drain so far (for --prometheus).
 */
int tracer_drain(struct tracer *t, struct op_hist *ops, struct op_flow *flow,
		 struct op_hist *total_ops, struct op_flow *total_flow);

/*
 * settle.c: the end of a run, one rule for every mode.  The entry
 * programs go first (tracer_stop_entries), then the calls in flight are
 * given time to return: drain(ctx) runs at once, then every
 * SETTLE_STEP_MS, until it finds none in flight, or their number has
 * not moved for SETTLE_QUIET_MS, at most SETTLE_MAX_MS after the stop.
 * drain() drains (tracer_drain, and whatever else the mode reads) and
 * returns the calls still in flight, or -errno, which ends the wait.
 */
#define SETTLE_STEP_MS	10
#define SETTLE_QUIET_MS	100
#define SETTLE_MAX_MS	1000
int tracer_settle(struct tracer *t, long long (*drain)(void *ctx), void *ctx);

#endif
