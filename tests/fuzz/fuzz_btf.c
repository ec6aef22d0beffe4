// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: btf_read() on arbitrary bytes from memory, as a blob
 * of its own and as split BTF over a small base, asking for a few
 * functions, through the default window and a 7-byte one.  Both windows
 * must say the same (the result and its message, the counts, each
 * function's id, prototype and arguments), and a function found must be
 * one of the blob's own types.  Built by tests/fuzz/run.sh.
 */
#include "loader/btf/btf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A base of three types, strings "\0int\0f\0": 1 "int" (32 bits),
 * 2 a prototype of two ints, 3 the function "f" of it.
 */
static const unsigned char base_blob[] = {
	0x9f, 0xeb, 1, 0, 24, 0, 0, 0,		/* magic, version, flags, hdr_len */
	0, 0, 0, 0, 56, 0, 0, 0,		/* type_off 0, type_len 56 */
	56, 0, 0, 0, 7, 0, 0, 0,		/* str_off 56, str_len 7 */
	1, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0,	/* "int": kind INT, size 4 */
	0x20, 0, 0, 0,				/* its encoding: 32 bits */
	0, 0, 0, 0, 2, 0, 0, 13, 1, 0, 0, 0,	/* FUNC_PROTO, 2 params, int */
	0, 0, 0, 0, 1, 0, 0, 0,			/* int */
	0, 0, 0, 0, 1, 0, 0, 0,			/* int */
	5, 0, 0, 0, 0, 0, 0, 12, 2, 0, 0, 0,	/* "f": FUNC of type 2 */
	0, 'i', 'n', 't', 0, 'f', 0,
};

static const char *const names[] = { "ext4_file_read_iter", "int", "f", "" };
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

struct outcome {
	int err;
	struct errbuf eb;
	uint32_t nr_types, kinds;
	struct btf_func f[NR_NAMES];
};

static void run(const uint8_t *data, size_t size, const struct btf *base,
		size_t window, char *const copies[], struct outcome *o)
{
	struct btf_src s;
	struct btf b;
	unsigned int k;

	memset(o, 0, sizeof(*o));
	btf_src_mem(&s, data, size, "fuzz");
	if (window)
		s.window = window;
	for (k = 0; k < NR_NAMES; k++)
		o->f[k].name = copies[k];
	o->err = btf_read(&b, &s, base, o->f, NR_NAMES, &o->eb);
	if (o->err)
		return;
	o->nr_types = b.nr_types;
	o->kinds = b.kinds;
	for (k = 0; k < NR_NAMES; k++) {
		const struct btf_func *f = &o->f[k];

		if (f->err == -ENOENT)
			continue;
		if ((f->err && f->err != -EINVAL) || f->id < b.start_id ||
		    f->id - b.start_id >= b.nr_types || f->nr_args > 0xffff)
			abort();
	}
	/* Checked, counted, never held: each type is 12 bytes at least. */
	if ((uint64_t)b.nr_types * 12 > b.types_len ||
	    b.nr_checkpoints != (b.nr_types + BTF_CHECKPOINT - 1) /
				BTF_CHECKPOINT)
		abort();
	btf_free(&b);
}

static void same(const struct outcome *a, const struct outcome *b)
{
	unsigned int k;

	if (a->err != b->err || strcmp(a->eb.msg, b->eb.msg) ||
	    a->nr_types != b->nr_types || a->kinds != b->kinds)
		abort();
	for (k = 0; k < NR_NAMES; k++) {
		if (a->f[k].err != b->f[k].err || a->f[k].id != b->f[k].id ||
		    a->f[k].proto_id != b->f[k].proto_id ||
		    a->f[k].nr_args != b->f[k].nr_args)
			abort();
	}
}

/* The bytes through both windows over base; they must agree. */
static void both(const uint8_t *data, size_t size, const struct btf *base,
		 char *const copies[])
{
	static struct outcome wide, narrow;

	run(data, size, base, 0, copies, &wide);
	run(data, size, base, 7, copies, &narrow);
	same(&wide, &narrow);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = { { 0 } };
	char *copies[NR_NAMES];
	struct btf_src s;
	struct btf base;
	unsigned int k;

	/* Exact-size copies: a read past a name's NUL is ASan's. */
	for (k = 0; k < NR_NAMES; k++) {
		copies[k] = strdup(names[k]);
		if (!copies[k])
			abort();
	}
	both(data, size, NULL, copies);
	btf_src_mem(&s, base_blob, sizeof(base_blob), "base");
	if (btf_read(&base, &s, NULL, NULL, 0, &eb))
		abort();
	both(data, size, &base, copies);
	btf_free(&base);
	for (k = 0; k < NR_NAMES; k++)
		free(copies[k]);
	return 0;
}
