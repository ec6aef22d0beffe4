/* SPDX-License-Identifier: GPL-2.0 */
/* Every traced function's programs attached on the path planned. */
#ifndef EXT4DIST_TOOL_ATTACH_PATHS_H
#define EXT4DIST_TOOL_ATTACH_PATHS_H

#include "tool/engine/tracer_priv.h"

/*
 * kprobe_multi by address: the n functions' addresses asked of the
 * kernel into addrs and patched into the "ip" programs; -ENOENT (said
 * with -v) when the kernel does not tell them: then by name.
 */
int tracer_multi_addrs(struct tracer *t, const char *const *funcs,
		       unsigned int n, uint64_t *addrs);
/* Each fexit program's argument count, from the BTF prototype. */
void tracer_patch_nargs(struct tracer *t);
/*
 * Whether the kernel counts the runs of an entry program it skips
 * (recursion_misses, 5.12+) on a path: none says why not; else for the
 * kind's programs from kernel major.minor on (0: from 5.12).
 */
struct path_unseen {
	const char *none;
	const char *kind;	/* "fentry", "kprobe", "tracepoint" */
	unsigned int major, minor;
};

/*
 * 1 when err, the attach error of the path planned, is the kernel
 * refusing that path itself, which an automatic plan goes around;
 * *tracing then says whether it is fentry/fexit (else the kprobes).
 */
int tracer_path_refused(const struct tracer *t, int err, int *tracing);
/* The path planned's (the kprobe pairs' when none is). */
const struct path_unseen *tracer_path_unseen(const struct tracer *t);
/* t->ops: the loader's attach_ops of the path planned (NULL: none). */
void tracer_set_ops(struct tracer *t);
/* The path in t->rec.attach; 0 or -errno with why in eb. */
int tracer_attach_chosen(struct tracer *t, struct errbuf *eb);

#endif
