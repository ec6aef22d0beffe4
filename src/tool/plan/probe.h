/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel offers for attaching, asked as the plan needs it and
 * recorded in the tracer's record (for --check), and the attach path
 * decided from the answers (plan.h).
 */
#ifndef EXT4DIST_TOOL_PROBE_H
#define EXT4DIST_TOOL_PROBE_H

#include "tool/engine/tracer_priv.h"

/* Whether --pretend asks for what (bit per enum pretend). */
int pretend_on(const struct tracer *t, enum pretend what);
/*
 * The --pretend choice that hides func (its file system's read or
 * getattr function, as kernels before they arrived), or NULL.
 */
const char *pretend_hides(const struct tracer *t, const char *func);
/* /proc/filesystems, unless --pretend=no-ext4 says it lacks the file system. */
int probe_fs_registered(const struct tracer *t);
/* Asks the kernel one thing the plan needs, and records the answer. */
void probe_cap(struct tracer *t, enum cap_id id);
/*
 * The attach path, planned with capabilities probed as the plan asks
 * for them, into t->rec.attach; 0 or -errno with why in eb.
 */
int probe_decide_attach(struct tracer *t, struct errbuf *eb);
/*
 * Whether an automatic plan without kprobe_multi takes kprobes: 1 where
 * the kernel makes them (kprobe_events, else the PMU, asked as the plan
 * asks) and they are safe to use, else 0; -EMFILE with why in eb when no
 * descriptor was left to ask.
 */
int probe_kprobes_first(struct tracer *t, struct errbuf *eb);
/*
 * The file system's fsync tracepoints, their ids and the exit event's
 * return value field, into t->tp (CAP_TRACEPOINT's question); 0 or
 * -errno with why.
 */
int probe_tracepoints(struct tracer *t, struct errbuf *why);
/* Their programs: the field's offset patched in (t->tp[1]). */
void probe_patch_tracepoints(struct tracer *t);

#endif
