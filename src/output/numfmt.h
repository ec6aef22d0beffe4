/* SPDX-License-Identifier: GPL-2.0 */
/* Exact decimal formatting of wide integers for the output layer. */
#ifndef EXT4DIST_OUTPUT_NUMFMT_H
#define EXT4DIST_OUTPUT_NUMFMT_H

#include <stddef.h>

/*
 * Sums of 64 u64 slots need more than 64 bits.  A pair of u64, not
 * unsigned __int128: gcc has none on 32-bit targets (32-bit ARM).
 */
typedef struct {
	unsigned long long hi, lo;
} u128;

static inline u128 u128_of(unsigned long long v)
{
	u128 r = { 0, v };

	return r;
}

static inline int u128_is_zero(u128 a)
{
	return !a.hi && !a.lo;
}

/* -1, 0 or 1 as a < b, a == b, a > b. */
static inline int u128_cmp(u128 a, u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	return a.lo < b.lo ? -1 : a.lo > b.lo;
}

static inline u128 u128_add(u128 a, u128 b)
{
	u128 r = { a.hi + b.hi, a.lo + b.lo };

	r.hi += r.lo < a.lo;
	return r;
}

static inline u128 u128_add64(u128 a, unsigned long long b)
{
	return u128_add(a, u128_of(b));
}

/* a - b for a >= b. */
static inline u128 u128_sub(u128 a, u128 b)
{
	u128 r = { a.hi - b.hi - (a.lo < b.lo), a.lo - b.lo };

	return r;
}

/* a << s for s < 128 (bits past 128 are lost). */
static inline u128 u128_shl(u128 a, unsigned int s)
{
	u128 r;

	if (s == 0)
		return a;
	if (s >= 64) {
		r.hi = a.lo << (s - 64);
		r.lo = 0;
	} else {
		r.hi = a.hi << s | a.lo >> (64 - s);
		r.lo = a.lo << s;
	}
	return r;
}

/* The low 128 bits of a * b. */
u128 u128_mul64(u128 a, unsigned long long b);
/* a / b and, when rem is not NULL, a % b; b != 0. */
u128 u128_divmod(u128 a, u128 b, u128 *rem);

/* Longest text of a u128 (39 digits), a point and the NUL. */
#define NUMFMT_LEN 48

/* Writes v in decimal; returns the length or -ENOSPC. */
int numfmt_u128(char *buf, size_t len, u128 v);
/*
 * Writes v / 10^scale exactly (scale <= 30).  With trim, trailing zeros of
 * the fraction are dropped and so is a point left alone ("1.5", "2");
 * without, exactly scale decimals follow the point.
 */
int numfmt_decimal(char *buf, size_t len, u128 v, unsigned int scale,
		   int trim);
/* Sum of all slots of a histogram. */
u128 numfmt_total(const unsigned long long *slots, unsigned int n);

#endif
