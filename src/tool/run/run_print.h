/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run prints, and when: the run loops' own settings, made once
 * from the command line (main.c).
 */
#ifndef EXT4DIST_TOOL_RUN_PRINT_H
#define EXT4DIST_TOOL_RUN_PRINT_H

struct run_print {
	unsigned long interval;		/* seconds, 0 = print once at exit */
	unsigned long count;		/* outputs before the run ends */
	int json;			/* JSON, its banner on stderr */
	int csv;			/* slow mode: CSV (ext4slower's -j) */
	int milliseconds;		/* -m */
	int notimestamp;		/* -T */
	int extended;			/* -e */
	int pid_filter;			/* -p given: the reports say so */
	const char *heatmap;		/* --heatmap FILE.svg, NULL = off */
	const char *prometheus;		/* --prometheus FILE, NULL = off */
	int slower;			/* slow mode: its heatmap is of events */
	unsigned long min_ms;		/* slow mode's threshold, for its banner */
};

#endif
