/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency heatmaps (--heatmap FILE.svg): time across, the log2 latency
 * buckets up, the colour of each cell its count.  The grid is plain
 * counts, filled from interval reports (a column per interval) or from
 * ext4slower's events (a column per second, each event at its end and
 * latency); heatmap_svg.c draws it.  No kernel knowledge.
 *
 * Memory stays bounded however long the run: past HEAT_MAX_COLS columns,
 * neighbouring columns are added together in pairs and each column spans
 * twice the time it did.
 */
#ifndef EXT4DIST_OUTPUT_HEATMAP_H
#define EXT4DIST_OUTPUT_HEATMAP_H

#include <stdio.h>
#include <time.h>

#include "ext4dist_abi.h"

#define HEAT_MAX_COLS	512
/* Every operation of 4 file systems. */
#define HEAT_MAX_PANELS	(4 * NR_OPS)

/* One heatmap of the picture: a file system's operation. */
struct heat_panel {
	const char *fs;		/* "ext4" */
	unsigned int op;	/* enum ext4dist_op */
};

struct heatmap {
	struct heat_panel panels[HEAT_MAX_PANELS];
	unsigned int npanels;
	time_t start;			/* wall clock where column 0 starts */
	unsigned long long start_ns;	/* CLOCK_MONOTONIC at that moment */
	unsigned long long step_ns;	/* what one base column spans */
	unsigned int shift;		/* a column spans 2^shift base columns */
	unsigned int ncols;		/* columns so far */
	unsigned int cap;		/* columns allocated */
	int milliseconds;		/* buckets in ms, else us */
	int events;			/* filled from events, not intervals */
	/* [column][panel][slot]: a new column is appended at the end. */
	unsigned long long *cells;
};

/*
 * An empty heatmap of n panels (at most HEAT_MAX_PANELS), whose base
 * column k spans [start + k * step_ns, start + (k + 1) * step_ns) of the
 * wall clock (start_ns: the same moment on CLOCK_MONOTONIC, for events).
 * 0 or -EINVAL.
 */
int heat_init(struct heatmap *h, const struct heat_panel *p, unsigned int n,
	      time_t start, unsigned long long start_ns,
	      unsigned long long step_ns, int milliseconds);
void heat_free(struct heatmap *h);

/*
 * Base columns 0..n-1 exist, with or without calls (a quiet interval
 * has its column).  0 or -ENOMEM.
 */
int heat_extend(struct heatmap *h, unsigned long long n);
/* count calls in slot of panel's base column col.  0 or -errno. */
int heat_add(struct heatmap *h, unsigned int panel, unsigned long long col,
	     unsigned int slot, unsigned long long count);
/* Every slot of an interval's histogram into base column col. */
int heat_add_hist(struct heatmap *h, unsigned int panel,
		  unsigned long long col, const struct op_hist *hist);
/*
 * One call that ended at end_ns (CLOCK_MONOTONIC) after delta_ns, in
 * the column of its end and the slot BCC gives its latency.
 */
int heat_add_event(struct heatmap *h, unsigned int panel,
		   unsigned long long end_ns, unsigned long long delta_ns);
/* The panel of fs's op, or -ENOENT. */
int heat_panel_of(const struct heatmap *h, const char *fs, unsigned int op);

/* The count in a column (not a base column) and slot of a panel. */
unsigned long long heat_cell(const struct heatmap *h, unsigned int panel,
			     unsigned int col, unsigned int slot);
/*
 * The log2 slot of a latency of delta_ns in units of factor ns, as BCC
 * counts it (bpf/log2.h: 1 for less than 2 units, k + 1 for 2^k units up
 * to 2^(k+1) - 1).
 */
unsigned int heat_slot(unsigned long long delta_ns, unsigned long long factor);

/*
 * heatmap_svg.c: the picture, one self-contained SVG document: a nested
 * <svg> per panel, each with its title, its axes in human units (time
 * across, latency up), a cell per column and slot between the lowest and
 * the highest slot that has calls (slot 0 drawn with slot 1, as the
 * histogram prints them), each cell a <rect> with data-col, data-slot and
 * data-count attributes and a <title> that says its time, its bucket and
 * its exact count; the colour of a cell is the log2 class of its count,
 * explained by a legend.  Times are local time.  The document's
 * data-start (wall clock, s), data-start-ns (CLOCK_MONOTONIC) and
 * data-step-ns say where column 0 starts and what a column spans.
 */
int heat_svg(FILE *f, const struct heatmap *h);
/* heat_svg() to path, replaced atomically (output/file_replace.h). */
int heat_write_file(const char *path, const struct heatmap *h);
/*
 * A latency of 2^k units in human units, 3 significant digits: "512 µs",
 * "1.02 ms", "65.5 ms", "1.05 s".
 */
void heat_human(char *buf, size_t len, unsigned int k, int milliseconds);

#endif
