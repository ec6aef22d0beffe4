// SPDX-License-Identifier: GPL-2.0
/*
 * One report in BCC's text format, as ext4dist.py prints it each interval:
 * an empty line, "%H:%M:%S:" when show_time, then for each operation with
 * events "\noperation = 'read'" and its log2 histogram.
 */
#include <errno.h>

#include "report.h"

static int put_time(FILE *f, time_t when)
{
	char buf[32];
	struct tm tm;

	if (!localtime_r(&when, &tm))
		return -EOVERFLOW;
	if (!strftime(buf, sizeof(buf), "%H:%M:%S:", &tm))
		return -ENOSPC;
	fprintf(f, "%s\n", buf);
	return 0;
}

/* "not in the histogram: 3 asynchronous (-EIOCBQUEUED), 1 error" */
static void put_untimed(FILE *f, const struct op_hist *h)
{
	if (!h->queued && !h->errors)
		return;
	fputs("not in the histogram:", f);
	if (h->queued)
		fprintf(f, " %llu asynchronous (-EIOCBQUEUED)%s", h->queued,
			h->errors ? "," : "");
	if (h->errors)
		fprintf(f, " %llu error%s", h->errors,
			h->errors == 1 ? "" : "s");
	fputc('\n', f);
}

int report_text(FILE *f, const struct report *r)
{
	const char *label = report_unit(r->milliseconds);
	const struct op_hist *h;
	unsigned int op;
	int err;

	fputc('\n', f);
	if (r->show_time) {
		err = put_time(f, r->when);
		if (err)
			return err;
	}
	if (r->multi_fs)
		fprintf(f, "file system = '%s'\n", r->fs_name);
	for (op = 0; op < NR_OPS; op++) {
		h = &r->ops[op];
		if (!(r->ops_mask & (1u << op)) || !report_op_has_returns(h))
			continue;
		fprintf(f, "\noperation = '%s'\n", report_op_name(op));
		if (report_op_has_events(h)) {
			err = report_log2_hist(f, h->slots, NR_SLOTS, label);
			if (!err && r->extended)
				err = report_extended_line(f, h,
							   r->milliseconds);
			if (err)
				return err;
		}
		put_untimed(f, h);
	}
	return ferror(f) ? -EIO : 0;
}
