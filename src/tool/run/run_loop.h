/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing session as the user sees it: banner, one report per interval
 * (or one at the end), and a clean stop on count or on any signal that
 * would end the process.
 */
#ifndef EXT4DIST_TOOL_RUN_LOOP_H
#define EXT4DIST_TOOL_RUN_LOOP_H

#include <signal.h>
#include <stdio.h>

#include "tool/run/exporter.h"
#include "tool/run/fleet.h"

/*
 * Runs until a stop signal or count, an output of every file system of
 * fl each interval (or once at the end); waits in exporter_wait() when
 * x is not NULL (--listen), serving scrapes meanwhile.  Returns the
 * number of the signal that stopped it, 0 when count was reached, or
 * -errno.
 */
int run_loop(struct fleet *fl, struct exporter *x,
	     const struct run_print *a, FILE *out);

/*
 * The exit status after run_loop() returned sig >= 0: 0 for count,
 * SIGINT, SIGTERM and SIGHUP; 128 + sig for any other signal, after a
 * line "ext4dist: stopped by SIGQUIT (probes removed)" on err.
 */
int run_loop_stopped_by(int sig, FILE *err);

#endif
