/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run may ask of the engine beyond the defaults, in the engine's
 * own terms: the command line (tool/cli/args.h) parses into these.
 */
#ifndef EXT4DIST_TOOL_WANT_H
#define EXT4DIST_TOOL_WANT_H

enum attach_mode {
	ATTACH_AUTO = 0, ATTACH_PMU, ATTACH_TRACEFS, ATTACH_MULTI, ATTACH_FENTRY,
	ATTACH_TRACEPOINT
};

/*
 * --pretend=LIST: behave as if the kernel lacked a feature, to show (and
 * test) the fallback an older or smaller kernel takes.  Each takes a
 * capability away and never points ext4dist at another file.
 */
enum pretend {
	PRETEND_NO_PMU,		/* no kprobe PMU (before 4.17) */
	PRETEND_NO_MULTI,	/* no kprobe_multi links (before 5.18) */
	PRETEND_NO_PERCPU,	/* no per-CPU maps (before 4.6) */
	PRETEND_NO_NAMES,	/* no map and program names (before 4.15) */
	PRETEND_NO_KALLSYMS_DATA, /* kallsyms without data symbols
				     (CONFIG_KALLSYMS_ALL off) */
	PRETEND_NO_TRACEFS,	/* no tracefs, only debugfs's tracing dir
				   (before 4.1) */
	PRETEND_NO_EXT4,	/* the file system not in /proc/filesystems */
	PRETEND_NO_FENTRY,	/* no BTF, no trampolines (before 5.5) */
	PRETEND_NO_MAXACTIVE,	/* kprobe_events without "rN:" and without
				   return probes on an address (before 4.12) */
	PRETEND_NO_READ_ITER,	/* the file system's read function missing
				   (ext4_file_read_iter: before 4.10) */
	PRETEND_NO_GETATTR,	/* the getattr function missing
				   (ext4_file_getattr: before 4.11) */
	PRETEND_NO_MAP_VALUE,	/* no map value addresses in programs
				   (BPF_PSEUDO_MAP_VALUE: before 5.2) */
	NR_PRETEND
};

#endif
