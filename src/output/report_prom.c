/* Prometheus text exposition (format 0.0.4) of one report. */
#include <errno.h>

#include "numfmt.h"
#include "report.h"

#define METRIC "ext4dist_latency_seconds"

static int put_op(FILE *f, const char *name, const struct op_hist *h,
		  unsigned int scale)
{
	char le[NUMFMT_LEN], cum[NUMFMT_LEN], sum[NUMFMT_LEN];
	u128 running = h->slots[0];
	unsigned int s;

	for (s = 1; s < NR_SLOTS; s++) {
		running += h->slots[s];
		if (numfmt_decimal(le, sizeof(le), (u128)1 << s, scale,
				   1) < 0 ||
		    numfmt_u128(cum, sizeof(cum), running) < 0)
			return -ENOSPC;
		fprintf(f, METRIC "_bucket{op=\"%s\",le=\"%s\"} %s\n", name, le,
			cum);
	}
	if (numfmt_decimal(sum, sizeof(sum), h->sum_ns, 9, 1) < 0)
		return -ENOSPC;
	fprintf(f, METRIC "_bucket{op=\"%s\",le=\"+Inf\"} %s\n", name, cum);
	fprintf(f, METRIC "_sum{op=\"%s\"} %s\n", name, sum);
	fprintf(f, METRIC "_count{op=\"%s\"} %s\n", name, cum);
	return 0;
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
	return ferror(f) ? -EIO : 0;
}
