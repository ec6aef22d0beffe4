// SPDX-License-Identifier: GPL-2.0
/* BCC's log2 histogram text (table.py _print_log2_hist and _stars). */
#include <errno.h>

#include "loader/util/ilog2.h"
#include "numfmt.h"
#include "report.h"

#define HEADER "     %-19s : count     distribution\n"
#define WIDE_HEADER "               %-29s : count     distribution\n"

/*
 * BCC draws a star for each i >= 0 with i <= width * val / val_max - 1
 * and i <= width - 1, the division being Python 3's true division of two
 * ints: the double nearest to the exact ratio x.  So the count is
 * floor(RN(x)) capped at width.  With x = k + r / val_max (integers),
 * floor(RN(x)) is k unless x rounds up to m = k + 1.  m <= 64 is a small
 * integer with an even significand, so ties go to it; the double below m
 * is m - 2^(e-52), or m - 2^(e-53) when m = 2^e.  x rounds to m when
 * m - x = (val_max - r) / val_max is at most half that gap, that is when
 * (val_max - r) * 2^(53-e) <= val_max (2^(54-e) when m is a power of 2).
 * This only matters for val_max above about 2^47.
 */
unsigned int report_stars(unsigned long long val, unsigned long long val_max,
			  unsigned int width)
{
	u128 num, k, r, gap;
	unsigned long long m;
	unsigned int e, shift;

	if (!val_max || !width)
		return 0;
	num = u128_mul64(u128_of(width), val);
	k = u128_divmod(num, u128_of(val_max), &r);
	if (u128_cmp(k, u128_of(width)) >= 0)
		return width;
	if (!u128_is_zero(r)) {
		m = k.lo + 1;
		e = ilog2_ull(m);
		shift = (m & (m - 1)) ? 53 - e : 54 - e;
		gap = u128_shl(u128_of(val_max - r.lo), shift);
		if (u128_cmp(gap, u128_of(val_max)) <= 0)
			k = u128_of(m);
	}
	return (unsigned int)k.lo;
}

static int put_stars(FILE *f, unsigned int n, unsigned int width)
{
	unsigned int i;

	for (i = 0; i < width; i++)
		if (fputc(i < n ? '*' : ' ', f) == EOF)
			return -EIO;
	return 0;
}

int report_log2_hist(FILE *f, const unsigned long long *vals, unsigned int n,
		     const char *label)
{
	unsigned long long val_max = 0, low, high;
	unsigned int i, width;
	int idx_max = -1, wide, err;

	if (n > 64)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (vals[i])
			idx_max = (int)i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	wide = idx_max > 32;
	width = wide ? REPORT_STARS_MAX / 2 : REPORT_STARS_MAX;
	if (idx_max > 0)
		fprintf(f, wide ? WIDE_HEADER : HEADER, label);
	for (i = 1; (int)i <= idx_max; i++) {
		report_slot_bounds(i, &low, &high);
		if (wide)
			fprintf(f, "%20llu -> %-20llu : %-8llu |", low, high,
				vals[i]);
		else
			fprintf(f, "%10llu -> %-10llu : %-8llu |", low, high,
				vals[i]);
		err = put_stars(f, report_stars(vals[i], val_max, width),
				width);
		if (err)
			return err;
		fputs("|\n", f);
	}
	return ferror(f) ? -EIO : 0;
}
