// SPDX-License-Identifier: GPL-2.0
/* Prometheus text exposition (format 0.0.4) of one report. */
#include <errno.h>

#include "numfmt.h"
#include "report.h"

/* The metrics, after the file system's prefix ("ext4dist"). */
#define LATENCY "_latency_seconds"
#define UNTIMED "_untimed_calls_total"
#define IN_FLIGHT "_calls_in_flight"

static int put_op(FILE *f, const char *m, const char *name,
		  const struct op_hist *h, unsigned int scale)
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
		fprintf(f, "%s" LATENCY "_bucket{op=\"%s\",le=\"%s\"} %s\n", m,
			name, le, cum);
	}
	if (numfmt_decimal(sum, sizeof(sum), u128_of(h->sum_ns), 9, 1) < 0)
		return -ENOSPC;
	fprintf(f, "%s" LATENCY "_bucket{op=\"%s\",le=\"+Inf\"} %s\n", m, name,
		cum);
	fprintf(f, "%s" LATENCY "_sum{op=\"%s\"} %s\n", m, name, sum);
	fprintf(f, "%s" LATENCY "_count{op=\"%s\"} %s\n", m, name, cum);
	return 0;
}

/* Calls that entered a traced function and are not in the histogram. */
static void put_untimed(FILE *f, const struct report *r)
{
	unsigned int op;

	const char *m = r->metric;

	fprintf(f, "# HELP %s" UNTIMED " %s calls not in the latency histogram, by reason.\n",
		m, r->fs_name);
	fprintf(f, "# TYPE %s" UNTIMED " counter\n", m);
	for (op = 0; op < NR_OPS; op++) {
		const char *name = report_op_name(op);
		const struct op_hist *h = &r->ops[op];

		if (!(r->ops_mask & (1u << op)))
			continue;
		fprintf(f, "%s" UNTIMED "{op=\"%s\",reason=\"queued\"} %llu\n",
			m, name, h->queued);
		fprintf(f, "%s" UNTIMED "{op=\"%s\",reason=\"error\"} %llu\n",
			m, name, h->errors);
		fprintf(f, "%s" UNTIMED "{op=\"%s\",reason=\"missed\"} %llu\n",
			m, name, r->flow[op].missed);
		fprintf(f, "%s" UNTIMED "{op=\"%s\",reason=\"stolen\"} %llu\n",
			m, name, h->stolen);
		fprintf(f, "%s" UNTIMED "{op=\"%s\",reason=\"unseen\"} %llu\n",
			m, name, r->flow[op].unseen);
	}
	fprintf(f, "# HELP %s" IN_FLIGHT " %s calls entered and not yet returned.\n",
		m, r->fs_name);
	fprintf(f, "# TYPE %s" IN_FLIGHT " gauge\n", m);
	for (op = 0; op < NR_OPS; op++)
		if (r->ops_mask & (1u << op))
			fprintf(f, "%s" IN_FLIGHT "{op=\"%s\"} %llu\n", m,
				report_op_name(op), r->flow[op].in_flight);
}

int report_prom(FILE *f, const struct report *r)
{
	unsigned int scale = r->milliseconds ? 3 : 6;
	unsigned int op;
	int err;

	fprintf(f, "# HELP %s" LATENCY " Latency of %s file operations.\n",
		r->metric, r->fs_name);
	fprintf(f, "# TYPE %s" LATENCY " histogram\n", r->metric);
	for (op = 0; op < NR_OPS; op++) {
		if (!(r->ops_mask & (1u << op)))
			continue;
		err = put_op(f, r->metric, report_op_name(op), &r->ops[op],
			     scale);
		if (err)
			return err;
	}
	put_untimed(f, r);
	return ferror(f) ? -EIO : 0;
}
