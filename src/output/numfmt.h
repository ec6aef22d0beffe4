/* SPDX-License-Identifier: GPL-2.0 */
/* Exact decimal formatting of wide integers for the output layer. */
#ifndef EXT4DIST_OUTPUT_NUMFMT_H
#define EXT4DIST_OUTPUT_NUMFMT_H

#include <stddef.h>

/* Sums of 64 u64 slots need more than 64 bits. */
__extension__ typedef unsigned __int128 u128;

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
