/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A byte range of a BTF source (a section, or its tail from a
 * checkpoint) read in order through one window of a fixed size: what is
 * asked for may straddle the window's edge, and what is skipped past the
 * window is never read.  The BTF reader's own business (btf.c, btf_names.c).
 */
#ifndef EXT4DIST_LOADER_BTF_BTF_STREAM_H
#define EXT4DIST_LOADER_BTF_BTF_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "loader/btf/btf_src.h"
#include "loader/util/errbuf.h"

struct btf_stream {
	struct btf_src *src;
	unsigned char *buf;		/* the window: cap bytes */
	size_t cap, len, at;		/* its size, bytes in it, next one */
	uint64_t pos, end;		/* where buf[0] was read; range's end */
};

/*
 * The bytes of src from off to end (not before off), window bytes at a
 * time (fewer when the range is shorter).  0, or -ENOMEM saying so.
 */
int btf_stream_open(struct btf_stream *st, struct btf_src *src, uint64_t off,
		    uint64_t end, size_t window, struct errbuf *eb);
void btf_stream_close(struct btf_stream *st);

/* The next n bytes into out; past the range's end is -EIO. */
int btf_stream_get(struct btf_stream *st, void *out, size_t n,
		   struct errbuf *eb);
/* Passes n bytes, reading none of those past the window. */
void btf_stream_skip(struct btf_stream *st, uint64_t n);
/*
 * Every byte the window holds from the next one on (read first when it
 * holds none), passed: *n is 0 at the range's end.
 */
int btf_stream_chunk(struct btf_stream *st, const unsigned char **p,
		     size_t *n, struct errbuf *eb);

#endif
