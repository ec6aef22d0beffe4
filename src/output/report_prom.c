// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition (format 0.0.4) of the reports, for the
 * --prometheus file and the --listen exporter alike: the same series,
 * names and labels on both.
 */
#include <errno.h>
#include <stdlib.h>

#include "file_replace.h"
#include "numfmt.h"
#include "report.h"

/* The metrics, after the file system's prefix ("ext4dist"). */
#define LATENCY "_latency_seconds"
#define UNTIMED "_untimed_calls_total"
#define IN_FLIGHT "_calls_in_flight"

static int put_op(FILE *f, const struct report *r, unsigned int op,
		  unsigned int scale)
{
	char le[NUMFMT_LEN], cum[NUMFMT_LEN], sum[NUMFMT_LEN];
	const struct op_hist *h = &r->ops[op];
	const char *m = r->metric, *fs = r->fs_name;
	const char *name = report_op_name(op);
	u128 running = u128_of(h->slots[0]);
	unsigned int s;

	for (s = 1; s < NR_SLOTS; s++) {
		running = u128_add64(running, h->slots[s]);
		if (numfmt_decimal(le, sizeof(le), u128_shl(u128_of(1), s), scale,
				   1) < 0 ||
		    numfmt_u128(cum, sizeof(cum), running) < 0)
			return -ENOSPC;
		fprintf(f, "%s" LATENCY "_bucket{fs=\"%s\",op=\"%s\",le=\"%s\"} %s\n",
			m, fs, name, le, cum);
	}
	if (numfmt_decimal(sum, sizeof(sum), u128_of(h->sum_ns), 9, 1) < 0)
		return -ENOSPC;
	fprintf(f, "%s" LATENCY "_bucket{fs=\"%s\",op=\"%s\",le=\"+Inf\"} %s\n",
		m, fs, name, cum);
	fprintf(f, "%s" LATENCY "_sum{fs=\"%s\",op=\"%s\"} %s\n", m, fs, name,
		sum);
	fprintf(f, "%s" LATENCY "_count{fs=\"%s\",op=\"%s\"} %s\n", m, fs, name,
		cum);
	return 0;
}

/* Calls that entered a traced function and are not in the histogram. */
static void put_untimed(FILE *f, const struct report *r)
{
	static const char *const reasons[] = {
		"queued", "error", "missed", "stolen", "unseen",
	};
	const char *m = r->metric, *fs = r->fs_name;
	unsigned int op, i;

	fprintf(f, "# HELP %s" UNTIMED " %s calls not in the latency histogram, by reason.\n",
		m, fs);
	fprintf(f, "# TYPE %s" UNTIMED " counter\n", m);
	for (op = 0; op < NR_OPS; op++) {
		const struct op_hist *h = &r->ops[op];
		const unsigned long long n[] = {
			h->queued, h->errors, r->flow[op].missed, h->stolen,
			r->flow[op].unseen,
		};

		if (!(r->ops_mask & (1u << op)))
			continue;
		for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
			fprintf(f, "%s" UNTIMED "{fs=\"%s\",op=\"%s\",reason=\"%s\"} %llu\n",
				m, fs, report_op_name(op), reasons[i], n[i]);
	}
	fprintf(f, "# HELP %s" IN_FLIGHT " %s calls entered and not yet returned.\n",
		m, fs);
	fprintf(f, "# TYPE %s" IN_FLIGHT " gauge\n", m);
	for (op = 0; op < NR_OPS; op++)
		if (r->ops_mask & (1u << op))
			fprintf(f, "%s" IN_FLIGHT "{fs=\"%s\",op=\"%s\"} %llu\n",
				m, fs, report_op_name(op),
				r->flow[op].in_flight);
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
		err = put_op(f, r, op, scale);
		if (err)
			return err;
	}
	put_untimed(f, r);
	return ferror(f) ? -EIO : 0;
}

int report_prom_all(FILE *f, const struct report *r, unsigned int n)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = report_prom(f, &r[i]);
	return err;
}

int report_prom_render(const struct report *r, unsigned int n, char **buf,
		       size_t *len)
{
	FILE *m;
	int err;

	*buf = NULL;
	*len = 0;
	m = open_memstream(buf, len);
	if (!m)
		return -errno;
	err = report_prom_all(m, r, n);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (err) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}

int report_prom_write_file(const char *path, const struct report *r,
			   unsigned int n)
{
	char *buf;
	size_t len;
	int err = report_prom_render(r, n, &buf, &len);

	if (err)
		return err;
	err = file_replace(path, buf, len);
	free(buf);
	return err;
}

int report_prom_check_file(const char *path, char *msg, size_t size)
{
	return file_replace_check("--prometheus", path, msg, size);
}
