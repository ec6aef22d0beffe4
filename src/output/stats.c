// SPDX-License-Identifier: GPL-2.0
/* Summary statistics of one histogram: the -e/--extended line. */
#include <errno.h>

#include "numfmt.h"
#include "report.h"

static const unsigned int percentiles[] = { 50, 90, 99 };

int report_percentile_slot(const struct op_hist *h, unsigned int p)
{
	u128 total = numfmt_total(h->slots, NR_SLOTS), rank, seen = u128_of(0);
	unsigned int i;

	if (p < 1 || p > 100)
		return -EINVAL;
	if (u128_is_zero(total))
		return -ENODATA;
	rank = u128_divmod(u128_add64(u128_mul64(total, p), 99), u128_of(100),
			   NULL);
	for (i = 0; i < NR_SLOTS; i++) {
		seen = u128_add64(seen, h->slots[i]);
		if (u128_cmp(seen, rank) >= 0)
			return (int)i;
	}
	return NR_SLOTS - 1;	/* not reached: seen ends at total */
}

/* ns / (count * factor) in thousandths of the unit, rounded half up. */
static u128 milli_units(unsigned long long ns, u128 count,
			unsigned long long factor)
{
	u128 den = u128_mul64(count, factor);

	return u128_divmod(u128_add(u128_mul64(u128_of(ns), 2000), den),
			   u128_shl(den, 1), NULL);
}

int report_extended_line(FILE *f, const struct op_hist *h, int milliseconds)
{
	unsigned long long factor = milliseconds ? 1000000 : 1000;
	const char *unit = report_unit(milliseconds);
	u128 total = numfmt_total(h->slots, NR_SLOTS);
	char count[NUMFMT_LEN], mean[NUMFMT_LEN], max[NUMFMT_LEN];
	unsigned long long low, high;
	unsigned int i;
	int slot;

	if (u128_is_zero(total))
		return 0;
	if (numfmt_u128(count, sizeof(count), total) < 0 ||
	    numfmt_decimal(mean, sizeof(mean),
			   milli_units(h->sum_ns, total, factor), 3, 0) < 0 ||
	    numfmt_decimal(max, sizeof(max),
			   milli_units(h->max_ns, u128_of(1), factor), 3, 0) < 0)
		return -ENOSPC;
	fprintf(f, "count %s, mean %s %s, max %s %s", count, mean, unit, max,
		unit);
	for (i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++) {
		slot = report_percentile_slot(h, percentiles[i]);
		if (slot < 0)
			return slot;
		report_slot_bounds((unsigned int)slot, &low, &high);
		fprintf(f, ", p%u in [%llu, %llu]", percentiles[i], low, high);
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
