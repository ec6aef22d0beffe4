// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-bpf=elf: the embedded object as the loader reads it (elf_obj.c):
 * every section with its type, flags and size, then every relocation of
 * a program with the 16 bytes of the ld_imm64 it points at, before and
 * after the loader's rewrite (obj_load.c, bpf_obj_reloc_insn()).  The
 * maps a histogram run creates are created for the "after" bytes when
 * this process may (root), so their fds are a run's; the others (slow
 * mode's, the lessons') and every map without root show fd -1.
 * Compare: llvm-objdump -h -r.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/engine/bpf_blob.h"
#include "tool/dump/dump_bpf.h"
#include "tool/dump/prog_batch.h"

static const char *type_name(GElf_Word t)
{
	switch (t) {
	case SHT_NULL: return "NULL";
	case SHT_PROGBITS: return "PROGBITS";
	case SHT_SYMTAB: return "SYMTAB";
	case SHT_STRTAB: return "STRTAB";
	case SHT_REL: return "REL";
	case SHT_NOBITS: return "NOBITS";
	case 0x6fff4c03: return "LLVM_ADDRSIG";
	default: return "OTHER";
	}
}

static void print_bytes(FILE *out, const struct bpf_insn *in)
{
	const unsigned char *b = (const unsigned char *)in;
	int i;

	for (i = 0; i < 16; i++)
		fprintf(out, "%02x%s", b[i], i == 7 ? "  " : i == 15 ? "" : " ");
}

/* One relocation: the ld_imm64 at in, before and after the rewrite. */
static void print_reloc(FILE *out, const struct bpf_obj *obj,
			const struct obj_reloc *r, const struct bpf_insn *in)
{
	const struct obj_map *m = &obj->maps[r->map];
	struct bpf_insn after[2];
	char before_text[96], after_text[96];

	bpf_obj_reloc_insn(obj, r, in, after);
	bpf_disasm_insn(in, 2, 0, before_text, sizeof(before_text));
	bpf_disasm_insn(after, 2, 0, after_text, sizeof(after_text));
	fprintf(out, "  offset 0x%zx R_BPF_64_64 %s: instruction %zu loads map %s\n",
		r->insn * sizeof(struct bpf_insn), m->name, r->insn, m->name);
	fprintf(out, "    before: ");
	print_bytes(out, in);
	fprintf(out, "  %s\n    after:  ", before_text);
	print_bytes(out, after);
	fprintf(out, "  %s  (src_reg %u -> %u BPF_PSEUDO_MAP_FD, imm %d -> fd %d%s)\n",
		after_text, in->src_reg, after->src_reg, in->imm, after->imm,
		m->fd < 0 ? ": not created" : "");
}

/* What the loader sees of each section, in file order. */
static int print_sections(FILE *out, Elf *elf, const struct bpf_obj *obj)
{
	size_t shstrndx, i;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	fprintf(out, "sections (what elf_obj.c makes of each):\n");
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name, *what = "";
		char note[96] = "";

		if (!gelf_getshdr(scn, &sh))
			return -EINVAL;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			name = "";
		for (i = 0; i < obj->nr_progs; i++)
			if (!strcmp(obj->progs[i].section, name))
				snprintf(note, sizeof(note), "program %s, %zu instructions",
					 obj->progs[i].name, obj->progs[i].insn_cnt);
		if (!strcmp(name, "maps"))
			what = "map definitions (struct legacy_map_def each)";
		else if (!strcmp(name, "license") || !strcmp(name, "version"))
			what = "read: sent with every program load";
		else if (sh.sh_type == SHT_SYMTAB)
			what = "symbols: map names, program names";
		else if (sh.sh_type == SHT_REL && !note[0])
			what = sh.sh_info && elf_getscn(elf, sh.sh_info) ?
			       "relocations" : "";
		fprintf(out, "  [%2zu] %-44s %-12s %s%s size 0x%llx  %s%s\n",
			elf_ndxscn(scn), name, type_name(sh.sh_type),
			sh.sh_flags & SHF_ALLOC ? "A" : "-",
			sh.sh_flags & SHF_EXECINSTR ? "X" : "-",
			(unsigned long long)sh.sh_size, note, what);
	}
	return 0;
}

/*
 * The relocations of each program, a batch at a time: their
 * instructions as embedded, and as obj's maps (with their fds) make them.
 */
static int print_relocs(FILE *out, const struct bpf_obj *obj,
			struct errbuf *eb)
{
	struct prog_batch b = { .names = obj };
	size_t i, j;
	int err;

	while ((err = prog_batch_next(&b, 0, eb)) > 0)
		for (i = 0; i < b.obj.nr_progs; i++) {
			const struct obj_prog *p = &b.obj.progs[i];

			if (!p->nr_relocs)
				continue;
			fprintf(out, "\nrelocations of %s (section .rel%s, %zu entries):\n",
				p->section, p->section, p->nr_relocs);
			for (j = 0; j < p->nr_relocs; j++)
				print_reloc(out, obj, &p->relocs[j],
					    &p->insns[p->relocs[j].insn]);
		}
	prog_batch_end(&b);
	return err;
}

/* Which maps were created, and why the others were not. */
static void print_created(FILE *out, const struct bpf_obj *obj)
{
	size_t i;
	int first = 1;

	fprintf(out, "\nmaps created, as a histogram run creates them:");
	for (i = 0; i < obj->nr_maps; i++)
		if (obj->maps[i].fd >= 0) {
			fprintf(out, "%s %s fd %d", first ? "" : ",",
				obj->maps[i].name, obj->maps[i].fd);
			first = 0;
		}
	fprintf(out, "%s; the others are slow mode's and the lessons' (fd -1 below)\n",
		first ? " none" : "");
}

int dump_elf(FILE *out, const struct tracer_config *cfg, struct errbuf *eb)
{
	struct obj_load_state st = { 0 };
	struct obj_load_opts o = cfg->load;
	struct bpf_obj obj;
	struct errbuf meb = { "" };
	static const struct obj_parse_opts names = { .no_code = 1 };
	struct bpf_blob blob;
	Elf *elf = NULL;
	int err;

	/*
	 * The sections, maps and programs' names without the programs'
	 * code, which the relocations inflate a few programs at a time.
	 */
	err = bpf_blob_running(0, prog_batch_none, NULL, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &names, &obj, eb);
	if (err)
		goto out_blob;
	elf_version(EV_CURRENT);
	elf = elf_memory(blob.data, blob.size);
	if (!elf) {
		err = errbuf_set(eb, -EINVAL, "--dump-bpf=elf: libelf: %s",
				 elf_errmsg(-1));
		goto out;
	}
	fprintf(out, "ELF: %zu bytes, 64-bit relocatable, machine EM_BPF (247), for %s kernels\n",
		blob.size, blob.arch);
	err = print_sections(out, elf, &obj);
	if (err) {
		errbuf_set(eb, err, "--dump-bpf=elf: unreadable section headers");
		goto out;
	}
	elf_end(elf);
	elf = NULL;
	bpf_blob_release(&blob);
	/* A run's maps and fds for the bytes after the rewrite, where allowed. */
	o.skip_maps = tracer_maps_skipped(0);
	o.log_always = 0;
	privileges_raise_memlock();
	if (bpf_obj_create_maps(&obj, &o, &st, &meb))
		fprintf(out, "\n(maps not created, %s: fds show as -1)\n", meb.msg);
	else
		print_created(out, &obj);
	err = print_relocs(out, &obj, eb);
	if (!err && (fflush(out) == EOF || ferror(out)))
		err = errbuf_set(eb, -EIO, "--dump-bpf=elf: cannot write the listing");
out:
	if (elf)
		elf_end(elf);
	obj_load_state_free(&st);
	bpf_obj_free(&obj);
out_blob:
	bpf_blob_release(&blob);
	return err;
}
