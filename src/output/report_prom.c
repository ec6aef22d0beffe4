// SPDX-License-Identifier: GPL-2.0
/* Prometheus text exposition (format 0.0.4) of one report. */
#include <errno.h>

#include "numfmt.h"
#include "report.h"

#define METRIC "ext4dist_latency_seconds"
#define UNTIMED "ext4dist_untimed_calls_total"
#define IN_FLIGHT "ext4dist_calls_in_flight"

static int put_op(FILE *f, const char *name, const struct op_hist *h,
		  unsigned int scale)
{
	char le[NUMFMT_LEN], cum[NUMFMT_LEN], sum[NUMFMT_LEN];
	u128 running = u128_of(h->slots[0]);
	unsigned int s;

	for (s = 1; s < NR_SLOTS; s++) {
		running = u128_add64(running, h->slots[s]);
		if (numfmt_decimal(le, sizeof(le), u128_shl(u128_of(1), s), scale,
				   1) < 0 ||
		    numfmt_u128(cum, sizeof(cum), running) < 0)
			return -ENOSPC;
		fprintf(f, METRIC "_bucket{op=\"%s\",le=\"%s\"} %s\n", name, le,
			cum);
	}
	if (numfmt_decimal(sum, sizeof(sum), u128_of(h->sum_ns), 9, 1) < 0)
		return -ENOSPC;
	fprintf(f, METRIC "_bucket{op=\"%s\",le=\"+Inf\"} %s\n", name, cum);
	fprintf(f, METRIC "_sum{op=\"%s\"} %s\n", name, sum);
	fprintf(f, METRIC "_count{op=\"%s\"} %s\n", name, cum);
	return 0;
}

/* Calls that entered a traced function and are not in the histogram. */
static void put_untimed(FILE *f, const struct report *r)
{
	unsigned int op;

	fputs("# HELP " UNTIMED " ext4 calls not in the latency histogram, by reason.\n", f);
	fputs("# TYPE " UNTIMED " counter\n", f);
	for (op = 0; op < NR_OPS; op++) {
		const char *name = report_op_name(op);
		const struct op_hist *h = &r->ops[op];

		if (!(r->ops_mask & (1u << op)))
			continue;
		fprintf(f, UNTIMED "{op=\"%s\",reason=\"queued\"} %llu\n", name,
			h->queued);
		fprintf(f, UNTIMED "{op=\"%s\",reason=\"error\"} %llu\n", name,
			h->errors);
		fprintf(f, UNTIMED "{op=\"%s\",reason=\"missed\"} %llu\n", name,
			r->flow[op].missed);
		fprintf(f, UNTIMED "{op=\"%s\",reason=\"stolen\"} %llu\n", name,
			h->stolen);
	}
	fputs("# HELP " IN_FLIGHT " ext4 calls entered and not yet returned.\n", f);
	fputs("# TYPE " IN_FLIGHT " gauge\n", f);
	for (op = 0; op < NR_OPS; op++)
		if (r->ops_mask & (1u << op))
			fprintf(f, IN_FLIGHT "{op=\"%s\"} %llu\n",
				report_op_name(op), r->flow[op].in_flight);
}

int report_prom(FILE *f, const struct report *r)
{
	unsigned int scale = r->milliseconds ? 3 : 6;
	unsigned int op;
	int err;

	fputs("# HELP " METRIC " Latency of ext4 file operations.\n", f);
	fputs("# TYPE " METRIC " histogram\n", f);
	for (op = 0; op < NR_OPS; op++) {
		if (!(r->ops_mask & (1u << op)))
			continue;
		err = put_op(f, report_op_name(op), &r->ops[op], scale);
		if (err)
			return err;
	}
	put_untimed(f, r);
	return ferror(f) ? -EIO : 0;
}
