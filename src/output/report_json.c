// SPDX-License-Identifier: GPL-2.0
/* One report as a single-line JSON object (format in report.h). */
#include <errno.h>

#include "numfmt.h"
#include "report.h"

static int put_op(FILE *f, const struct op_hist *h, const struct op_flow *c)
{
	char total[NUMFMT_LEN];
	unsigned long long low, high;
	unsigned int i;
	int first = 1;

	if (numfmt_u128(total, sizeof(total),
			numfmt_total(h->slots, NR_SLOTS)) < 0)
		return -ENOSPC;
	fputs("{\"buckets\":[", f);
	for (i = 0; i < NR_SLOTS; i++) {
		if (!h->slots[i])
			continue;
		report_slot_bounds(i, &low, &high);
		fprintf(f, "%s{\"low\":%llu,\"high\":%llu,\"count\":%llu}",
			first ? "" : ",", low, high, h->slots[i]);
		first = 0;
	}
	fprintf(f, "],\"count\":%s,\"sum_ns\":%llu,\"max_ns\":%llu", total,
		h->sum_ns, h->max_ns);
	fprintf(f, ",\"calls\":%llu,\"queued\":%llu,\"errors\":%llu,\"missed\":%llu,\"stolen\":%llu,\"in_flight\":%llu,\"unseen\":%llu}",
		c->entries, h->queued, h->errors, c->missed, h->stolen,
		c->in_flight, c->unseen);
	return 0;
}

int report_json(FILE *f, const struct report *r)
{
	unsigned int op;
	int first = 1, err;

	fprintf(f, "{\"time\":%lld,\"fs\":\"%s\",\"unit\":\"%s\",\"ops\":{",
		(long long)r->when, r->fs_name, report_unit(r->milliseconds));
	for (op = 0; op < NR_OPS; op++) {
		if (!(r->ops_mask & (1u << op)))
			continue;
		fprintf(f, "%s\"%s\":", first ? "" : ",", report_op_name(op));
		first = 0;
		err = put_op(f, &r->ops[op], &r->flow[op]);
		if (err)
			return err;
	}
	fputs("}}\n", f);
	return ferror(f) ? -EIO : 0;
}
