/* SPDX-License-Identifier: GPL-2.0 */
/* --check: what this kernel offers ext4dist, and whether tracing can work. */
#ifndef EXT4DIST_TOOL_CHECK_H
#define EXT4DIST_TOOL_CHECK_H

#include <stdio.h>

#include "tool/engine/tracer.h"

/*
 * Prints one "name  value" line per capability to out, then a verdict.
 * Returns 0 when tracing can work here, 1 when not, or 128 + the number
 * of a stop signal (stop_signals_setup() blocks them) that came
 * during the start-up: the rest is left out.  Uses cfg's test path
 * overrides; leaves nothing behind (probes, mounts, fds).
 */
int check_run(FILE *out, const struct tracer_config *cfg);

#endif
