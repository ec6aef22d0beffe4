/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The log2 slot of a latency in output units, as BCC's bpf_log2l counts
 * it (slot 1 for 0 and 1, 2 for 2..3, 3 for 4..7, ...), without a loop
 * (loops need 5.3) and without dividing (32-bit ARM's JIT has no 64-bit
 * division).  Plain C: the host's unit tests include it too.
 *
 * Both find the largest k with floor(delta / 2^k) >= factor, which is
 * floor(log2(delta / factor)): floor(d / 2^k) >= f holds exactly when
 * d >= f * 2^k, so no rounding ever moves a value, and for delta < factor
 * no step adds anything (slot 1, as BCC's).
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
 * One step of log2_slot(): shift a copy of the value by a constant and
 * keep it when it still reaches the factor.  floor(floor(d / 2^a) / 2^b)
 * is floor(d / 2^(a + b)), so each compare is as exact as on delta.  In
 * BPF written out: clang would test each step twice (once for k, once
 * for x), doubling the branches the verifier walks.  LOG2_LAST: the last
 * step, whose shifted value nobody reads.
 */
#ifdef __bpf__
#define LOG2_STEP(x, k, f, s) do {					\
	__u64 t_;							\
									\
	asm volatile("%[tmp] = %[val]\n\t"					\
		     "%[tmp] >>= %[sh]\n\t"					\
		     "if %[fac] > %[tmp] goto l%=\n\t"				\
		     "%[val] = %[tmp]\n\t"					\
		     "%[cnt] += %[sh]\n"					\
		     "l%=:"							\
		     : [val] "+r"(x), [cnt] "+r"(k), [tmp] "=&r"(t_)		\
		     : [fac] "r"(f), [sh] "i"(s));				\
} while (0)
#define LOG2_LAST(x, k, f) do {						\
	asm volatile("%[val] >>= 1\n\t"					\
		     "if %[fac] > %[val] goto l%=\n\t"				\
		     "%[cnt] += 1\n"						\
		     "l%=:"							\
		     : [val] "+r"(x), [cnt] "+r"(k) : [fac] "r"(f));		\
} while (0)
#else
#define LOG2_STEP(x, k, f, s) do {					\
	__u64 t_ = (x) >> (s);						\
									\
	if (t_ >= (f)) {						\
		(x) = t_;						\
		(k) += (s);						\
	}								\
} while (0)
#define LOG2_LAST(x, k, f) ((k) += ((x) >> 1) >= (f))
#endif

/*
 * base + floor(log2(delta / factor)) for delta >= factor, base below it
 * (0 < factor): a binary search that shifts the value, six branches,
 * 3 instructions a step not taken and 5 taken.  base may be any number
 * (the sum wraps as unsigned): a program that indexes with the result
 * starts from a number the verifier knows nothing of (trace_return), so
 * that every path's count is as unknown to it as every other's.
 */
static inline __attribute__((always_inline))
__u64 log2_steps(__u64 delta, __u64 factor, __u64 base)
{
	__u64 x = delta, k = base;

	LOG2_STEP(x, k, factor, 32);
	LOG2_STEP(x, k, factor, 16);
	LOG2_STEP(x, k, factor, 8);
	LOG2_STEP(x, k, factor, 4);
	LOG2_STEP(x, k, factor, 2);
	LOG2_LAST(x, k, factor);
	return k;
}

/* Slot of delta / factor (0 < factor), counted from 1. */
static inline __attribute__((always_inline))
__u64 log2_slot(__u64 delta, __u64 factor)
{
	return log2_steps(delta, factor, 1);
}

/*
 * The same slot for programs whose index the verifier must see (the
 * atomic twins, ext4dist.bpf.c), for 0 < factor < 2^63 and delta < 2^63
 * (a latency in ns is): a binary search over k with variable shifts.
 * Steps two and three branch (cheaper to run), the others do not: the
 * verifier walks what follows once per path, and 4 paths cost it little
 * where 64 made most of 4.19's start-up (docs/performance.md).  The first
 * step (k = 32, a latency of 2^32 units) costs one instruction more
 * without its branch and halves the paths.
 */
static inline __attribute__((always_inline))
__u64 log2_slot_k(__u64 delta, __u64 factor)
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
