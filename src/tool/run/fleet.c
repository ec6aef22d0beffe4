// SPDX-License-Identifier: GPL-2.0
#include "tool/run/fleet.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/tool_name.h"

/* What a report says of itself; its numbers are the drains'. */
static void header(struct report *r, const struct tracer *t,
		   const struct run_print *pr, unsigned int n)
{
	memset(r, 0, sizeof(*r));
	r->fs_name = tracer_fs(t)->name;
	r->metric = tracer_fs(t)->metric;
	r->milliseconds = pr->milliseconds;
	r->show_time = pr->interval && !pr->notimestamp;
	r->extended = pr->extended;
	r->interval = pr->interval != 0;
	r->pid_filter = pr->pid_filter;
	r->ops_mask = tracer_ops_mask(t);
	r->start_slots = tracer_record(t)->start_slots;
	r->multi_fs = n > 1;
}

int fleet_heat_init(struct heatmap *h, struct tracer *const *t,
		    unsigned int n, unsigned long long step_ns, int ms)
{
	struct heat_panel p[HEAT_MAX_PANELS];
	unsigned int i, op, k = 0;
	struct timespec now;

	for (i = 0; i < n; i++)
		for (op = 0; op < NR_OPS && k < HEAT_MAX_PANELS; op++)
			if (tracer_ops_mask(t[i]) & (1u << op))
				p[k++] = (struct heat_panel){
					tracer_fs(t[i])->name, op };
	clock_gettime(CLOCK_MONOTONIC, &now);
	return heat_init(h, p, k, time(NULL),
			 (unsigned long long)now.tv_sec * 1000000000ULL +
			 (unsigned long long)now.tv_nsec, step_ns, ms);
}

int fleet_start(struct fleet *fl, const struct tracer_config *cfg,
		const struct fs_table *const *fs_list, unsigned int nr_fs,
		const struct run_print *pr, struct errbuf *eb,
		unsigned int *failed)
{
	struct tracer_config one = *cfg;
	unsigned int i;
	int err;

	memset(fl, 0, sizeof(*fl));
	for (i = 0; i < nr_fs; i++) {
		*failed = i;
		fl->t[i] = tracer_new();
		if (!fl->t[i])
			return errbuf_set(eb, -ENOMEM, "out of memory");
		fl->n = i + 1;
		one.fs = fs_list[i];
		err = tracer_start(fl->t[i], &one, eb);
		if (err)
			return err;
	}
	for (i = 0; i < fl->n; i++) {
		header(&fl->interval[i], fl->t[i], pr, fl->n);
		header(&fl->total[i], fl->t[i], pr, fl->n);
	}
	/* The slow mode's heatmap is of events: slow_loop.c's. */
	if (pr->heatmap && !pr->slower) {
		err = fleet_heat_init(&fl->heat, fl->t, fl->n,
				      pr->interval * 1000000000ULL,
				      pr->milliseconds);
		if (err)
			return errbuf_set(eb, err, "--heatmap: %s",
					  strerror(-err));
		fl->heat_on = 1;
	}
	return 0;
}

void fleet_free(struct fleet *fl)
{
	unsigned int i;

	for (i = 0; i < fl->n; i++)
		tracer_free(fl->t[i]);
	fl->n = 0;
	heat_free(&fl->heat);
	fl->heat_on = 0;
}

/* One drain of member i: the interval's numbers grow, the totals follow. */
static int drain_one(struct fleet *fl, unsigned int i)
{
	struct op_hist ops[NR_OPS];
	struct op_flow flow[NR_OPS];
	struct report *r = &fl->interval[i];
	unsigned int op;
	int err = tracer_drain(fl->t[i], ops, flow, fl->total[i].ops,
			       fl->total[i].flow);

	if (err)
		return err;
	for (op = 0; op < NR_OPS; op++) {
		report_add_hist(&r->ops[op], &ops[op]);
		report_add_flow(&r->flow[op], &flow[op]);
	}
	return 0;
}

int fleet_drain(struct fleet *fl)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < fl->n && !err; i++)
		err = drain_one(fl, i);
	return err;
}

struct settling {
	struct fleet *fl;
	unsigned int i;
};

static long long settle_drain(void *ctx)
{
	struct settling *s = ctx;
	int err = drain_one(s->fl, s->i);

	return err ? err : (long long)report_in_flight(&s->fl->interval[s->i]);
}

int fleet_settle(struct fleet *fl)
{
	struct settling s = { fl, 0 };
	int err = 0;

	/* Every file system's entries off before any wait begins. */
	for (s.i = 0; s.i < fl->n; s.i++)
		tracer_stop_entries(fl->t[s.i]);
	for (s.i = 0; s.i < fl->n && !err; s.i++) {
		err = tracer_settle(fl->t[s.i], settle_drain, &s);
		fl->interval[s.i].final = fl->total[s.i].final = 1;
	}
	return err;
}

static void heat_column(struct fleet *fl, const struct run_print *pr)
{
	unsigned int i, op;
	int err = 0;

	for (i = 0; i < fl->n && !err; i++)
		for (op = 0; op < NR_OPS && !err; op++) {
			int p = heat_panel_of(&fl->heat, fl->interval[i].fs_name,
					      op);

			if (p >= 0)
				err = heat_add_hist(&fl->heat, (unsigned int)p,
						    fl->outputs,
						    &fl->interval[i].ops[op]);
		}
	if (!err)
		err = heat_write_file(pr->heatmap, &fl->heat);
	if (err)
		fprintf(stderr, "%s: cannot write %s: %s\n", tool_name(),
			pr->heatmap, strerror(-err));
}

void fleet_output(struct fleet *fl, const struct run_print *pr,
		  time_t when)
{
	unsigned int i;
	int err;

	for (i = 0; i < fl->n; i++)
		fl->interval[i].when = fl->total[i].when = when;
	if (pr->prometheus) {
		err = report_prom_write_file(pr->prometheus, fl->total, fl->n);
		if (err)
			fprintf(stderr, "%s: cannot write %s: %s\n",
				tool_name(), pr->prometheus, strerror(-err));
	}
	if (fl->heat_on)
		heat_column(fl, pr);
	fl->outputs++;
}

void fleet_next(struct fleet *fl)
{
	unsigned int i;

	for (i = 0; i < fl->n; i++) {
		memset(fl->interval[i].ops, 0, sizeof(fl->interval[i].ops));
		memset(fl->interval[i].flow, 0, sizeof(fl->interval[i].flow));
	}
}
