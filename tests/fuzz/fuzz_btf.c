// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: btf_parse() on arbitrary bytes, as a blob of its own
 * and as split BTF over a small base, then every lookup the loader makes
 * on a parsed one (each type's kind and name, functions by name), then
 * btf_free().  Built by tests/fuzz/run.sh.
 */
#include "loader/btf/btf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A base of one int type "int", strings "\0int\0". */
static const unsigned char base_blob[] = {
	0x9f, 0xeb, 1, 0, 24, 0, 0, 0,		/* magic, version, flags, hdr_len */
	0, 0, 0, 0, 16, 0, 0, 0,		/* type_off 0, type_len 16 */
	16, 0, 0, 0, 5, 0, 0, 0,		/* str_off 16, str_len 5 */
	1, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0,	/* "int": kind INT, size 4 */
	0x20, 0, 0, 0,				/* its encoding: 32 bits */
	0, 'i', 'n', 't', 0,
};

static void touch(const struct btf *b)
{
	struct btf_func f;
	uint32_t i;

	for (i = 0; i < b->nr_types; i++) {
		const unsigned char *t = b->types + b->offs[i];
		uint32_t name;

		if (b->offs[i] + 12 > b->types_len)
			abort();
		memcpy(&name, t, sizeof(name));
		/* Every name was checked to be inside the strings. */
		if (!btf_str(b, name))
			abort();
		(void)strlen(btf_str(b, name));
		if (btf_kind(b, b->start_id + i) < 0)
			abort();
	}
	(void)btf_find_func(b, "ext4_file_read_iter", &f);
	(void)btf_find_func(b, "", &f);
	(void)btf_kind(b, 0);
	(void)btf_kind(b, UINT32_MAX);
	(void)btf_str(b, UINT32_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = { { 0 } };
	struct btf own, base, split;

	if (btf_parse(&own, data, size, NULL, &eb) == 0) {
		touch(&own);
		btf_free(&own);
	}
	if (btf_parse(&base, base_blob, sizeof(base_blob), NULL, &eb))
		abort();
	if (btf_parse(&split, data, size, &base, &eb) == 0) {
		touch(&split);
		btf_free(&split);
	}
	btf_free(&base);
	return 0;
}
