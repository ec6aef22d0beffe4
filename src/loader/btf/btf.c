// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF blob, read in its own order and never whole: the header, the
 * string section's two ends, the names asked for in the strings
 * (btf_names.c), the type section walked once through a window (each
 * type's size follows from its kind and vlen), then the prototypes of
 * the functions found, each read from the nearest checkpoint before it.
 * Layouts: include/uapi/linux/btf.h.
 */
#include "loader/btf/btf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "loader/btf/btf_names.h"
#include "loader/btf/btf_stream.h"
#include "loader/util/byteorder.h"

#define BTF_MAX_FILE	(64u << 20)	/* vmlinux's is 4 to 6 MiB */
/* From a checkpoint to a type: a few KiB, a page a read() on sysfs. */
#define SEEK_WINDOW	4096u

/* What the type pass looks for, for one function asked for. */
struct want {
	int named;			/* its name is in the strings, at: */
	uint32_t name_off;
	int found;			/* a function of that name: funcs[] */
	int proto_seen;			/* its prototype's info word: */
	uint32_t proto_info;
};

/* Bytes after the 12-byte struct btf_type for a type of kind with vlen. */
static int extra_size(unsigned int kind, unsigned int vlen, size_t *n)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:			/* 5.16 */
		*n = 4;
		return 0;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:			/* 5.13 */
	case BTF_KIND_TYPE_TAG:			/* 5.17 */
		*n = 0;
		return 0;
	case BTF_KIND_ARRAY:
		*n = 12;
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:			/* 6.0 */
		*n = (size_t)vlen * 12;
		return 0;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		*n = (size_t)vlen * 8;
		return 0;
	default:
		return -EINVAL;
	}
}

static unsigned int kind_of(uint32_t info)
{
	return (info >> 24) & 0x1f;
}

/* The header in this machine's order, when its magic says it is not. */
static void swap_header(struct btf_header *h)
{
	h->magic = bo16(h->magic, 1);
	h->hdr_len = bo32(h->hdr_len, 1);
	h->type_off = bo32(h->type_off, 1);
	h->type_len = bo32(h->type_len, 1);
	h->str_off = bo32(h->str_off, 1);
	h->str_len = bo32(h->str_len, 1);
}

static int check_header(const struct btf_header *h, uint64_t size,
			struct errbuf *eb)
{
	uint64_t body;

	if (h->magic != BTF_MAGIC) {
		const unsigned char *m = (const unsigned char *)&h->magic;

		return errbuf_set(eb, -EINVAL,
				  "BTF: starts with bytes %02x %02x, not the magic 0xeb9f in either byte order",
				  m[0], m[1]);
	}
	if (h->version != BTF_VERSION)
		return errbuf_set(eb, -EINVAL, "BTF: version %u, not %u",
				  h->version, BTF_VERSION);
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size)
		return errbuf_set(eb, -EINVAL,
				  "BTF: header length %u outside 24..%llu",
				  h->hdr_len, (unsigned long long)size);
	body = size - h->hdr_len;
	if ((uint64_t)h->type_off + h->type_len > body ||
	    (uint64_t)h->str_off + h->str_len > body)
		return errbuf_set(eb, -EINVAL,
				  "BTF: types (%u+%u) or strings (%u+%u) past the %llu bytes after the header",
				  h->type_off, h->type_len, h->str_off,
				  h->str_len, (unsigned long long)body);
	if (h->type_off % 4)
		return errbuf_set(eb, -EINVAL,
				  "BTF: type section at %u, not 4-byte aligned",
				  h->type_off);
	if (h->type_off < h->str_off ?
	    (uint64_t)h->type_off + h->type_len > h->str_off :
	    (uint64_t)h->str_off + h->str_len > h->type_off)
		return errbuf_set(eb, -EINVAL,
				  "BTF: type and string sections overlap");
	return 0;
}

/* The header, checked against the size the source says it has. */
static int read_header(struct btf *b, struct errbuf *eb)
{
	uint64_t size = b->src->size;
	struct btf_header h;
	int err;

	if (size > BTF_MAX_FILE)
		return errbuf_set(eb, -EFBIG, "%s: larger than %u MiB",
				  b->src->name, BTF_MAX_FILE >> 20);
	if (size < sizeof(h))
		return errbuf_set(eb, -EINVAL,
				  "BTF: %llu bytes, shorter than its 24-byte header",
				  (unsigned long long)size);
	err = btf_src_read(b->src, 0, &h, sizeof(h), eb);
	if (err)
		return err;
	b->swapped = h.magic == bo16(BTF_MAGIC, 1);
	if (b->swapped)
		swap_header(&h);
	if (b->base && b->swapped != b->base->swapped)
		return errbuf_set(eb, -EINVAL,
				  "BTF: in the other byte order than its base's");
	err = check_header(&h, size, eb);
	if (err)
		return err;
	b->types_at = (uint64_t)h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strs_at = (uint64_t)h.hdr_len + h.str_off;
	b->strs_len = h.str_len;
	return 0;
}

/*
 * A string section ends with a NUL; vmlinux's starts with one (offset 0
 * is the empty name), a split one may be empty.  Its two ends are read,
 * not the rest: the names asked for may all be elsewhere.
 */
static int check_strings(const struct btf *b, struct errbuf *eb)
{
	unsigned char c;
	int err;

	if (!b->strs_len)
		return b->base ? 0 : errbuf_set(eb, -EINVAL,
						"BTF: no string section");
	err = btf_src_read(b->src, b->strs_at + b->strs_len - 1, &c, 1, eb);
	if (err)
		return err;
	if (c)
		return errbuf_set(eb, -EINVAL,
				  "BTF: string section does not end with a NUL");
	if (b->base)
		return 0;
	err = btf_src_read(b->src, b->strs_at, &c, 1, eb);
	if (err)
		return err;
	if (c)
		return errbuf_set(eb, -EINVAL,
				  "BTF: string section does not start with the empty name");
	return 0;
}

/*
 * Each name's string offset: b's own strings first, then, for the names
 * not there, its base's (split BTF names a string its base has by the
 * base's offset).
 */
static int find_names(const struct btf *b, const struct btf_func *funcs,
		      struct want *w, unsigned int nr, struct errbuf *eb)
{
	const char *names[BTF_FUNCS_MAX];
	uint32_t offs[BTF_FUNCS_MAX], todo = 0, was;
	unsigned int k;
	int err = 0;

	for (k = 0; k < nr; k++) {
		names[k] = funcs[k].name;
		if (names[k])
			todo |= 1u << k;
	}
	for (; b && todo && !err; b = b->base) {
		was = todo;
		err = btf_names_find(b->src, b->strs_at, b->strs_len,
				     b->start_str, names, &todo, offs, eb);
		for (k = 0; k < nr; k++) {
			if (!(was & ~todo & 1u << k))
				continue;
			w[k].named = 1;
			w[k].name_off = offs[k];
		}
	}
	return err;
}

/* Room for 64 places, doubled each time it is full. */
static int checkpoint(struct btf *b, uint32_t off, struct errbuf *eb)
{
	uint32_t n = b->nr_checkpoints, *grown;

	if (!n || (n >= 64 && !(n & (n - 1)))) {
		grown = realloc(b->checkpoints,
				(n ? 2 * (size_t)n : 64) * sizeof(*grown));
		if (!grown)
			return errbuf_set(eb, -ENOMEM, "out of memory");
		b->checkpoints = grown;
	}
	b->checkpoints[b->nr_checkpoints++] = off;
	return 0;
}

/* The type section, type by type, from one whose place is known. */
struct walk {
	struct btf_stream st;
	uint32_t off, n;		/* the next type's place and index */
	uint32_t t[3];			/* the last one's name, info, type */
	size_t rest;			/* its bytes after those 12 not read */
};

static int walk_open(const struct btf *b, struct walk *w, uint32_t n,
		     uint32_t off, size_t window, struct errbuf *eb)
{
	w->n = n;
	w->off = off;
	w->rest = 0;
	memset(w->t, 0, sizeof(w->t));
	return btf_stream_open(&w->st, b->src, b->types_at + off,
			       b->types_at + b->types_len, window, eb);
}

/*
 * The next type, checked: its first 12 bytes in w->t; the rest (w->rest
 * bytes) the caller may read before the next call passes what is left.
 */
static int walk_next(const struct btf *b, struct walk *w, struct errbuf *eb)
{
	uint32_t id = b->start_id + w->n;
	unsigned int kind;
	size_t extra;
	int err;

	btf_stream_skip(&w->st, w->rest);
	w->rest = 0;
	if (b->types_len - w->off < 12)
		return errbuf_set(eb, -EINVAL,
				  "BTF: type %u cut short at byte %u of the type section",
				  id, w->off);
	err = btf_stream_get(&w->st, w->t, sizeof(w->t), eb);
	if (err)
		return err;
	w->t[0] = bo32(w->t[0], b->swapped);
	w->t[1] = bo32(w->t[1], b->swapped);
	w->t[2] = bo32(w->t[2], b->swapped);
	kind = kind_of(w->t[1]);
	if (extra_size(kind, w->t[1] & 0xffff, &extra))
		return errbuf_set(eb, -EINVAL,
				  "BTF: type %u has kind %u, which this reader does not know (a kernel newer than 6.12?)",
				  id, kind);
	if (extra > b->types_len - w->off - 12)
		return errbuf_set(eb, -EINVAL,
				  "BTF: type %u (kind %u, vlen %u) runs past the type section",
				  id, kind, w->t[1] & 0xffff);
	if (w->t[0] >= (uint64_t)b->start_str + b->strs_len)
		return errbuf_set(eb, -EINVAL,
				  "BTF: type %u names string offset %u, outside the strings",
				  id, w->t[0]);
	w->rest = extra;
	w->off += 12 + (uint32_t)extra;
	w->n++;
	if (UINT32_MAX - b->start_id < w->n)
		return errbuf_set(eb, -EINVAL, "BTF: too many types");
	return 0;
}

/*
 * Type id (t its first 12 bytes) in the type pass: the prototype of a
 * function found before it, or a function asked for.  *later: those
 * whose prototype comes after them.
 */
static void look(uint32_t id, const uint32_t t[3], struct btf_func *funcs,
		 struct want *w, unsigned int nr, uint32_t *later)
{
	unsigned int k;

	for (k = 0; k < nr && *later; k++) {
		if ((*later & 1u << k) && funcs[k].proto_id == id) {
			w[k].proto_seen = 1;
			w[k].proto_info = t[1];
			*later &= ~(1u << k);
		}
	}
	if (kind_of(t[1]) != BTF_KIND_FUNC)
		return;
	for (k = 0; k < nr; k++) {
		if (w[k].found || !w[k].named || w[k].name_off != t[0])
			continue;
		w[k].found = 1;
		funcs[k].id = id;
		funcs[k].proto_id = t[2];
		if (t[2] > id)
			*later |= 1u << k;
	}
}

/*
 * Walks the type section once: each type checked, counted, every
 * BTF_CHECKPOINT-th one's place kept, and the functions asked for
 * matched by their names' offsets.
 */
static int walk_types(struct btf *b, struct btf_func *funcs, struct want *w,
		      unsigned int nr, struct errbuf *eb)
{
	uint32_t later = 0;
	struct walk wk;
	int err;

	err = walk_open(b, &wk, 0, 0, b->src->window, eb);
	while (!err && wk.off < b->types_len) {
		if (wk.n % BTF_CHECKPOINT == 0)
			err = checkpoint(b, wk.off, eb);
		if (!err)
			err = walk_next(b, &wk, eb);
		if (err)
			break;
		b->kinds |= 1u << kind_of(wk.t[1]);
		look(b->start_id + wk.n - 1, wk.t, funcs, w, nr, &later);
	}
	btf_stream_close(&wk.st);
	b->nr_types = wk.n;
	return err;
}

/*
 * The info word of type id, in b or its base: read from the nearest
 * checkpoint before it, each type between passed by its size.  -ENOENT
 * when there is no such type (eb untouched).
 */
static int type_info(const struct btf *b, uint32_t id, uint32_t *info,
		     struct errbuf *eb)
{
	size_t window = b->src->window;
	struct walk wk;
	uint32_t n;
	int err;

	while (id < b->start_id && b->base)
		b = b->base;
	if (id < b->start_id || id - b->start_id >= b->nr_types)
		return -ENOENT;
	n = id - b->start_id;
	err = walk_open(b, &wk, n - n % BTF_CHECKPOINT,
			b->checkpoints[n / BTF_CHECKPOINT],
			window < SEEK_WINDOW ? window : SEEK_WINDOW, eb);
	while (!err && wk.n <= n)
		err = walk_next(b, &wk, eb);
	btf_stream_close(&wk.st);
	*info = wk.t[1];
	return err;
}

/* Each function found: its prototype, read now if the pass went by it. */
static int finish(const struct btf *b, struct btf_func *funcs,
		  struct want *w, unsigned int nr, struct errbuf *eb)
{
	unsigned int k;
	int err;

	for (k = 0; k < nr; k++) {
		if (!w[k].found)
			continue;
		if (!w[k].proto_seen) {
			err = type_info(b, funcs[k].proto_id,
					&w[k].proto_info, eb);
			if (err && err != -ENOENT)
				return err;
			w[k].proto_seen = !err;
		}
		if (!w[k].proto_seen ||
		    kind_of(w[k].proto_info) != BTF_KIND_FUNC_PROTO) {
			funcs[k].err = -EINVAL;
			continue;
		}
		funcs[k].err = 0;
		funcs[k].nr_args = w[k].proto_info & 0xffff;
	}
	return 0;
}

int btf_read(struct btf *b, struct btf_src *src, const struct btf *base,
	     struct btf_func *funcs, unsigned int nr, struct errbuf *eb)
{
	struct want w[BTF_FUNCS_MAX];
	unsigned int k;
	int err;

	memset(b, 0, sizeof(*b));
	memset(w, 0, sizeof(w));
	if (nr > BTF_FUNCS_MAX)
		return errbuf_set(eb, -E2BIG,
				  "BTF: %u functions asked at once, more than %d",
				  nr, BTF_FUNCS_MAX);
	for (k = 0; k < nr; k++) {
		funcs[k].err = -ENOENT;
		funcs[k].id = funcs[k].proto_id = 0;
		funcs[k].nr_args = 0;
	}
	b->src = src;
	b->base = base;
	b->start_id = base ? base->start_id + base->nr_types : 1;
	b->start_str = base ? base->start_str + base->strs_len : 0;
	err = read_header(b, eb);
	if (!err)
		err = check_strings(b, eb);
	if (!err)
		err = find_names(b, funcs, w, nr, eb);
	if (!err)
		err = walk_types(b, funcs, w, nr, eb);
	if (!err)
		err = finish(b, funcs, w, nr, eb);
	if (err)
		btf_free(b);
	return err;
}

void btf_free(struct btf *b)
{
	free(b->checkpoints);
	memset(b, 0, sizeof(*b));
}

/* Members asked for of the struct or union t (its first 12 bytes). */
static int match_members(const struct btf *b, struct walk *wk,
			 const uint32_t t[3], struct btf_field *m,
			 const struct want *w, unsigned int nr,
			 struct errbuf *eb)
{
	unsigned int vlen = t[1] & 0xffff, i, k;
	int kflag = (int)(t[1] >> 31);
	uint32_t mem[3], bits;
	int err;

	for (i = 0; i < vlen; i++) {
		err = btf_stream_get(&wk->st, mem, sizeof(mem), eb);
		if (err)
			return err;
		wk->rest -= sizeof(mem);
		mem[0] = bo32(mem[0], b->swapped);
		mem[2] = bo32(mem[2], b->swapped);
		for (k = 0; k < nr; k++) {
			const struct want *ws = &w[(size_t)2 * k];

			if (m[k].err != -ENOENT || !ws[0].named ||
			    !ws[1].named || ws[0].name_off != t[0] ||
			    ws[1].name_off != mem[0])
				continue;
			/* kind_flag: a bit field's size in the top byte. */
			bits = kflag ? mem[2] & 0xffffff : mem[2];
			m[k].err = bits % 8 || (kflag && mem[2] >> 24) ?
				   -EINVAL : 0;
			m[k].off = bits / 8;
		}
	}
	return 0;
}

int btf_fields(struct btf_src *src, struct btf_field *m, unsigned int nr,
		struct errbuf *eb)
{
	struct btf_func names[BTF_FUNCS_MAX];
	struct want w[BTF_FUNCS_MAX];
	struct btf b;
	struct walk wk;
	unsigned int k, kind;
	int err;

	if (2 * nr > BTF_FUNCS_MAX)
		return errbuf_set(eb, -E2BIG,
				  "BTF: %u members asked at once, more than %d",
				  nr, BTF_FUNCS_MAX / 2);
	memset(&b, 0, sizeof(b));
	memset(w, 0, sizeof(w));
	memset(names, 0, sizeof(names));
	for (k = 0; k < nr; k++) {
		m[k].err = -ENOENT;
		m[k].off = 0;
		names[(size_t)2 * k].name = m[k].type;
		names[(size_t)2 * k + 1].name = m[k].name;
	}
	b.src = src;
	b.start_id = 1;
	err = read_header(&b, eb);
	if (!err)
		err = check_strings(&b, eb);
	if (!err)
		err = find_names(&b, names, w, 2 * nr, eb);
	if (!err)
		err = walk_open(&b, &wk, 0, 0, src->window, eb);
	if (err)
		return err;
	while (wk.off < b.types_len) {
		err = walk_next(&b, &wk, eb);
		if (err)
			break;
		kind = kind_of(wk.t[1]);
		if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
			continue;
		err = match_members(&b, &wk, wk.t, m, w, nr, eb);
		if (err)
			break;
	}
	btf_stream_close(&wk.st);
	return err;
}
