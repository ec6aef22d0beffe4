/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For bpf_blob_pick.c: which bytes of an embedded object's gzip members
 * are written out, and, in its source lines' member, the line_info of
 * the programs a listing keeps found while the member goes by.
 */
#ifndef EXT4DIST_TOOL_BPF_BLOB_LINES_H
#define EXT4DIST_TOOL_BPF_BLOB_LINES_H

#include <stddef.h>
#include <stdint.h>

/*
 * What is kept of a member: its bytes in [start, end) ranges, in order;
 * the rest only inflated through a scratch buffer, its pages never
 * touched.  n 0: keep everything.
 */
#define RANGES_MAX 256
struct ranges {
	size_t n;
	size_t start[RANGES_MAX], end[RANGES_MAX];
};

/*
 * Watches the lines' member (.BTF, then .BTF.ext) go by and keeps, of
 * .BTF.ext's line_info, the blocks of the program sections keep(name,
 * arg) accepts.  Offsets are the member's.
 */
struct ext_walk {
	const unsigned char *member;	/* where .BTF is written */
	size_t len;			/* the member's bytes */
	size_t ext, ext_len;		/* .BTF.ext */
	int (*keep)(const char *section, void *arg);
	void *arg;
	struct ranges *rg;		/* the answer */
	const char *strs;		/* .BTF's strings, once seen */
	size_t str_len;
	size_t li_end;			/* the end of the line_info block */
	uint32_t rec_size;
	int step;			/* what the bytes wanted are */
	size_t at, need, got;		/* they are [at, at + need) */
	unsigned char buf[24];
};

/*
 * w set up for a member of len bytes written at member, whose .BTF.ext
 * is [ext, ext + ext_len) (after .BTF, at the member's start); rg gets
 * the ranges to write once every byte was seen: .BTF, .BTF.ext but the
 * line_info blocks of the sections keep refuses.
 */
void ext_walk_init(struct ext_walk *w, const unsigned char *member,
		   size_t len, size_t ext, size_t ext_len,
		   int (*keep)(const char *, void *), void *arg,
		   struct ranges *rg);
/* The n bytes at b are the member's at pos (called in order). */
void ext_walk_seen(struct ext_walk *w, size_t pos, const unsigned char *b,
		   size_t n);
/*
 * 0 when w found the blocks (rg says what to write), -1 when .BTF.ext
 * was not what it reads (rg then keeps everything).
 */
int ext_walk_done(struct ext_walk *w);

#endif
