/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small reader of the kernel's BTF (/sys/kernel/btf/vmlinux, and a
 * module's split BTF, /sys/kernel/btf/<module>, 5.11+) that never holds
 * a blob: the header, the type section walked once through a window
 * (each type checked, counted, and every BTF_CHECKPOINT-th one's place
 * kept), and the functions asked for by name, with their prototypes'
 * parameter counts.  Enough to name a function to the kernel by its BTF
 * id for fentry and fexit programs; no CO-RE, no relocations, no type
 * graph.
 *
 * Split BTF continues its base: its first type id is the one after the
 * base's last, and a string offset at or past the base's string section
 * length is into its own strings, less that length.
 *
 * A blob is read in the byte order its magic says: a kernel's is the
 * machine's, a file may be from the other kind of machine (every field
 * of BTF is a byte or a 32-bit word, except the magic).
 */
#ifndef EXT4DIST_LOADER_BTF_BTF_H
#define EXT4DIST_LOADER_BTF_BTF_H

#include <stdint.h>

#include "loader/btf/btf_src.h"
#include "loader/util/errbuf.h"

#define BTF_CHECKPOINT	256		/* a type's place kept every this many */
#define BTF_FUNCS_MAX	32		/* functions asked at once */

struct btf {
	struct btf_src *src;		/* the caller's; read again for bases */
	const struct btf *base;		/* NULL: vmlinux's, ids from 1 */
	uint64_t types_at, strs_at;	/* the sections' offsets in src */
	uint32_t types_len, strs_len;
	uint32_t nr_types;		/* ids start_id .. start_id+nr_types-1 */
	uint32_t start_id;
	uint32_t start_str;		/* the base's string length, 0 if none */
	int swapped;			/* in the other byte order than ours */
	uint32_t kinds;			/* 1 << each BTF_KIND_* met */
	uint32_t *checkpoints;		/* type start_id + i * BTF_CHECKPOINT's */
	uint32_t nr_checkpoints;	/* offset in the type section */
};

/* A function (BTF_KIND_FUNC) asked for by name, and what was found. */
struct btf_func {
	const char *name;		/* asked for */
	int err;			/* 0; -ENOENT: none of b's own types;
					 * -EINVAL: its type is no prototype */
	uint32_t id;			/* the BTF id attach_btf_id takes */
	uint32_t proto_id;		/* its BTF_KIND_FUNC_PROTO */
	unsigned int nr_args;		/* the prototype's parameters */
};

/*
 * Reads the BTF of src over base (NULL for a blob of its own), and finds
 * the nr functions of funcs[] (at most BTF_FUNCS_MAX) among its own types
 * (not its base's): each name is looked for in one pass over its own
 * strings and, for those not there, its base's; then one pass over the
 * types matches the functions.  A blob whose sections, types or strings
 * do not hold together is refused with -EINVAL and the reason in eb; a
 * kind this reader does not know, too (it cannot be skipped).  0 with
 * each function's err set, or -errno.  src (and base's, for prototypes
 * in the base) are read from again: they must outlive b.
 */
int btf_read(struct btf *b, struct btf_src *src, const struct btf *base,
	     struct btf_func *funcs, unsigned int nr, struct errbuf *eb);
void btf_free(struct btf *b);

/* A member of a struct (or union) asked for by both names. */
struct btf_field {
	const char *type;		/* the struct's name, "file" */
	const char *name;		/* the member's, "f_op" */
	int err;			/* 0; -ENOENT: no such struct or
					 * member; -EINVAL: a bit field */
	uint32_t off;			/* its offset in the struct, bytes */
};

/*
 * The members m[0..nr) (at most BTF_FUNCS_MAX / 2) in one pass over the
 * types of src, a blob of its own (vmlinux's), each in the first struct
 * or union of that name that has it.  0 with each member's err set, or
 * -errno with the reason in eb when the blob does not hold together.
 */
int btf_fields(struct btf_src *src, struct btf_field *m, unsigned int nr,
		struct errbuf *eb);

#endif
