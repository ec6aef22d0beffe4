/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The log2 slot of a latency in output units, as BCC's bpf_log2l counts
 * it (slot 1 for 0 and 1, 2 for 2..3, 3 for 4..7, ...), without a loop
 * (loops need 5.3) and without dividing (32-bit ARM's JIT has no 64-bit
 * division).  Plain C: the host's unit tests include it too.
 */
#ifndef EXT4DIST_BPF_LOG2_H
#define EXT4DIST_BPF_LOG2_H

#include <linux/types.h>

/*
 * 1 when x >= f, 0 otherwise, without a branch: for x, f < 2^63, f - 1 - x
 * is negative exactly when x >= f, and its sign bit is the answer.
 */
static inline __attribute__((always_inline))
__u64 at_least(__u64 x, __u64 f)
{
	return (f - 1 - x) >> 63;
}

/*
 * Slot of delta / factor (0 < factor < 2^63, delta < 2^63, as a latency in
 * ns is): the largest k with delta >> k >= factor is floor(log2(delta /
 * factor)), found by a binary search over k; floor(d / 2^k) >= f holds
 * exactly when d >= f * 2^k, so no rounding ever moves a value.  For
 * delta < factor no step adds anything: slot 1, as BCC's.
 *
 * Steps two and three branch (cheaper to run), the others do not: the
 * verifier walks what follows once per path (the slot indexes the value,
 * so it keeps each path's k apart), and 4 paths cost it little where 64
 * made most of 4.19's start-up (docs/performance.md).  The first step
 * (k = 32, a latency of 2^32 units) costs one instruction more without
 * its branch and halves the paths.
 */
static inline __attribute__((always_inline))
__u64 log2_slot(__u64 delta, __u64 factor)
{
	__u64 k = at_least(delta >> 32, factor) << 5;

	if ((delta >> (k + 16)) >= factor)
		k += 16;
	if ((delta >> (k + 8)) >= factor)
		k += 8;
	k += at_least(delta >> (k + 4), factor) << 2;
	k += at_least(delta >> (k + 2), factor) << 1;
	k += at_least(delta >> (k + 1), factor);
	return k + 1;
}

#endif
