/* SPDX-License-Identifier: GPL-2.0 */
/* Start-up's short-lived discovery probes and what they find, patched in. */
#ifndef EXT4DIST_TOOL_SHORT_PROBES_H
#define EXT4DIST_TOOL_SHORT_PROBES_H

#include "tool/engine/tracer_priv.h"

/*
 * Slow mode's file names: the two offsets discovered and patched in, or
 * 0 (the events say the name is unknown) with a warning saying why.
 */
void tracer_prepare_names(struct tracer *t);
/* Those two offsets patched again, into an object read anew. */
void tracer_patch_names(struct tracer *t);
/* The generic read path's two numbers, patched in (read_path.c). */
int tracer_prepare_generic_read(struct tracer *t, struct errbuf *eb);

#endif
