/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How to attach, decided in one place from what the kernel offers and what
 * the command line asks: the run follows the decision, --check prints it.
 * The decision is a pure function; capabilities it has not been told yet
 * are asked for one at a time, so a run probes only what it needs.
 */
#ifndef EXT4DIST_TOOL_PLAN_H
#define EXT4DIST_TOOL_PLAN_H

#include "loader/loader.h"
#include "tool/plan/want.h"

/* What the kernel offers for attaching, as far as it matters here. */
enum cap_id {
	CAP_MULTI,		/* kprobe_multi links (5.18+, CONFIG_FPROBE) */
	CAP_KPROBE_EVENTS,	/* tracefs kprobe_events */
	CAP_MAXACTIVE,		/* kprobe_events honours "rN:" (4.12+) */
	CAP_PMU,		/* perf kprobe PMU (4.17+) */
	/*
	 * fentry/fexit: the kernel's BTF has every traced function (5.5+;
	 * a module's, 5.11+).  Whether it makes trampolines for them is
	 * found by attaching: a refusal there makes this CAP_NO after all.
	 */
	CAP_FENTRY,
	/*
	 * No task is preempted inside a BPF program (preemption none or
	 * voluntary).  Where one can be (full, lazy, real-time), a task
	 * preempted inside an fentry program makes the kernel skip that
	 * program for every other call on its CPU until it runs again
	 * (5.12+): calls go unseen, by the thousand under contention.
	 */
	CAP_NO_PREEMPT,
	/*
	 * The file system's own tracepoints around fsync, in tracefs, with
	 * the exit event's return value where the program reads it
	 * (--attach=tracepoint alone: never chosen automatically).
	 */
	CAP_TRACEPOINT,
	NR_CAPS,
};

/* CAP_FAILED: the question could not be asked (a full file table). */
enum cap_state { CAP_UNKNOWN = 0, CAP_NO, CAP_YES, CAP_FAILED };

struct cap {
	enum cap_state state;
	char why[256];		/* the probe's finding, for messages */
};

struct attach_caps {
	struct cap c[NR_CAPS];
	char pmu_dir[256];	/* ".../event_source/devices/kprobe" */
	char tracing_dir[256];	/* "/sys/kernel/tracing", or what else */
};

struct attach_want {
	enum attach_mode mode;		/* --attach */
	unsigned int maxactive;		/* --maxactive, 0 = not given */
	int generic_read;		/* --read-path=generic */
	unsigned int possible_cpus;	/* sizes the default maxactive */
	unsigned int ops_mask;		/* --ops, bit per enum ext4dist_op */
	int slow;			/* slow mode (ext4slower) */
	const char *fs_name;		/* "ext4", for messages */
	/*
	 * "ext4:ext4_sync_file_enter and ext4:ext4_sync_file_exit": the file
	 * system's tracepoints around fsync; NULL when it has none.
	 */
	const char *tracepoints;
	/*
	 * Why this kernel's kprobes must not be used, or NULL: then the
	 * paths made of them (tracefs, the kprobe PMU) refuse.
	 */
	const char *kprobes_unsafe;
};

struct attach_choice {
	enum attach_mode path;		/* ATTACH_FENTRY, _MULTI, _TRACEFS, _PMU, _TRACEPOINT */
	unsigned int maxactive;		/* tracefs "rN:", 0 = kernel default */
	char why[600];
};

/*
 * Return probes the kernel keeps per kretprobe unless told otherwise are
 * as few as one per possible CPU (non-preemptible kernels before 6.0), so
 * calls that sleep, like fsync, run out of them under any concurrency.
 * ext4dist asks for this many where kprobe_events takes "rN:".
 */
unsigned int plan_default_maxactive(unsigned int possible_cpus);

/*
 * Decides.  Returns 0 with *choice filled; 1 when capability *need must be
 * probed first (then call again); or -errno with the reason in eb when
 * nothing the kernel offers fits what is asked.
 *
 * Automatic order: attach_order.h's table.  The tracepoints only when
 * --attach=tracepoint asks: they see fsync alone, so a run that left them
 * out of the order can never trace less than its --ops say.
 */
int plan_attach(const struct attach_want *w, const struct attach_caps *caps,
		struct attach_choice *choice, enum cap_id *need,
		struct errbuf *eb);

/* "fentry", "kprobe_multi", "tracefs", "pmu", "tracepoint". */
const char *plan_path_name(enum attach_mode path);

#endif
