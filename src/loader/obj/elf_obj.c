// SPDX-License-Identifier: GPL-2.0
/*
 * ELF walk in the order the file is meant to be read: header, section
 * names, license and version, maps and their symbols, programs, then the
 * relocations that tie programs to maps.
 */
#include "loader/obj/elf_obj.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/obj/btf_lines.h"
#include "loader/util/byteorder.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)

struct elf_walk {
	Elf *elf;
	size_t shstrndx;
	Elf_Scn *symtab;
	size_t strtabndx;
	size_t maps_shndx;	/* 0: no maps section */
	size_t maps_size;
	size_t *map_sym_off;	/* st_value of each map, obj->maps order */
	Elf_Scn *btf, *btf_ext;	/* .BTF and .BTF.ext, NULL if absent */
	int swapped;		/* the object's byte order is not ours */
	const struct obj_parse_opts *opts;
	const char *data;	/* the bytes parsed, size of them */
	size_t size;
	struct errbuf *eb;
};

static const char *scn_name(struct elf_walk *w, const GElf_Shdr *sh)
{
	return elf_strptr(w->elf, w->shstrndx, sh->sh_name);
}

/* -ENOMEM, said: what could not be kept of the object. */
static int no_memory(struct errbuf *eb, const char *what, const char *name)
{
	return errbuf_set(eb, -ENOMEM, "out of memory reading the BPF object: %s%s",
			  what, name);
}

static int check_header(struct elf_walk *w, size_t size)
{
	GElf_Ehdr eh;

	if (elf_kind(w->elf) != ELF_K_ELF)
		return errbuf_set(w->eb, -EINVAL, "BPF object: not an ELF file");
	if (!gelf_getehdr(w->elf, &eh))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: truncated or invalid ELF header: %s",
				  elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: not a 64-bit ELF file");
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB &&
	    eh.e_ident[EI_DATA] != ELFDATA2MSB)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: unknown byte order");
	/* libelf converts headers, symbols and relocations; the rest is ours. */
	w->swapped = (eh.e_ident[EI_DATA] == ELFDATA2LSB) != HOST_LITTLE_ENDIAN;
	if (eh.e_machine != EM_BPF)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: wrong machine %u (expected EM_BPF, %u)",
				  eh.e_machine, EM_BPF);
	if (eh.e_type != ET_REL)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: not a relocatable object (e_type %u)",
				  eh.e_type);
	if (eh.e_shoff > size || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    (size - eh.e_shoff) / eh.e_shentsize < eh.e_shnum)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: truncated: section headers end at byte %llu, the file has %zu",
				  (unsigned long long)eh.e_shoff +
				  (unsigned long long)eh.e_shnum * eh.e_shentsize,
				  size);
	if (elf_getshdrstrndx(w->elf, &w->shstrndx))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: no section name table: %s",
				  elf_errmsg(-1));
	return 0;
}

/* Section data, checked to lie inside the file. */
static int scn_data(struct elf_walk *w, Elf_Scn *scn, const GElf_Shdr *sh,
		    Elf_Data **out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	const char *name = scn_name(w, sh);

	/* SHT_NOBITS has a size but no bytes: nothing we read may be one. */
	if (!d || (sh->sh_size && !d->d_buf) || d->d_size != sh->sh_size)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: section %s is truncated or unreadable",
				  name ? name : "?");
	*out = d;
	return 0;
}

static int read_license_version(struct elf_walk *w, struct bpf_obj *obj,
				Elf_Scn *scn, const GElf_Shdr *sh,
				const char *name)
{
	Elf_Data *d;
	int err = scn_data(w, scn, sh, &d);

	if (err)
		return err;
	if (strcmp(name, "license") == 0) {
		if (d->d_size == 0 || d->d_size >= sizeof(obj->license) ||
		    memchr(d->d_buf, '\0', d->d_size) == NULL)
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: license section is not a short NUL-terminated string");
		memcpy(obj->license, d->d_buf, d->d_size);
		return 0;
	}
	if (d->d_size != sizeof(uint32_t))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: version section has %zu bytes, expected 4",
				  d->d_size);
	obj->version = get_bo32(d->d_buf, w->swapped);
	return 0;
}

/*
 * An instruction of the other byte order: its 16-bit offset and 32-bit
 * immediate swapped, and its register nibbles, which a big-endian
 * compiler packs destination first (the kernel's struct bpf_insn
 * bitfields).
 */
static void swap_insns(struct bpf_insn *in, size_t n)
{
	for (; n; n--, in++) {
		uint8_t dst = in->dst_reg, src = in->src_reg;

		in->dst_reg = src;
		in->src_reg = dst;
		in->off = (int16_t)bo16((uint16_t)in->off, 1);
		in->imm = (int32_t)bo32((uint32_t)in->imm, 1);
	}
}

static int valid_target(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return 0;
	}
	return 1;
}

static int add_prog(struct elf_walk *w, struct bpf_obj *obj, Elf_Scn *scn,
		    const GElf_Shdr *sh, const char *name)
{
	struct obj_prog *p, *np;
	size_t plen, size;
	Elf_Data *d;
	int err;

	if (strlen(name) >= sizeof(p->section))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: section name too long: %.40s...", name);
	/* Without their code: the size the header says, no byte read. */
	if (w->opts->no_code) {
		d = NULL;
		size = sh->sh_size;
	} else {
		err = scn_data(w, scn, sh, &d);
		if (err)
			return err;
		size = d->d_size;
	}
	if (size == 0 || size % sizeof(struct bpf_insn))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: program %s has %zu bytes, not a whole number of instructions",
				  name, size);
	np = realloc(obj->progs, (obj->nr_progs + 1) * sizeof(*np));
	if (!np)
		return no_memory(w->eb, "the program table, at ", name);
	obj->progs = np;
	p = &obj->progs[obj->nr_progs];
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->insn_cnt = size / sizeof(struct bpf_insn);
	if (!d) {
		obj->nr_progs++;
	} else {
		/* libelf hands out the parsed bytes themselves (same byte order). */
		if (w->opts->borrow &&
		    ((const char *)d->d_buf < w->data ||
		     (const char *)d->d_buf + d->d_size > w->data + w->size))
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: libelf gave program %s's bytes from elsewhere: they cannot be borrowed",
					  name);
		p->insns = w->opts->borrow ? d->d_buf : malloc(d->d_size);
		if (!p->insns)
			return no_memory(w->eb, "the instructions of ", name);
		obj->nr_progs++;
		if (!w->opts->borrow)
			memcpy(p->insns, d->d_buf, d->d_size);
		if (w->swapped)
			swap_insns(p->insns, p->insn_cnt);
	}
	strcpy(p->section, name);
	p->shndx = elf_ndxscn(scn);
	p->tracepoint = strncmp(name, "tracepoint/", 11) == 0;
	p->multi = !p->tracepoint && strstr(name, ".multi/") != NULL;
	p->tracing = name[0] == 'f';
	p->kind = !p->tracepoint && (name[1] == 'r' ||
				      strncmp(name, "fexit/", 6) == 0) ?
		  PROBE_RETURN : PROBE_ENTRY;
	plen = strchr(name, '/') + 1 - name;
	/*
	 * "kprobe/<target>" or "kprobe/<target>/<variant>" (the same for
	 * every kind).
	 */
	{
		const char *t = p->section + plen, *v = strchr(t, '/');
		size_t tlen = v ? (size_t)(v - t) : strlen(t);

		if (tlen >= sizeof(p->target) ||
		    (v && strlen(v + 1) >= sizeof(p->variant)))
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: program section %s: name too long",
					  name);
		memcpy(p->target, t, tlen);
		p->target[tlen] = '\0';
		if (v)
			strcpy(p->variant, v + 1);
		if (!valid_target(p->target) ||
		    (v && !valid_target(p->variant)))
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: program section %s: probe target must be [A-Za-z0-9_.]+",
					  name);
	}
	return 0;
}

/*
 * "kprobe/", "kretprobe/", their kprobe_multi twins (5.18+),
 * "fentry/", "fexit/" (5.5+), and "tracepoint/" (4.7+).
 */
static int is_prog_section(const char *name)
{
	return strncmp(name, "kprobe/", 7) == 0 ||
	       strncmp(name, "tracepoint/", 11) == 0 ||
	       strncmp(name, "fentry/", 7) == 0 ||
	       strncmp(name, "fexit/", 6) == 0 ||
	       strncmp(name, "kretprobe/", 10) == 0 ||
	       strncmp(name, "kprobe.multi/", 13) == 0 ||
	       strncmp(name, "kretprobe.multi/", 16) == 0;
}

/* First pass: license, version, maps section, symbol table, programs. */
static int walk_sections(struct elf_walk *w, struct bpf_obj *obj,
			 int *have_license)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int err;

	while ((scn = elf_nextscn(w->elf, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: unreadable section header: %s",
					  elf_errmsg(-1));
		name = scn_name(w, &sh);
		if (!name)
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: section %zu has no name",
					  elf_ndxscn(scn));
		if (strcmp(name, "license") == 0 ||
		    strcmp(name, "version") == 0) {
			err = read_license_version(w, obj, scn, &sh, name);
			if (err)
				return err;
			*have_license |= name[0] == 'l';
		} else if (strcmp(name, ".BTF") == 0) {
			w->btf = scn;
		} else if (strcmp(name, ".BTF.ext") == 0) {
			w->btf_ext = scn;
		} else if (strcmp(name, "maps") == 0) {
			w->maps_shndx = elf_ndxscn(scn);
			w->maps_size = sh.sh_size;
		} else if (sh.sh_type == SHT_SYMTAB) {
			if (w->symtab)
				return errbuf_set(w->eb, -EINVAL,
						  "BPF object: more than one symbol table");
			w->symtab = scn;
			w->strtabndx = sh.sh_link;
		} else if (is_prog_section(name) &&
			   (sh.sh_flags & SHF_EXECINSTR)) {
			if (w->opts->keep && !w->opts->keep(name, w->opts->arg))
				continue;
			err = add_prog(w, obj, scn, &sh, name);
			if (err)
				return err;
		} else if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_size) {
			/* .text holds bpf-to-bpf callees: unsupported before 4.16. */
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: code in section %s is not a kprobe/, kretprobe/, kprobe.multi/, kretprobe.multi/, fentry/, fexit/ or tracepoint/ program (bpf-to-bpf calls are not supported; use __always_inline)",
					  name);
		}
	}
	return 0;
}

static int symbol_count(struct elf_walk *w, Elf_Data **data, size_t *n)
{
	GElf_Shdr sh;

	if (!w->symtab)
		return errbuf_set(w->eb, -EINVAL, "BPF object: no symbol table");
	if (!gelf_getshdr(w->symtab, &sh) || !sh.sh_entsize)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: bad symbol table header");
	if (scn_data(w, w->symtab, &sh, data))
		return -EINVAL;
	*n = sh.sh_size / sh.sh_entsize;
	return 0;
}

/* Maps: every symbol in the maps section, in order of address. */
static int read_maps(struct elf_walk *w, struct bpf_obj *obj)
{
	const size_t def_size = sizeof(struct legacy_map_def);
	Elf_Data *syms, *md;
	Elf_Scn *mscn;
	GElf_Shdr msh;
	size_t nsyms, i, j;
	int err;

	if (!w->maps_shndx)
		return 0;
	err = symbol_count(w, &syms, &nsyms);
	if (err)
		return err;
	mscn = elf_getscn(w->elf, w->maps_shndx);
	if (!mscn || !gelf_getshdr(mscn, &msh) || scn_data(w, mscn, &msh, &md))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: maps section unreadable");
	for (i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		struct obj_map *nm;
		const char *sname;

		if (!gelf_getsym(syms, (int)i, &sym) ||
		    sym.st_shndx != w->maps_shndx ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			continue;
		sname = elf_strptr(w->elf, w->strtabndx, sym.st_name);
		if (!sname || !*sname)
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: map symbol without a name");
		if (sym.st_value % 4 || sym.st_value > w->maps_size ||
		    w->maps_size - sym.st_value < def_size)
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: map %s lies outside the maps section (offset %llu, section %zu bytes)",
					  sname, (unsigned long long)sym.st_value,
					  w->maps_size);
		nm = realloc(obj->maps, (obj->nr_maps + 1) * sizeof(*nm));
		if (!nm)
			return no_memory(w->eb, "the map table, at ", sname);
		obj->maps = nm;
		nm = &obj->maps[obj->nr_maps];
		memset(nm, 0, sizeof(*nm));
		nm->fd = -1;
		snprintf(nm->name, sizeof(nm->name), "%s", sname);
		memcpy(&nm->def, (const char *)md->d_buf + sym.st_value,
		       def_size);
		nm->def.type = bo32(nm->def.type, w->swapped);
		nm->def.key_size = bo32(nm->def.key_size, w->swapped);
		nm->def.value_size = bo32(nm->def.value_size, w->swapped);
		nm->def.max_entries = bo32(nm->def.max_entries, w->swapped);
		nm->def.map_flags = bo32(nm->def.map_flags, w->swapped);
		{
			size_t *no = realloc(w->map_sym_off,
					     (obj->nr_maps + 1) * sizeof(*no));

			if (!no)
				return no_memory(w->eb, "the map table, at ",
						 sname);
			w->map_sym_off = no;
			no[obj->nr_maps] = sym.st_value;
		}
		obj->nr_maps++;
	}
	/* Two symbols at one offset would be two names for one map. */
	for (i = 0; i < obj->nr_maps; i++)
		for (j = i + 1; j < obj->nr_maps; j++)
			if (w->map_sym_off[i] == w->map_sym_off[j])
				return errbuf_set(w->eb, -EINVAL,
						  "BPF object: maps %s and %s overlap",
						  obj->maps[i].name,
						  obj->maps[j].name);
	return 0;
}

static struct obj_prog *prog_by_section(struct bpf_obj *obj, size_t shndx)
{
	size_t i;

	for (i = 0; i < obj->nr_progs; i++)
		if (obj->progs[i].shndx == shndx)
			return &obj->progs[i];
	return NULL;
}

static int add_reloc(struct elf_walk *w, struct bpf_obj *obj,
		     struct obj_prog *p, const GElf_Rel *rel, Elf_Data *syms,
		     size_t nsyms)
{
	size_t idx = rel->r_offset / sizeof(struct bpf_insn);
	size_t sym_i = GELF_R_SYM(rel->r_info), m;
	struct obj_reloc *nr;
	GElf_Sym sym;

	if (GELF_R_TYPE(rel->r_info) != R_BPF_64_64)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: %s: relocation type %llu is not supported (only R_BPF_64_64 map references; bpf-to-bpf calls need __always_inline)",
				  p->section,
				  (unsigned long long)GELF_R_TYPE(rel->r_info));
	if (rel->r_offset % sizeof(struct bpf_insn) || idx + 1 >= p->insn_cnt)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: %s: relocation offset %llu is outside the program (%zu instructions)",
				  p->section, (unsigned long long)rel->r_offset,
				  p->insn_cnt);
	if (p->insns[idx].code != LD_IMM64)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: %s: relocation at instruction %zu does not point at a 64-bit load (code 0x%02x)",
				  p->section, idx, p->insns[idx].code);
	if (sym_i >= nsyms || !gelf_getsym(syms, (int)sym_i, &sym))
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: %s: relocation names symbol %zu, which does not exist",
				  p->section, sym_i);
	if (!w->maps_shndx || sym.st_shndx != w->maps_shndx)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: %s: instruction %zu refers to a symbol outside the maps section (global data is not supported)",
				  p->section, idx);
	for (m = 0; m < obj->nr_maps; m++)
		if (w->map_sym_off[m] == sym.st_value)
			break;
	if (m == obj->nr_maps)
		return errbuf_set(w->eb, -EINVAL,
				  "BPF object: %s: instruction %zu refers to no map (offset %llu)",
				  p->section, idx, (unsigned long long)sym.st_value);
	nr = realloc(p->relocs, (p->nr_relocs + 1) * sizeof(*nr));
	if (!nr)
		return no_memory(w->eb, "the relocations of ", p->section);
	p->relocs = nr;
	nr[p->nr_relocs].insn = idx;
	nr[p->nr_relocs].map = m;
	p->nr_relocs++;
	return 0;
}

static int read_relocs(struct elf_walk *w, struct bpf_obj *obj)
{
	Elf_Data *syms = NULL;
	size_t nsyms = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int err;

	while ((scn = elf_nextscn(w->elf, scn)) != NULL) {
		struct obj_prog *p;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_REL)
			continue;
		p = prog_by_section(obj, sh.sh_info);
		if (!p)
			continue;	/* relocations of debug sections */
		if (!syms) {
			err = symbol_count(w, &syms, &nsyms);
			if (err)
				return err;
		}
		err = scn_data(w, scn, &sh, &d);
		if (err)
			return err;
		if (!sh.sh_entsize || sh.sh_size % sh.sh_entsize)
			return errbuf_set(w->eb, -EINVAL,
					  "BPF object: relocation section of %s is malformed",
					  p->section);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rel rel;

			if (!gelf_getrel(d, (int)i, &rel))
				return errbuf_set(w->eb, -EINVAL,
						  "BPF object: unreadable relocation %zu of %s",
						  i, p->section);
			err = add_reloc(w, obj, p, &rel, syms, nsyms);
			if (err)
				return err;
		}
	}
	return 0;
}

/* A section's bytes for the line reader: NULL, 0 when absent or unreadable. */
static const void *raw_section(Elf_Scn *scn, size_t *len)
{
	Elf_Data *d;
	GElf_Shdr sh;

	*len = 0;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return NULL;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size != sh.sh_size)
		return NULL;
	*len = d->d_size;
	return d->d_buf;
}

/* Source lines (clang -g), for --dump-bpf: never sent to the kernel. */
static int read_lines(struct elf_walk *w, struct bpf_obj *obj)
{
	size_t btf_len, ext_len;
	const void *btf = raw_section(w->btf, &btf_len);
	const void *ext = raw_section(w->btf_ext, &ext_len);

	return btf_lines_attach(obj, btf, btf_len, ext, ext_len);
}

/* Names programs after their function symbols, for -v and prog_name. */
static void name_progs(struct elf_walk *w, struct bpf_obj *obj)
{
	Elf_Data *syms;
	size_t nsyms, i;

	if (symbol_count(w, &syms, &nsyms))
		return;
	for (i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		struct obj_prog *p;
		const char *sname;

		if (!gelf_getsym(syms, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_value)
			continue;
		p = prog_by_section(obj, sym.st_shndx);
		sname = elf_strptr(w->elf, w->strtabndx, sym.st_name);
		if (p && sname && !p->name[0])
			snprintf(p->name, sizeof(p->name), "%s", sname);
	}
}

int bpf_obj_parse_in(void *data, size_t size, const struct obj_parse_opts *o,
		     struct bpf_obj *obj, struct errbuf *eb)
{
	struct elf_walk w = { .opts = o, .data = data, .size = size, .eb = eb };
	int have_license = 0;
	int err;

	memset(obj, 0, sizeof(*obj));
	obj->borrowed = o->borrow;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return errbuf_set(eb, -EINVAL, "libelf is too old: %s",
				  elf_errmsg(-1));
	if (!data || size < sizeof(Elf64_Ehdr))
		return errbuf_set(eb, -EINVAL,
				  "BPF object: truncated (%zu bytes, an ELF header alone is %zu)",
				  size, sizeof(Elf64_Ehdr));
	w.elf = elf_memory(data, size);
	if (!w.elf)
		return errbuf_set(eb, -EINVAL, "BPF object: libelf cannot read it: %s",
				  elf_errmsg(-1));
	err = check_header(&w, size);
	if (err)
		goto out;
	err = walk_sections(&w, obj, &have_license);
	if (err)
		goto out;
	if (!have_license) {
		err = errbuf_set(eb, -EINVAL,
				 "BPF object: no license section (the kernel refuses GPL-only helpers without one)");
		goto out;
	}
	if (!obj->nr_progs) {
		err = errbuf_set(eb, -EINVAL, o->keep ?
				 "BPF object: none of its programs is one wanted here" :
				 "BPF object: no kprobe/, kretprobe/, kprobe.multi/, kretprobe.multi/, fentry/, fexit/ or tracepoint/ program sections");
		goto out;
	}
	err = read_maps(&w, obj);
	if (err)
		goto out;
	err = o->no_code ? 0 : read_relocs(&w, obj);
	if (err)
		goto out;
	name_progs(&w, obj);
	obj->foreign = w.swapped;
	if (!o->lines || o->no_code) {
		snprintf(obj->lines_note, sizeof(obj->lines_note),
			 "not read: only the listings print them");
		goto out;
	}
	err = read_lines(&w, obj);
	if (err == -ENOMEM)
		no_memory(eb, "its source lines (.BTF.ext)", "");
out:
	elf_end(w.elf);
	free(w.map_sym_off);
	if (err)
		bpf_obj_free(obj);
	return err;
}

int bpf_obj_parse(const void *data, size_t size, struct bpf_obj *obj,
		  struct errbuf *eb)
{
	static const struct obj_parse_opts all = { .lines = 1 };
	char *copy;
	int err;

	memset(obj, 0, sizeof(*obj));
	if (!data || size < sizeof(Elf64_Ehdr))
		return bpf_obj_parse_in(NULL, size, &all, obj, eb);
	/* libelf may convert data in place: give it a private copy. */
	copy = malloc(size);
	if (!copy)
		return no_memory(eb, "a copy of it for libelf", "");
	memcpy(copy, data, size);
	err = bpf_obj_parse_in(copy, size, &all, obj, eb);
	free(copy);
	return err;
}
