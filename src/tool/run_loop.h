/*
 * The tracing session as the user sees it: banner, one report per interval
 * (or one at the end), and a clean stop on SIGINT, SIGTERM or count.
 */
#ifndef EXT4DIST_RUN_LOOP_H
#define EXT4DIST_RUN_LOOP_H

#include <stdio.h>

#include "tool/args.h"
#include "tool/tracer.h"

/*
 * Blocks SIGINT, SIGTERM and SIGHUP and installs handlers for them (replacing an
 * inherited SIG_IGN: a job started with & from a script has SIGINT ignored).
 * Call before tracer_start so a signal during start-up is not lost.
 * SIGPIPE is ignored: output errors end the run through the normal path.
 */
int run_loop_signals_setup(void);

/* Runs until a signal or count; returns 0 or -errno. */
int run_loop(struct tracer *t, const struct ext4dist_args *a, FILE *out);

#endif
