/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log2 slots without loops (loops need 5.3), as BCC's bpf_log2l counts
 * them: log2l_plus1(0) == log2l_plus1(1) == 1, 2..3 -> 2, 4..7 -> 3, ...
 */
#ifndef EXT4DIST_BPF_LOG2_H
#define EXT4DIST_BPF_LOG2_H

#include "bpf_legacy.h"

INLINE __u32 log2_32(__u32 v)
{
	__u32 r, shift;

	r = (v > 0xFFFF) << 4;
	v >>= r;
	shift = (v > 0xFF) << 3;
	v >>= shift;
	r |= shift;
	shift = (v > 0xF) << 2;
	v >>= shift;
	r |= shift;
	shift = (v > 0x3) << 1;
	v >>= shift;
	r |= shift;
	r |= (v >> 1);
	return r;
}

INLINE __u32 log2l_plus1(__u64 v)
{
	__u32 hi = v >> 32;

	if (hi)
		return log2_32(hi) + 32 + 1;
	return log2_32((__u32)v) + 1;
}

#endif
