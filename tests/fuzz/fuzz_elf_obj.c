// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: bpf_obj_parse() on arbitrary bytes, then the lookups
 * the loader does on a parsed object, then bpf_obj_free().
 * Built by tests/fuzz/run.sh with -fsanitize=fuzzer,address,undefined.
 */
#include "loader/obj/elf_obj.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = { { 0 } };
	struct bpf_obj obj;
	size_t i, j;

	if (bpf_obj_parse(data, size, &obj, &eb) == 0) {
		/* Touch everything the loader reads from a parsed object. */
		for (i = 0; i < obj.nr_progs; i++) {
			struct obj_prog *p = &obj.progs[i];

			if (p->fd != -1 || !p->insn_cnt)
				abort();
			for (j = 0; j < p->nr_relocs; j++)
				if (p->relocs[j].insn + 1 >= p->insn_cnt ||
				    p->relocs[j].map >= obj.nr_maps ||
				    p->insns[p->relocs[j].insn].code !=
				    (BPF_LD | BPF_IMM | BPF_DW))
					abort();
			if ((p->tracepoint ?
			     bpf_obj_find_tracepoint(&obj, p->target,
						     p->variant) :
			     p->multi ?
			     bpf_obj_find_multi(&obj, p->kind, p->target,
						p->variant) :
			     p->tracing ?
			     bpf_obj_find_tracing(&obj, p->kind, p->target,
						  p->variant) :
			     bpf_obj_find_prog(&obj, p->kind, p->target,
					       p->variant)) == NULL)
				abort();
			(void)strlen(p->name);
			/* --dump-bpf's source lines: inside the program, in order. */
			for (j = 0; j < p->nr_lines; j++) {
				if (p->lines[j].insn >= p->insn_cnt ||
				    (j && p->lines[j].insn <=
					  p->lines[j - 1].insn))
					abort();
				(void)strlen(p->lines[j].file);
				(void)strlen(p->lines[j].text);
			}
		}
		for (i = 0; i < obj.nr_maps; i++)
			if (bpf_obj_find_map(&obj, obj.maps[i].name) == NULL)
				abort();
		(void)strlen(obj.license);
	}
	/* The parser cleans up after a failure; freeing twice must be fine. */
	bpf_obj_free(&obj);
	return 0;
}
