// SPDX-License-Identifier: GPL-2.0
/* Operation names, units and bucket bounds shared by every format. */
#include "report.h"

static const char *const op_names[NR_OPS] = {
	[OP_READ] = "read",
	[OP_WRITE] = "write",
	[OP_OPEN] = "open",
	[OP_FSYNC] = "fsync",
	[OP_GETATTR] = "getattr",
};

const char *report_op_name(unsigned int op)
{
	return op < NR_OPS ? op_names[op] : NULL;
}

const char *report_unit(int milliseconds)
{
	return milliseconds ? "msecs" : "usecs";
}

/*
 * BCC: low = (1 << i) >> 1, high = (1 << i) - 1, and low -= 1 when they
 * meet (slot 1: 0 -> 1).  Done in unsigned arithmetic so slot 63 gives
 * 2^62 -> 2^63 - 1 without overflow.
 */
void report_slot_bounds(unsigned int slot, unsigned long long *low,
			unsigned long long *high)
{
	unsigned long long top;

	if (slot == 0 || slot >= 64) {
		*low = 0;
		*high = 0;
		return;
	}
	top = 1ULL << slot;
	*low = top >> 1;
	*high = top - 1;
	if (*low == *high)
		*low -= 1;
}

int report_op_has_events(const struct op_hist *h)
{
	unsigned int i;

	for (i = 0; i < NR_SLOTS; i++)
		if (h->slots[i])
			return 1;
	return 0;
}

int report_op_has_returns(const struct op_hist *h)
{
	return report_op_has_events(h) || h->queued || h->errors;
}
