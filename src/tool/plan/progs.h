/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the embedded object's programs a run loads, by attach path and
 * mode: decided here alone, for the run and for --check alike.
 */
#ifndef EXT4DIST_TOOL_PROGS_H
#define EXT4DIST_TOOL_PROGS_H

/*
 * The variant of the programs (the section's last word): plain adds where
 * the counters are per-CPU, the atomic twins for the plain arrays before
 * 4.6 (ext4dist_abi.h, PROG_ATOMIC): 32-bit ARM's JIT has no atomic add.
 * Slow mode has programs of its own (PROG_SLOW); ip picks the
 * kprobe_multi programs by address.
 */
const char *prog_variant(int slow, int percpu, int ip);

#endif
