/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the running kernel may preempt a task in the middle of a BPF
 * program.  It matters for fentry/fexit: a trampoline's program runs with
 * preemption on (5.8+: migrate_disable), and from 5.12 the kernel skips a
 * program that is already running on the CPU, so while one task sits
 * preempted inside it, every call of that function on its CPU goes
 * without it.  kprobe programs run with preemption off: never skipped so.
 */
#ifndef EXT4DIST_LOADER_KERNEL_PREEMPT_H
#define EXT4DIST_LOADER_KERNEL_PREEMPT_H

#include <stddef.h>

enum preempt_model {
	PREEMPT_MODEL_UNKNOWN = 0,
	PREEMPT_MODEL_OFF,	/* none or voluntary: no preemption in programs */
	PREEMPT_MODEL_ON,	/* full, lazy or real-time */
	PREEMPT_MODEL_DYNAMIC,	/* chosen at boot or later: ask further */
	PREEMPT_MODEL_NOFILE,	/* not read: the file table was full */
};

/* Where to look; NULL members (or a NULL struct) mean the real places. */
struct preempt_paths {
	const char *uname_version;	/* uname -v; NULL: uname() */
	const char *debugfs;		/* "/sys/kernel/debug" */
	const char *cmdline;		/* "/proc/cmdline" */
	const char *config;		/* "/boot/config-$(uname -r)" */
};

/*
 * The parsers.  Each returns a model and writes the mode it found, as the
 * kernel names it ("voluntary", "full", "PREEMPT_RT"), to mode.
 *
 * preempt_from_uname: uname -v's build flags ("#1 SMP PREEMPT_DYNAMIC
 *   ..."): PREEMPT_RT or PREEMPT (full, built in), PREEMPT_DYNAMIC
 *   (DYNAMIC), or none of them (OFF: none or voluntary, built in).
 * preempt_from_sched: debugfs's sched/preempt, "none voluntary (full)":
 *   the mode in parentheses (5.12+, PREEMPT_DYNAMIC).
 * preempt_from_cmdline: preempt= on the kernel command line; UNKNOWN
 *   without one.
 * preempt_from_config: a kernel config's default mode
 *   (CONFIG_PREEMPT_NONE, _VOLUNTARY, CONFIG_PREEMPT, _LAZY, _RT);
 *   UNKNOWN without one.
 */
enum preempt_model preempt_from_uname(const char *version, char *mode,
				      size_t size);
enum preempt_model preempt_from_sched(const char *text, char *mode,
				      size_t size);
enum preempt_model preempt_from_cmdline(const char *cmdline, char *mode,
					size_t size);
enum preempt_model preempt_from_config(const char *text, char *mode,
				       size_t size);

/*
 * The running kernel's model (OFF, ON or UNKNOWN), from uname -v, and for
 * PREEMPT_DYNAMIC kernels from debugfs's sched/preempt (mounting debugfs
 * for a moment where it is not mounted), else preempt= on the command
 * line, else the config file's default.  why says which and where.
 * NOFILE when a file could not be opened for a full file table (why:
 * errbuf_nofile()'s line): nothing is known then.
 */
enum preempt_model kernel_preemption(const struct preempt_paths *paths,
				     char *why, size_t size);

#endif
