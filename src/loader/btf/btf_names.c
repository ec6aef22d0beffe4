// SPDX-License-Identifier: GPL-2.0
/*
 * A string section is NUL-ended strings one after the other, each named
 * by its offset.  The kernel's are deduplicated (pahole writes them
 * through libbpf's string set, and split BTF names a string its base
 * has by the base's offset), so a name is there once at most: the first
 * string equal to it is the one, and the pass stops once each name is
 * found.  Each string is matched against every name still in the race
 * as its bytes go by, so a string cut by the window's edge needs nothing
 * kept but where it began and how far it matched.
 */
#include "loader/btf/btf_names.h"

#include <string.h>

#include "loader/btf/btf_stream.h"

/* One string's match against the names, carried across windows. */
struct race {
	uint32_t todo;			/* names still sought */
	uint32_t live;			/* those equal so far to this string */
	size_t depth;			/* its bytes seen */
	uint64_t start;			/* its offset in the section */
};

/* The bytes p[0..n) at section offset off, through the race. */
static void run(struct race *r, const unsigned char *p, size_t n,
		uint64_t off, uint32_t first, const char *const names[],
		uint32_t offs[])
{
	size_t i = 0;

	while (i < n && r->todo) {
		uint32_t left;
		unsigned int k;

		if (!r->live) {
			/* No name can be this string: to its end. */
			const unsigned char *nul = memchr(p + i, 0, n - i);

			if (!nul)
				return;
			i = (size_t)(nul - p);
		}
		for (left = r->live; left; left &= left - 1) {
			k = (unsigned int)__builtin_ctz(left);
			if ((unsigned char)names[k][r->depth] != p[i])
				r->live &= ~(1u << k);
		}
		if (p[i]) {
			r->depth++;
			i++;
			continue;
		}
		/* Its NUL: a name still live ended here too. */
		for (left = r->live; left; left &= left - 1) {
			k = (unsigned int)__builtin_ctz(left);
			offs[k] = first + (uint32_t)r->start;
			r->todo &= ~(1u << k);
		}
		i++;
		r->start = off + i;
		r->depth = 0;
		r->live = r->todo;
	}
}

int btf_names_find(struct btf_src *src, uint64_t at, uint32_t len,
		   uint32_t first, const char *const names[], uint32_t *todo,
		   uint32_t offs[], struct errbuf *eb)
{
	struct race r = { *todo, *todo, 0, 0 };
	struct btf_stream st;
	uint64_t off = 0;
	int err;

	if (!r.todo || !len)
		return 0;
	err = btf_stream_open(&st, src, at, at + len, src->window, eb);
	if (err)
		return err;
	while (r.todo) {
		const unsigned char *p;
		size_t n;

		err = btf_stream_chunk(&st, &p, &n, eb);
		if (err || !n)
			break;
		run(&r, p, n, off, first, names, offs);
		off += n;
	}
	btf_stream_close(&st);
	*todo = r.todo;
	return err;
}
