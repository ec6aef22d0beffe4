// SPDX-License-Identifier: GPL-2.0
#include "loader/btf/btf_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int btf_stream_open(struct btf_stream *st, struct btf_src *src, uint64_t off,
		    uint64_t end, size_t window, struct errbuf *eb)
{
	memset(st, 0, sizeof(*st));
	st->src = src;
	st->pos = off;
	st->end = end;
	st->cap = end - off < window ? (size_t)(end - off) : window;
	if (!st->cap)
		st->cap = 1;
	st->buf = malloc(st->cap);
	if (!st->buf)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	return 0;
}

void btf_stream_close(struct btf_stream *st)
{
	free(st->buf);
	st->buf = NULL;
}

/*
 * The window moved to the next byte and filled: it held none unread.
 * Nothing left to read is an error: each caller knows what is there.
 */
static int refill(struct btf_stream *st, struct errbuf *eb)
{
	uint64_t left;
	size_t n;
	int err;

	st->pos += st->at;
	st->len = st->at = 0;
	if (st->pos >= st->end)
		return errbuf_set(eb, -EIO, "%s: read past its end",
				  st->src->name);
	left = st->end - st->pos;
	n = left < st->cap ? (size_t)left : st->cap;
	err = btf_src_read(st->src, st->pos, st->buf, n, eb);
	if (!err)
		st->len = n;
	return err;
}

int btf_stream_get(struct btf_stream *st, void *out, size_t n,
		   struct errbuf *eb)
{
	unsigned char *to = out;
	int err;

	while (n) {
		size_t k;

		if (st->at == st->len) {
			err = refill(st, eb);
			if (err)
				return err;
		}
		k = st->len - st->at < n ? st->len - st->at : n;
		memcpy(to, st->buf + st->at, k);
		st->at += k;
		to += k;
		n -= k;
	}
	return 0;
}

void btf_stream_skip(struct btf_stream *st, uint64_t n)
{
	if (n <= st->len - st->at) {
		st->at += (size_t)n;
		return;
	}
	/* Past the window: the next refill starts there. */
	st->pos += st->at + n;
	st->len = st->at = 0;
}

int btf_stream_chunk(struct btf_stream *st, const unsigned char **p,
		     size_t *n, struct errbuf *eb)
{
	int err;

	*n = 0;
	if (st->at == st->len) {
		if (st->pos + st->at >= st->end)
			return 0;
		err = refill(st, eb);
		if (err)
			return err;
	}
	*p = st->buf + st->at;
	*n = st->len - st->at;
	st->at = st->len;
	return 0;
}
