/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow mode's session (ext4slower): header, one line per event as the
 * rings deliver them, and at the stop the losses, each with its number:
 * events the rings had no room for, and calls that were not timed.
 */
#ifndef EXT4DIST_TOOL_SLOW_LOOP_H
#define EXT4DIST_TOOL_SLOW_LOOP_H

#include <stdio.h>

#include "tool/args.h"
#include "tool/tracer.h"

/*
 * Runs until a stop signal (run_loop_signals_setup() first); returns its
 * number, or -errno.
 */
int slow_loop(struct tracer *t, const struct ext4dist_args *a, FILE *out);

#endif
