// SPDX-License-Identifier: GPL-2.0
/*
 * A report's numbers grow drain by drain: an interval's report may take
 * several (the last one's settling), and the run's totals take them all.
 */
#include "report.h"

void report_add_hist(struct op_hist *dst, const struct op_hist *src)
{
	unsigned int s;

	for (s = 0; s < NR_SLOTS; s++)
		dst->slots[s] += src->slots[s];
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->queued += src->queued;
	dst->errors += src->errors;
	dst->stolen += src->stolen;
}

void report_add_flow(struct op_flow *dst, const struct op_flow *src)
{
	dst->entries += src->entries;
	dst->missed += src->missed;
	dst->unseen += src->unseen;
	/* A state, not a count of the period: the newest drain's holds. */
	dst->in_flight = src->in_flight;
}

unsigned long long report_in_flight(const struct report *r)
{
	unsigned long long n = 0;
	unsigned int op;

	for (op = 0; op < NR_OPS; op++)
		n += r->flow[op].in_flight;
	return n;
}
