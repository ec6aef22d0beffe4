/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small reader of the kernel's BTF (/sys/kernel/btf/vmlinux, and a
 * module's split BTF, /sys/kernel/btf/<module>, 5.11+): the header, the
 * type and string sections, each type's place, and functions by name.
 * Enough to name a function to the kernel by its BTF id for fentry and
 * fexit programs; no CO-RE, no relocations, no type graph.
 *
 * Split BTF continues its base: its first type id is the one after the
 * base's last, and a string offset at or past the base's string section
 * length is into its own strings, less that length.
 */
#ifndef EXT4DIST_LOADER_BTF_BTF_H
#define EXT4DIST_LOADER_BTF_BTF_H

#include <stddef.h>
#include <stdint.h>

#include "loader/util/errbuf.h"

struct btf {
	const struct btf *base;		/* NULL: vmlinux's, ids from 1 */
	unsigned char *data;		/* the blob (owned) */
	size_t size;
	const unsigned char *types;	/* the type section */
	uint32_t types_len;
	const char *strs;		/* the string section */
	uint32_t strs_len;
	uint32_t *offs;			/* each type's offset in types */
	uint32_t nr_types;		/* ids start_id .. start_id+nr_types-1 */
	uint32_t start_id;
	uint32_t start_str;		/* the base's string length, 0 if none */
};

/* A function (BTF_KIND_FUNC) and what its prototype says. */
struct btf_func {
	uint32_t id;			/* the BTF id attach_btf_id takes */
	uint32_t proto_id;		/* its BTF_KIND_FUNC_PROTO */
	unsigned int nr_args;		/* the prototype's parameters */
};

/*
 * Parses size bytes at data (copied) as BTF over base (NULL for a blob
 * of its own).  Every type is walked once: a blob whose sections, types
 * or strings do not hold together is refused with -EINVAL and the reason
 * in eb; a kind this reader does not know, too (it cannot be skipped).
 */
int btf_parse(struct btf *b, const void *data, size_t size,
	      const struct btf *base, struct errbuf *eb);
/* Reads path whole (at most 64 MiB) and parses it as btf_parse() does. */
int btf_load(struct btf *b, const char *path, const struct btf *base,
	     struct errbuf *eb);
void btf_free(struct btf *b);

/* The string at offset off (base's below start_str), NULL if none. */
const char *btf_str(const struct btf *b, uint32_t off);
/* Kind of type id (BTF_KIND_*), looked up in b or its base; -ENOENT. */
int btf_kind(const struct btf *b, uint32_t id);

/*
 * The function called name among b's own types (not its base's).
 * 0 with *f filled, -ENOENT when b has none, -EINVAL when its type is
 * no function prototype.
 */
int btf_find_func(const struct btf *b, const char *name, struct btf_func *f);

#endif
