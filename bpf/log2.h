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
 * Slot of delta / factor (factor > 0): the largest k with
 * delta >> k >= factor is floor(log2(delta / factor)), found by a binary
 * search over k; delta < factor is slot 1.  floor(d / 2^k) >= f holds
 * exactly when d >= f * 2^k, so no rounding ever moves a value.
 */
static inline __attribute__((always_inline))
__u64 log2_slot(__u64 delta, __u64 factor)
{
	__u64 k = 0;

	if (delta < factor)
		return 1;
	if ((delta >> 32) >= factor)
		k = 32;
	if ((delta >> (k + 16)) >= factor)
		k += 16;
	if ((delta >> (k + 8)) >= factor)
		k += 8;
	if ((delta >> (k + 4)) >= factor)
		k += 4;
	if ((delta >> (k + 2)) >= factor)
		k += 2;
	if ((delta >> (k + 1)) >= factor)
		k += 1;
	return k + 1;
}

#endif
