/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printing layer: turns summed histogram counts into BCC text, JSON or
 * Prometheus text exposition.  It knows no kernel and no BPF: callers fill a
 * struct report with plain numbers (one struct op_hist per operation, summed
 * over CPUs) and hand it a FILE *.  Every function returns 0 or -errno.
 */
#ifndef EXT4DIST_OUTPUT_REPORT_H
#define EXT4DIST_OUTPUT_REPORT_H

#include <stdio.h>
#include <time.h>

#include "ext4dist_abi.h"

/* Width of the star column (BCC's stars_max); half of it in wide mode. */
#define REPORT_STARS_MAX 40

/*
 * What the entry side knows of one operation's calls over the period of
 * a report (see struct op_calls in ext4dist_abi.h): every call that
 * entered is timed (in ops[].slots), queued, an error, stolen, missed, or
 * still in flight.
 */
struct op_flow {
	unsigned long long entries;	/* calls that entered */
	unsigned long long missed;	/* their return probe never ran */
	/*
	 * Calls entered and not accounted for when the report was taken:
	 * still running (or returned since).  In the last report, after
	 * tracing stopped: calls whose return never came.
	 */
	unsigned long long in_flight;
	/*
	 * Calls the kernel ran no entry program for (it skips one already
	 * running on that CPU), by its own count: in none of the others.
	 */
	unsigned long long unseen;
};

struct report {
	const char *fs_name;	/* "ext4": Prometheus help texts */
	const char *metric;	/* "ext4dist": Prometheus metric names */
	int milliseconds;	/* label "msecs" instead of "usecs" */
	int show_time;		/* text: "%H:%M:%S:" line (interval, no -T) */
	int extended;		/* text: one statistics line per histogram */
	int interval;		/* warnings say "in this interval" */
	int final;		/* the last report: in_flight never returned */
	int pid_filter;		/* -p: unseen counts are of every process */
	/*
	 * One of several file systems traced at once: the text report
	 * names it above its sections, the warnings in each line.
	 */
	int multi_fs;
	time_t when;		/* time of the report (local time in text) */
	unsigned int ops_mask;	/* bit (1u << op) per operation to print */
	unsigned int start_slots; /* start records: stolen's modulus */
	struct op_hist ops[NR_OPS];
	struct op_flow flow[NR_OPS];
};

/* report_add.c: drains summed into a report. */

/* dst += src: slots, sum, queued, errors, stolen; the larger maximum. */
void report_add_hist(struct op_hist *dst, const struct op_hist *src);
/* dst += src: entries, missed, unseen; in_flight becomes src's. */
void report_add_flow(struct op_flow *dst, const struct op_flow *src);
/* The calls in flight of every operation. */
unsigned long long report_in_flight(const struct report *r);

/* ops.c: names and bucket bounds shared by every format. */

/* "read", "write", "open", "fsync", "getattr"; NULL past NR_OPS. */
const char *report_op_name(unsigned int op);
/*
 * Bounds of slot in output units as BCC prints them: 0 -> 1, 2 -> 3,
 * 4 -> 7, ... 2^62 -> 2^63 - 1.  Slot 0 (never filled) is 0 -> 0.
 */
void report_slot_bounds(unsigned int slot, unsigned long long *low,
			unsigned long long *high);
/* 1 when some slot of h is non-zero. */
int report_op_has_events(const struct op_hist *h);
/* 1 when h has timed calls or returns kept out of the histogram. */
int report_op_has_returns(const struct op_hist *h);
/* "usecs" or "msecs". */
const char *report_unit(int milliseconds);

/* hist_text.c: BCC's print_log2_hist for one histogram. */

/*
 * Number of stars BCC draws for val against val_max in a column of width:
 * floor(width * val / val_max) capped at width, where the quotient is the
 * double nearest to the exact ratio, as Python 3's int / int gives it.
 * Computed with integers only.  0 when val_max is 0.
 */
unsigned int report_stars(unsigned long long val, unsigned long long val_max,
			  unsigned int width);
/* Header and rows for vals[0..n-1] (n <= 64) under label, as BCC does. */
int report_log2_hist(FILE *f, const unsigned long long *vals, unsigned int n,
		     const char *label);

/* stats.c: the -e/--extended line. */

/*
 * Slot holding the p-th percentile (p in 1..100) of h: the first slot at
 * which the running count reaches ceil(total * p / 100).  -ENODATA when h
 * is empty, -EINVAL for a bad p.
 */
int report_percentile_slot(const struct op_hist *h, unsigned int p);
/*
 * One line after a histogram (documented format, units from milliseconds):
 *   count 123, mean 45.678 usecs, max 900.000 usecs, p50 in [32, 63],
 *   p90 in [256, 511], p99 in [512, 1023]
 * on one line.  mean = sum_ns / count and max = max_ns, both converted to
 * the output unit and rounded half up to 3 decimals with exact integer
 * math; count is the sum of all slots; pNN gives the bounds of the slot
 * holding that percentile.  Nothing is printed for an empty histogram.
 */
int report_extended_line(FILE *f, const struct op_hist *h, int milliseconds);

/*
 * report_text.c: one BCC text report (blank line, time, histograms);
 * with multi_fs, a line "file system = 'xfs'" before the histograms.
 * Below an operation's histogram (and -e line), only when there were
 * such returns, one line of what the histogram does not hold:
 *   not in the histogram: 3 asynchronous (-EIOCBQUEUED), 1 error
 * An operation with such returns and no timed call gets its section
 * header and that line alone.
 */
int report_text(FILE *f, const struct report *r);

/*
 * report_warnings.c: the calls that entered a traced function and were
 * not timed for a reason other than their return value, one line per
 * operation and reason on err ("ext4dist: warning: ..."); nothing when
 * every call adds up.  missed_why says why return probes go missing on
 * the attach path in use ("kretprobe instances exhausted: raise
 * --maxactive").
 */
int report_warnings(FILE *err, const struct report *r, const char *missed_why);
/*
 * report_json.c: one JSON object on one line, for every operation in
 * ops_mask (in print order, also those without events):
 *   {"time":1700000000,"fs":"ext4","unit":"usecs","ops":{"read":{"buckets":[
 *   {"low":0,"high":1,"count":3}],"count":3,"sum_ns":12,"max_ns":9,
 *   "calls":5,"queued":1,"errors":0,"missed":1,"stolen":0,"in_flight":0},
 *   ...}}
 * "time" is when in seconds since the epoch (always present), "fs" the
 * file system (fs_name); buckets are
 * the non-zero slots with report_slot_bounds(); numbers are exact.
 * "calls" are the calls that entered in the period, the next five those
 * of them (or of earlier ones) that are not in the histogram, and why.
 */
int report_json(FILE *f, const struct report *r);

/*
 * report_prom.c: Prometheus text exposition (format 0.0.4) of one file
 * system's report, every series labelled fs (fs_name) and op, for every
 * operation in ops_mask:
 *   <metric>_latency_seconds       histogram; slot s (1..63) becomes the
 *                                  cumulative bucket le = 2^s units in
 *                                  seconds (values in slot s are below
 *                                  2^s units), then le="+Inf"; _sum
 *                                  from sum_ns
 *   <metric>_untimed_calls_total   counter, label reason: queued, error,
 *                                  missed, stolen, unseen
 *   <metric>_calls_in_flight       gauge
 * <metric> is the file system's ("ext4dist", "xfsdist").  Prometheus
 * expects monotonic counters: give it running totals.  No timestamps
 * (node_exporter's textfile collector refuses a file with them).
 */
int report_prom(FILE *f, const struct report *r);
/*
 * The reports of n file systems (r[0..n-1], each its own metric prefix),
 * one after the other: what --prometheus writes and --listen serves.
 */
int report_prom_all(FILE *f, const struct report *r, unsigned int n);
/*
 * report_prom_all() into a malloc'ed buffer (*buf, *len): 0 or -errno
 * (*buf NULL then).
 */
int report_prom_render(const struct report *r, unsigned int n, char **buf,
		       size_t *len);
/*
 * report_prom_all() of r[0..n-1] to path, replaced atomically
 * (output/file_replace.h: owner and mode kept, only a regular file or a
 * new name replaced).
 */
int report_prom_write_file(const char *path, const struct report *r,
			   unsigned int n);
/* The start-up check of a --prometheus path (file_replace_check()). */
int report_prom_check_file(const char *path, char *msg, size_t size);

#endif
