// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-maps: a per-CPU map's value as the kernel hands it over, one
 * copy per possible CPU, summed in front of the reader.
 */
#include "tool/dump/dump_maps.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "output/report.h"
#include "output/tool_name.h"

/* The count at byte off of CPU c's copy. */
static unsigned long long count_at(const struct op_hist *vals, size_t c,
				   size_t off)
{
	unsigned long long v;

	memcpy(&v, (const char *)&vals[c] + off, sizeof(v));
	return v;
}

/* One count's copies, "cpu0 3 + cpu1 8 = 11"; nothing when all are 0. */
static void print_row(FILE *f, const char *what, const struct op_hist *vals,
		      size_t n, size_t off)
{
	unsigned long long sum = 0;
	size_t c;

	for (c = 0; c < n; c++)
		sum += count_at(vals, c, off);
	if (!sum)
		return;
	fprintf(f, "%s:   %s:", tool_name(), what);
	for (c = 0; c < n; c++)
		fprintf(f, "%s cpu%zu %llu", c ? " +" : "", c,
			count_at(vals, c, off));
	fprintf(f, " = %llu\n", sum);
}

int dump_maps_hist(FILE *f, unsigned int key, const struct op_hist *vals,
		   size_t n, int percpu, const char *unit)
{
	unsigned long long low, high;
	unsigned int s;
	char what[96];

	if (percpu)
		fprintf(f, "%s: map hist, key %u (%s, buffer %u): %zu per-CPU value%s\n",
			tool_name(), key, report_op_name(key % NR_OPS), key / NR_OPS, n,
			n == 1 ? "" : "s");
	else
		fprintf(f, "%s: map hist, key %u (%s, buffer %u): one value (a plain array: every CPU adds into it atomically)\n",
			tool_name(), key, report_op_name(key % NR_OPS), key / NR_OPS);
	for (s = 0; s < NR_SLOTS; s++) {
		report_slot_bounds(s, &low, &high);
		snprintf(what, sizeof(what), "slot %u (%llu -> %llu %s)", s,
			 low, high, unit);
		print_row(f, what, vals, n,
			  offsetof(struct op_hist, slots) +
			  s * sizeof(vals->slots[0]));
	}
	print_row(f, "queued", vals, n, offsetof(struct op_hist, queued));
	print_row(f, "errors", vals, n, offsetof(struct op_hist, errors));
	print_row(f, "stolen", vals, n, offsetof(struct op_hist, stolen));
	return ferror(f) ? -EIO : 0;
}
