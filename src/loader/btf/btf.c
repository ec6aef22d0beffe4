// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF blob, read in its own order: header, then the type section
 * walked once (each type's size follows from its kind and vlen), then
 * the strings the types name.  Layouts: include/uapi/linux/btf.h.
 */
#include "loader/btf/btf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>

#define BTF_MAX_FILE	(64u << 20)	/* vmlinux's is 4 to 6 MiB */

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

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int check_header(const unsigned char *d, size_t size, struct btf_header *h,
			struct errbuf *eb)
{
	uint64_t body;

	if (size < sizeof(*h))
		return errbuf_set(eb, -EINVAL,
				  "BTF: %zu bytes, shorter than its 24-byte header",
				  size);
	memcpy(h, d, sizeof(*h));
	if (h->magic == 0x9feb)
		return errbuf_set(eb, -EINVAL,
				  "BTF: magic 0x9feb: the other byte order's BTF, not this machine's");
	if (h->magic != BTF_MAGIC)
		return errbuf_set(eb, -EINVAL,
				  "BTF: magic 0x%04x, not 0xeb9f", h->magic);
	if (h->version != BTF_VERSION)
		return errbuf_set(eb, -EINVAL, "BTF: version %u, not %u",
				  h->version, BTF_VERSION);
	if (h->hdr_len < sizeof(*h) || h->hdr_len > size)
		return errbuf_set(eb, -EINVAL,
				  "BTF: header length %u outside 24..%zu",
				  h->hdr_len, size);
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

/*
 * A string section ends with a NUL; vmlinux's starts with one (offset 0
 * is the empty name), a split one may be empty.
 */
static int check_strings(const struct btf *b, struct errbuf *eb)
{
	if (!b->strs_len)
		return b->base ? 0 : errbuf_set(eb, -EINVAL,
						"BTF: no string section");
	if (b->strs[b->strs_len - 1])
		return errbuf_set(eb, -EINVAL,
				  "BTF: string section does not end with a NUL");
	if (!b->base && b->strs[0])
		return errbuf_set(eb, -EINVAL,
				  "BTF: string section does not start with the empty name");
	return 0;
}

/* Walks the type section once, noting where each type starts. */
static int index_types(struct btf *b, struct errbuf *eb)
{
	uint32_t off = 0, n = 0, cap = 0;

	while (off < b->types_len) {
		uint32_t info, *grown;
		unsigned int kind;
		size_t extra;

		if (b->types_len - off < 12)
			return errbuf_set(eb, -EINVAL,
					  "BTF: type %u cut short at byte %u of the type section",
					  b->start_id + n, off);
		info = u32_at(b->types + off + 4);
		kind = (info >> 24) & 0x1f;
		if (extra_size(kind, info & 0xffff, &extra))
			return errbuf_set(eb, -EINVAL,
					  "BTF: type %u has kind %u, which this reader does not know (a kernel newer than 6.12?)",
					  b->start_id + n, kind);
		if (extra > b->types_len - off - 12)
			return errbuf_set(eb, -EINVAL,
					  "BTF: type %u (kind %u, vlen %u) runs past the type section",
					  b->start_id + n, kind, info & 0xffff);
		if (!btf_str(b, u32_at(b->types + off)))
			return errbuf_set(eb, -EINVAL,
					  "BTF: type %u names string offset %u, outside the strings",
					  b->start_id + n, u32_at(b->types + off));
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			grown = realloc(b->offs, (size_t)cap * sizeof(*grown));
			if (!grown)
				return errbuf_set(eb, -ENOMEM, "out of memory");
			b->offs = grown;
		}
		b->offs[n++] = off;
		off += 12 + (uint32_t)extra;
		if (UINT32_MAX - b->start_id < n)
			return errbuf_set(eb, -EINVAL, "BTF: too many types");
	}
	b->nr_types = n;
	return 0;
}

/* Parses the blob at data, which b then owns (freed on failure too). */
static int parse_owned(struct btf *b, unsigned char *data, size_t size,
		       const struct btf *base, struct errbuf *eb)
{
	struct btf_header h;
	int err;

	memset(b, 0, sizeof(*b));
	err = check_header(data, size, &h, eb);
	if (err) {
		free(data);
		return err;
	}
	b->data = data;
	b->size = size;
	b->base = base;
	b->types = b->data + h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strs = (const char *)b->data + h.hdr_len + h.str_off;
	b->strs_len = h.str_len;
	b->start_id = base ? base->start_id + base->nr_types : 1;
	b->start_str = base ? base->start_str + base->strs_len : 0;
	err = check_strings(b, eb);
	if (!err)
		err = index_types(b, eb);
	if (err)
		btf_free(b);
	return err;
}

int btf_parse(struct btf *b, const void *data, size_t size,
	      const struct btf *base, struct errbuf *eb)
{
	unsigned char *copy = malloc(size ? size : 1);

	memset(b, 0, sizeof(*b));
	if (!copy)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	memcpy(copy, data, size);
	return parse_owned(b, copy, size, base, eb);
}

int btf_load(struct btf *b, const char *path, const struct btf *base,
	     struct errbuf *eb)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, err;

	struct stat st;

	memset(b, 0, sizeof(*b));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errbuf_set(eb, -errno, "%s: %s", path, strerror(errno));
	/*
	 * sysfs says the size: one buffer of it and one byte more, to see
	 * the end; read until EOF all the same (kernfs hands out a page
	 * per read).
	 */
	if (!fstat(fd, &st) && st.st_size > 0 && st.st_size < BTF_MAX_FILE)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap ? cap : 1);
	if (!buf) {
		err = errbuf_set(eb, -ENOMEM, "out of memory");
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (len == cap) {
			unsigned char *grown;

			cap = cap ? 2 * cap : 1u << 20;
			if (cap > BTF_MAX_FILE) {
				err = errbuf_set(eb, -EFBIG,
						 "%s: larger than %u MiB",
						 path, BTF_MAX_FILE >> 20);
				goto out;
			}
			grown = realloc(buf, cap);
			if (!grown) {
				err = errbuf_set(eb, -ENOMEM, "out of memory");
				goto out;
			}
			buf = grown;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errbuf_set(eb, -errno, "%s: %s", path,
					 strerror(errno));
			goto out;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	close(fd);
	return parse_owned(b, buf, len, base, eb);
out:
	free(buf);
	close(fd);
	return err;
}

void btf_free(struct btf *b)
{
	free(b->data);
	free(b->offs);
	memset(b, 0, sizeof(*b));
}

const char *btf_str(const struct btf *b, uint32_t off)
{
	/* Below start_str: the base's (which may have a base of its own). */
	while (off < b->start_str && b->base)
		b = b->base;
	if (off < b->start_str)
		return NULL;
	off -= b->start_str;
	return off < b->strs_len ? b->strs + off : NULL;
}

/* The 12 bytes of type id, in b or its base; NULL if none. */
static const unsigned char *type_at(const struct btf *b, uint32_t id)
{
	while (id < b->start_id && b->base)
		b = b->base;
	if (id < b->start_id || id - b->start_id >= b->nr_types)
		return NULL;
	return b->types + b->offs[id - b->start_id];
}

int btf_kind(const struct btf *b, uint32_t id)
{
	const unsigned char *t = type_at(b, id);

	return t ? (int)((u32_at(t + 4) >> 24) & 0x1f) : -ENOENT;
}

int btf_find_func(const struct btf *b, const char *name, struct btf_func *f)
{
	uint32_t i;

	for (i = 0; i < b->nr_types; i++) {
		const unsigned char *t = b->types + b->offs[i], *proto;
		const char *s;

		if (((u32_at(t + 4) >> 24) & 0x1f) != BTF_KIND_FUNC)
			continue;
		s = btf_str(b, u32_at(t));
		if (!s || strcmp(s, name))
			continue;
		f->id = b->start_id + i;
		f->proto_id = u32_at(t + 8);
		proto = type_at(b, f->proto_id);
		if (!proto || ((u32_at(proto + 4) >> 24) & 0x1f) !=
			      BTF_KIND_FUNC_PROTO)
			return -EINVAL;
		f->nr_args = u32_at(proto + 4) & 0xffff;
		return 0;
	}
	return -ENOENT;
}
