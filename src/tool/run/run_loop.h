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
 * Blocks every signal whose default action ends the process, except the
 * synchronous faults (list and reasons in run_loop.c), and installs
 * handlers for them (replacing an inherited SIG_IGN: a job started with &
 * from a script has SIGINT ignored).  Call before tracer_start so a signal
 * during start-up is not lost.  SIGPIPE is ignored: output errors end the
 * run through the normal path.
 */
int run_loop_signals_setup(void);

/* The signals run_loop_signals_setup() blocks and a run stops on. */
sigset_t run_loop_stop_set(void);
/*
 * 1 for the SIGXFSZ the kernel sends ext4dist itself when a write passes
 * RLIMIT_FSIZE: the failed write reports it, it is no request to stop.
 */
int run_loop_own_xfsz(int signo, int code, int pid);

/* A stop signal already pending, taken: its number, or 0. */
int run_loop_take_stop(void);
/* "INT", "QUIT", "RTMIN+3": a stop signal's name after "SIG". */
const char *run_loop_signal_name(int sig);

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
