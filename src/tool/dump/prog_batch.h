/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dumps' programs a few at a time: the embedded object inflated with
 * the code (and source lines) of a batch of programs alone, parsed, and
 * given back before the next batch.
 */
#ifndef EXT4DIST_TOOL_DUMP_PROG_BATCH_H
#define EXT4DIST_TOOL_DUMP_PROG_BATCH_H

#include "loader/loader.h"
#include "tool/engine/bpf_blob.h"

struct prog_batch {
	const struct bpf_obj *names;	/* the object parsed without code */
	int (*want)(const struct obj_prog *p, void *arg);	/* NULL: all */
	void *arg;
	size_t first, end;		/* the batch: names->progs[first, end) */
	struct bpf_blob blob;		/* inflated with the batch alone */
	struct bpf_obj obj;		/* the batch's programs, parsed */
	int parsed;
};

/*
 * Keeps no program: for the parse (with no_code) that gives a batch its
 * names, the programs' code not inflated.
 */
int prog_batch_none(const char *section, void *arg);

/*
 * The next programs names->progs[] holds that want(p, arg) accepts, in
 * their order, some 16 KiB of code together, parsed into b->obj (with
 * their source lines when lines): 1, 0 when none is left, -errno with
 * the reason in eb.  b zeroed but for names, want and arg at first.
 */
int prog_batch_next(struct prog_batch *b, int lines, struct errbuf *eb);

/* Frees b->obj and gives the inflated object back. */
void prog_batch_end(struct prog_batch *b);

#endif
