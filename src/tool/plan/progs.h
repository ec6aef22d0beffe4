/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the embedded object's programs a run loads, by attach path and
 * mode: decided here alone, for the run (tool/engine/attach_*.c) and for
 * --check's verification of what the run would load (verify.c) alike.
 */
#ifndef EXT4DIST_TOOL_PROGS_H
#define EXT4DIST_TOOL_PROGS_H

#include "loader/loader.h"
#include "tool/fs/fs.h"
#include "tool/plan/want.h"

struct prog_mode {
	/*
	 * The path: ATTACH_FENTRY, _MULTI, _TRACEPOINT, or the kprobe pairs
	 * of _PMU and _TRACEFS (ATTACH_AUTO, no path planned, as theirs).
	 */
	enum attach_mode path;
	int slow;		/* slow mode's programs (PROG_SLOW) */
	int percpu;		/* per-CPU counters: else the atomic twins */
	int by_ip;		/* kprobe_multi: the functions' addresses patched */
};

/*
 * The variant of m's programs (a section's last word): plain adds where
 * the counters are per-CPU, the atomic twins for the plain arrays before
 * 4.6 (ext4dist_abi.h, PROG_ATOMIC): 32-bit ARM's JIT has no atomic add.
 * Slow mode has programs of its own (PROG_SLOW); by_ip picks the
 * kprobe_multi programs by address.  fentry/fexit and the tracepoints
 * have no atomic twins (they need per-CPU maps: probe.c); a tracepoint's
 * program is named by its event, "" here.
 */
const char *prog_variant(const struct prog_mode *m);

/*
 * The program of kind (entry or return) that a run of mode m loads for
 * func, a function of fs (its read path's too): fentry or fexit, kprobe
 * or kretprobe, the kprobe_multi program every function shares, or the
 * fsync tracepoints' enter or exit program.  NULL when obj has none.
 * An fentry/fexit program still needs func's BTF id (attach_prog.c).
 */
struct obj_prog *prog_of(struct bpf_obj *obj, const struct fs_table *fs,
			 const struct prog_mode *m, enum probe_kind kind,
			 const char *func);

/* "fexit", "kprobe", ...: what prog_of() looked for, for messages. */
const char *prog_kind_name(const struct prog_mode *m, enum probe_kind kind);

/*
 * 1 when a run in slow mode (slow) or the histogram mode may load the
 * program of section, on any path it may take (the fallbacks too):
 * slow mode's and name discovery's ("peek") in slow mode, the histogram
 * ones otherwise, the f_op scan in both, never the lessons
 * (--dump-bpf=refused's).  The object's others are not kept.
 */
int prog_run_keeps(const char *section, int slow);

#endif
