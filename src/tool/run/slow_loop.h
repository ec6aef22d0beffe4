/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow mode's session (ext4slower): header, one line per event as the
 * rings deliver them, and at the stop the losses, each with its number:
 * events the rings had no room for, and calls that were not timed.
 */
#ifndef EXT4DIST_TOOL_SLOW_LOOP_H
#define EXT4DIST_TOOL_SLOW_LOOP_H

#include <stdio.h>

#include "tool/engine/tracer.h"
#include "tool/run/run_print.h"

/*
 * Whether the event rings of pages pages fit this machine: one per
 * online CPU and the reader's copy of one, within a sixteenth of its
 * memory (MemTotal of meminfo; NULL: /proc/meminfo).  0, or -errno with
 * the reason and the most pages that fit in eb.
 */
int slow_loop_rings_fit(unsigned int pages, const char *meminfo,
			struct errbuf *eb);

/*
 * Runs until a stop signal (stop_signals_setup() first); returns its
 * number, or -errno.
 */
int slow_loop(struct tracer *t, const struct run_print *a, FILE *out);

#endif
