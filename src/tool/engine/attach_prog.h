/* SPDX-License-Identifier: GPL-2.0 */
/* One program, or a traced function's pair, loaded and attached. */
#ifndef EXT4DIST_TOOL_ATTACH_PROG_H
#define EXT4DIST_TOOL_ATTACH_PROG_H

#include "tool/engine/tracer_priv.h"

/* Loads p and attaches it with ops as one kind of probe on func. */
int tracer_attach_prog(struct tracer *t, const struct attach_ops *ops,
		       struct obj_prog *p, enum probe_kind kind,
		       const char *func, struct probe_link *link,
		       struct errbuf *eb);
/*
 * func's return and entry programs, in that order: a return without a
 * recorded entry is ignored, while an entry whose return probe is not
 * there yet would stay in the map.
 */
int tracer_attach_pair(struct tracer *t, const char *func, struct errbuf *eb);
/* t->ops for the path planned; NULL where it is not a probe_link path. */
void tracer_set_ops(struct tracer *t);

#endif
