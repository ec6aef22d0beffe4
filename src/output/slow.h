/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow mode's output (ext4slower): one line per event, as BCC's
 * tools/ext4slower.py prints it (text or its -j CSV), or one JSON object
 * per event (--json).  Plain formatting of struct slow_event: no kernel,
 * no BPF.  Every function returns 0 or -errno.
 */
#ifndef EXT4DIST_OUTPUT_SLOW_H
#define EXT4DIST_OUTPUT_SLOW_H

#include <stdio.h>
#include <time.h>

#include "ext4dist_abi.h"

enum slow_format { SLOW_TEXT = 0, SLOW_CSV, SLOW_JSON };

/* What a file name prints as when it could not be read. */
#define SLOW_NAME_UNKNOWN "[unknown]"

/* 'R', 'W', 'O', 'S' as BCC's ext4slower: the column T. */
int slow_op_letter(unsigned int op);

/* "Tracing ext4 operations[ slower than N ms]": JSON's, on stderr. */
int slow_banner(FILE *f, const char *fs_name, unsigned long min_ms);

/*
 * What goes before the events: text, the banner (fs_name "ext4":
 * "Tracing ext4 operations" and " slower than N ms" unless min_ms is 0)
 * and the column header; CSV, its header line; JSON, nothing.
 */
int slow_header(FILE *f, enum slow_format fmt, const char *fs_name,
		unsigned long min_ms);

/*
 * One event.  now is the wall clock time the text line shows (BCC prints
 * the time of printing, local time); the CSV has the event's own end
 * time (CLOCK_MONOTONIC, in us, as BCC); JSON has both.
 */
int slow_event_print(FILE *f, enum slow_format fmt,
		     const struct slow_event *ev, time_t now);

/*
 * slow_json.c, for slow_event_print(): the JSON line of ev with its comm
 * and file name already decoded (file NULL: not known).
 */
int slow_json_line(FILE *f, const struct slow_event *ev, time_t now,
		   const char *comm, const char *file);

#endif
