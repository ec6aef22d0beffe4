/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file systems one run traces (-t ext4,xfs,...): a tracer each, and
 * what their drains added up to, twice: since the last output (the
 * interval's report) and since the start (the running totals that
 * --prometheus writes and --listen serves).  Every drain, whether an
 * interval's or a scrape's, goes into both, so neither output ever loses
 * what the other read, and no total is ever reset.
 */
#ifndef EXT4DIST_TOOL_FLEET_H
#define EXT4DIST_TOOL_FLEET_H

#include <time.h>

#include "output/heatmap.h"
#include "output/report.h"
#include "tool/engine/tracer.h"
#include "tool/run/run_print.h"

/* File systems one run may trace at once (-t ext4,xfs,...). */
#define FLEET_MAX_FS 4

struct fleet {
	struct tracer *t[FLEET_MAX_FS];
	unsigned int n;
	struct report interval[FLEET_MAX_FS];
	struct report total[FLEET_MAX_FS];
	/* --heatmap: a column per output. */
	struct heatmap heat;
	int heat_on;
	unsigned long long outputs;	/* outputs so far: the next column */
};

/*
 * A tracer per file system of fs_list (cfg for each, its fs changed),
 * started in that order.  On failure *failed is the one that failed (its record
 * says why, tracer_record()); fleet_free() stops those started.
 */
int fleet_start(struct fleet *fl, const struct tracer_config *cfg,
		const struct fs_table *const *fs_list, unsigned int nr_fs,
		const struct run_print *pr, struct errbuf *eb,
		unsigned int *failed);
/* Every tracer stopped and freed. */
void fleet_free(struct fleet *fl);

/* One drain of every tracer into the interval's reports and the totals. */
int fleet_drain(struct fleet *fl);
/*
 * The end of the run: every entry probe off first, then each tracer's
 * calls in flight given their time to return (tracer_settle()), drained
 * into the reports, which are marked final.
 */
int fleet_settle(struct fleet *fl);
/*
 * An output: each report stamped with when, the interval's added to the
 * heatmap as its next column; the files of --prometheus (the totals) and
 * --heatmap written, a failure said on stderr (the run goes on).
 */
void fleet_output(struct fleet *fl, const struct run_print *pr,
		  time_t when);
/* The interval's reports emptied for the next one. */
void fleet_next(struct fleet *fl);

/*
 * An empty heatmap of every operation of the n tracers t[], its columns
 * step_ns wide from now (the wall clock and CLOCK_MONOTONIC).
 */
int fleet_heat_init(struct heatmap *h, struct tracer *const *t,
		    unsigned int n, unsigned long long step_ns, int ms);

#endif
