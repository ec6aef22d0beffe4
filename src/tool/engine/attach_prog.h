/* SPDX-License-Identifier: GPL-2.0 */
/* One program, or a traced function's pair, loaded and attached. */
#ifndef EXT4DIST_TOOL_ATTACH_PROG_H
#define EXT4DIST_TOOL_ATTACH_PROG_H

#include "tool/engine/tracer_priv.h"
#include "tool/plan/progs.h"

/*
 * p through the verifier, counted in the record (and its verifier log
 * shown, with --verifier-log); 0 or -errno with why in eb.
 */
int tracer_load(struct tracer *t, struct obj_prog *p, struct errbuf *eb);
/* The mode of t's programs on path (by_ip: kprobe_multi by address). */
void tracer_prog_mode(const struct tracer *t, enum attach_mode path,
		      int by_ip, struct prog_mode *m);
/*
 * An fentry/fexit program told func's BTF id (and its module's BTF
 * object); -ENOENT when the id is not known.
 */
int tracer_bind_btf(struct tracer *t, struct obj_prog *p, const char *func);
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

#endif
