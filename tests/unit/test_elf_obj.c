// SPDX-License-Identifier: GPL-2.0
/*
 * ELF parsing of the real embedded object, and of corrupted copies: each
 * corruption gives its own clear error, never a crash.  The big-endian
 * s390 object against its little-endian twin (the same source, clang
 * -target bpfel): the same object once read, on any machine.
 */
#include <errno.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ext4dist_abi.h"
#include "loader/obj/elf_obj.h"
#include "loader/obj/obj_load.h"
#include "loader/util/byteorder.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"
#include "tool/engine/bpf_blob_lines.h"

/*
 * A header field of the object at c, n bytes at off, written in the
 * object's own byte order (EI_DATA).
 */
static void put_field(char *c, size_t off, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t at = c[EI_DATA] == ELFDATA2LSB ? i : n - 1 - i;

		c[off + at] = (char)(v >> (8 * i));
	}
}

static uint64_t get_field(const char *c, size_t off, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		size_t at = c[EI_DATA] == ELFDATA2LSB ? i : n - 1 - i;

		v |= (uint64_t)(unsigned char)c[off + at] << (8 * i);
	}
	return v;
}

/* This build's own object is for 32-bit kernels (arm, mips). */
static int own_object_32bit(void)
{
	return strcmp(bpf_blob_own_arch(), "arm") == 0 ||
	       strcmp(bpf_blob_own_arch(), "mips") == 0;
}

static char *blob_copy(size_t *size)
{
	char *c;

	*size = ext4dist_bpf_obj_size();
	c = malloc(*size);
	if (c)
		memcpy(c, ext4dist_bpf_obj, *size);
	return c;
}

/*
 * The first section of buf that want() takes (given its name, header and
 * arg): its offset, and its size in *sec_size; 0 when none.
 */
static size_t section_where(const char *buf, size_t size,
			    int (*want)(const char *name, const GElf_Shdr *sh,
					const void *arg),
			    const void *arg, size_t *sec_size)
{
	Elf *e = elf_memory((char *)buf, size);
	Elf_Scn *scn = NULL;
	size_t shstrndx, off = 0;
	GElf_Shdr sh;

	elf_getshdrstrndx(e, &shstrndx);
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *n;

		gelf_getshdr(scn, &sh);
		n = elf_strptr(e, shstrndx, sh.sh_name);
		if (n && want(n, &sh, arg)) {
			off = sh.sh_offset;
			*sec_size = sh.sh_size;
			break;
		}
	}
	elf_end(e);
	return off;
}

static int named(const char *name, const GElf_Shdr *sh, const void *prefix)
{
	(void)sh;
	return strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Byte offset in the file of the first section whose name starts so. */
static size_t section_offset(const char *buf, size_t size, const char *prefix,
			     size_t *sec_size)
{
	return section_where(buf, size, named, prefix, sec_size);
}

/* The room's whole pages, [lo, hi), for on_whole_pages(). */
struct pages {
	const unsigned char *room;
	uintptr_t lo, hi;
};

/*
 * A return program whose bytes at room lie on the room's whole pages:
 * its partial pages at the ends are inflated again, never left out
 * (bpf_blob_pick.c's release()).
 */
static int on_whole_pages(const char *name, const GElf_Shdr *sh,
			  const void *arg)
{
	const struct pages *w = arg;
	uintptr_t at = (uintptr_t)w->room + sh->sh_offset;

	return !strncmp(name, "kretprobe/", 10) && sh->sh_size &&
	       at >= w->lo && at + sh->sh_size <= w->hi;
}

/*
 * Facts of the real object the corruption tests need: the length and first
 * instruction of kprobe/read (zeros when it cannot be had,
 * which test_real_object reports).
 */
static void read_prog_facts(size_t *insns, struct bpf_insn *first)
{
	struct bpf_obj obj;
	struct errbuf eb = { "" };
	struct obj_prog *p;

	*insns = 0;
	memset(first, 0, sizeof(*first));
	if (bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj,
			  &eb))
		return;
	p = bpf_obj_find_prog(&obj, PROBE_ENTRY, "read", NULL);
	if (p && p->insn_cnt > 1) {
		*insns = p->insn_cnt;
		*first = p->insns[0];
	}
	bpf_obj_free(&obj);
}

static void test_real_object(void)
{
	struct bpf_obj obj;
	struct errbuf eb = { "" };
	struct obj_prog *p;
	struct obj_map *m;
	int err;

	err = bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj,
			    &eb);
	if (!check_int("real object parses", err, 0)) {
		printf("  error: %s\n", eb.msg);
		return;
	}
	check_str("license", obj.license, "GPL");
	check_int("version placeholder", obj.version, 0);
	/*
	 * 5 ops + generic read, entry and return each, + the kprobe_multi
	 * entry and return by cookie and by address (ip), each with its
	 * atomic twin, + f_op scan; the slow mode's twins of all but
	 * getattr's (28), + its name discovery's peek; fentry and fexit of
	 * the same 6 functions, with slow mode's twins but getattr's (22):
	 * not in the objects for 32-bit kernels, which make no trampolines;
	 * the 2 fsync tracepoints'; the 9 lessons, broken on purpose.
	 */
	check_int("program count", (long long)obj.nr_progs,
		  own_object_32bit() ? 95 - 22 : 95);
	/*
	 * start, calls, hist, ctl, open_scan; events, slow_start,
	 * slow_stats, peek; lesson_hash
	 */
	check_int("map count", (long long)obj.nr_maps, 10);
	m = bpf_obj_find_map(&obj, "hist");
	CHECK(m, "hist map found");
	if (m) {
		check_int("hist type", m->def.type, BPF_MAP_TYPE_PERCPU_ARRAY);
		check_int("hist value size", m->def.value_size,
			  sizeof(struct op_hist));
		/* one buffer per operation and epoch parity */
		check_int("hist entries", m->def.max_entries, 2 * NR_OPS);
	}
	m = bpf_obj_find_map(&obj, "calls");
	CHECK(m && m->def.type == BPF_MAP_TYPE_ARRAY &&
	      m->def.value_size == sizeof(struct calls_row) &&
	      sizeof(struct calls_row) == 128 && m->def.max_entries == 1,
	      "calls map: one plain array value, a 128-byte row of struct op_calls per operation (one CPU's until the loader sizes it)");
	m = bpf_obj_find_map(&obj, "ctl");
	CHECK(m && m->def.type == BPF_MAP_TYPE_ARRAY &&
	      m->def.value_size == sizeof(struct ctl) && m->def.max_entries == 1,
	      "ctl map: one struct ctl");
	m = bpf_obj_find_map(&obj, "start");
	CHECK(m && m->def.type == BPF_MAP_TYPE_ARRAY && m->def.key_size == 4 &&
	      m->def.value_size == START_SLOTS_MAX * sizeof(struct start_slot) &&
	      m->def.max_entries == 1,
	      "start map: one value of START_SLOTS_MAX struct start_slot");
	p = bpf_obj_find_prog(&obj, PROBE_ENTRY, "read", NULL);
	CHECK(p && p->insn_cnt > 1, "kprobe/read found");
	p = bpf_obj_find_prog(&obj, PROBE_RETURN, "fsync", NULL);
	CHECK(p, "kretprobe/fsync found");
	if (p) {
		check_str("return prog name", p->name, "return_fsync");
		/* start lookup, ctl lookup, hist lookup. */
		check_int("return prog relocations", (long long)p->nr_relocs, 3);
	}
	p = bpf_obj_find_prog(&obj, PROBE_ENTRY, "dir_release",
			      "scan_release");
	CHECK(p && strcmp(p->target, "dir_release") == 0,
	      "variant kprobe/dir_release/scan_release found");
	p = bpf_obj_find_prog(&obj, PROBE_ENTRY, "open", NULL);
	CHECK(p && strcmp(p->name, "entry_open") == 0,
	      "plain kprobe/open is not the variant");
	/* "tracepoint/<group>/<event>": neither a kprobe nor a return. */
	p = bpf_obj_find_tracepoint(&obj, "fsync", "exit");
	CHECK(p && p->tracepoint && p->kind == PROBE_ENTRY && !p->tracing &&
	      !strcmp(p->name, "tp_fsync_exit"),
	      "tracepoint/fsync/exit: target fsync, event exit");
	CHECK(!bpf_obj_find_prog(&obj, PROBE_ENTRY, "fsync", "exit") &&
	      !bpf_obj_find_prog(&obj, PROBE_RETURN, "fsync", "exit"),
	      "a tracepoint is no kprobe's variant");
	CHECK(!bpf_obj_find_tracepoint(&obj, "fsync", "sync_fs"),
	      "no program for another tracepoint");
	/* Its load of "ret" carries the placeholder offset, once. */
	check_int("the tracepoint's placeholder offset",
		  bpf_obj_patch_off16(&obj, PATCH_OFF_TP_RET, 24), 1);
	check_int("patched: no placeholder offset left",
		  bpf_obj_patch_off16(&obj, PATCH_OFF_TP_RET, 24), 0);
	CHECK(!bpf_obj_find_prog(&obj, PROBE_ENTRY, "vfs_read", NULL),
	      "no program for an unknown target");
	p = bpf_obj_find_multi(&obj, PROBE_RETURN, "every_op", NULL);
	CHECK(p && p->multi && strcmp(p->section, "kretprobe.multi/every_op") == 0,
	      "kretprobe.multi/every_op found as a multi program");
	p = bpf_obj_find_multi(&obj, PROBE_RETURN, "every_op", "ip");
	CHECK(p && p->multi && strcmp(p->section, "kretprobe.multi/every_op/ip") == 0,
	      "kretprobe.multi/every_op/ip found as the ip variant");
	/* The loader asks with programs of its own. */
	CHECK(!bpf_obj_find_multi(&obj, PROBE_ENTRY, "probe", NULL),
	      "no kprobe.multi/probe program in the object");
	CHECK(!bpf_obj_find_prog(&obj, PROBE_RETURN, "every_op", NULL),
	      "a multi program is not a plain one");
	bpf_obj_free(&obj);
}

static void expect_error(const char *name, const char *buf, size_t size,
			 const char *want)
{
	struct bpf_obj obj;
	struct errbuf eb = { "" };
	int err = bpf_obj_parse(buf, size, &obj, &eb);

	check_int(name, err, -EINVAL);
	check_str(name, eb.msg, want);
}

/*
 * Several patches of different kinds in one pass: each instruction of
 * its kind holding its placeholder, none of another kind, never the
 * second half of an ld_imm64, and one patch to an instruction.
 */
static void test_patch_list(void)
{
	struct bpf_insn in[] = {
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .off = 0x7fc0 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .off = 0x7fc8 },
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .off = 0x7fc0 },
		{ .code = BPF_ALU64 | BPF_AND | BPF_K, .imm = 0x7e570009 },
		{ .code = BPF_ALU64 | BPF_MUL | BPF_K, .imm = 0x7e570009 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .imm = 1 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .off = 0x7fc0 },
		{ .code = BPF_ALU64 | BPF_AND | BPF_X, .imm = 0x7e570009 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .off = 0x7fc0 },
	};
	const struct bpf_insn_patch w[] = {
		{ INSN_PATCH_DW_OFF, 0, 0x7fc0, 8 },
		{ INSN_PATCH_DW_OFF, 0, 0x7fc8, 16 },
		{ INSN_PATCH_ALU64_IMM, BPF_AND, 0x7e570009, 4095 },
		/* Would match the first one's result: never asked of it. */
		{ INSN_PATCH_DW_OFF, 0, 8, 24 },
	};
	struct obj_prog prog = { .insns = in, .insn_cnt = 9 };
	struct bpf_obj obj = { .progs = &prog, .nr_progs = 1 };

	check_int("patched in one pass", bpf_obj_patch_list(&obj, w, 4), 4);
	check_int("a load's offset", in[0].off, 8);
	check_int("a store's offset", in[1].off, 16);
	check_int("a 32-bit load: not that kind", in[2].off, 0x7fc0);
	check_int("an AND's immediate", in[3].imm, 4095);
	check_int("a MUL: not that op", in[4].imm, 0x7e570009);
	check_int("an ld_imm64's second half: no instruction", in[6].off, 0x7fc0);
	check_int("an AND of a register: not that kind", in[7].imm, 0x7e570009);
	check_int("the last load's offset", in[8].off, 8);
	check_int("nothing left to patch", bpf_obj_patch_list(&obj, w, 3), 0);
}

static void test_corrupted(void)
{
	size_t size, off, sec_size = 0, read_insns;
	char *c = blob_copy(&size);
	struct bpf_insn first_insn;
	char *hit;

	if (!c)
		return;
	read_prog_facts(&read_insns, &first_insn);
	expect_error("truncated to 40 bytes", c, 40,
		     "BPF object: truncated (40 bytes, an ELF header alone is 64)");
	{
		/* The object changes with the BPF source: take its header's word. */
		size_t shoff = (size_t)get_field(c, 0x28, 8);
		size_t shnum = (size_t)get_field(c, 0x3c, 2);
		char want[128];

		snprintf(want, sizeof(want),
			 "BPF object: truncated: section headers end at byte %zu, the file has 1000",
			 shoff + shnum * 64);
		CHECK(shoff + shnum * 64 == size,
		      "section headers end the file");
		expect_error("truncated to 1000 bytes", c, 1000, want);
	}
	{
		char text[64];

		memset(text, 'x', sizeof(text));
		expect_error("not ELF", text, sizeof(text),
			     "BPF object: not an ELF file");
	}

	put_field(c, 18, EM_X86_64, 2);	/* e_machine */
	expect_error("wrong machine", c, size,
		     "BPF object: wrong machine 62 (expected EM_BPF, 247)");
	memcpy(c, ext4dist_bpf_obj, size);

	put_field(c, 16, ET_EXEC, 2);	/* e_type */
	expect_error("not relocatable", c, size,
		     "BPF object: not a relocatable object (e_type 2)");
	memcpy(c, ext4dist_bpf_obj, size);

	/* The first relocation of the first program, pushed past its end. */
	off = section_offset(c, size, ".relkprobe/read", &sec_size);
	if (CHECK(off && sec_size >= 16, "found a relocation section") &&
	    CHECK(first_insn.code && first_insn.code != (BPF_LD | BPF_IMM | BPF_DW),
		  "the program does not start with a 64-bit load")) {
		unsigned long long bad = 8 * 1000;
		char want[200];

		put_field(c, off, bad, 8);	/* r_offset */
		snprintf(want, sizeof(want),
			 "BPF object: kprobe/read: relocation offset 8000 is outside the program (%zu instructions)",
			 read_insns);
		expect_error("bad reloc offset", c, size, want);
		bad = 0;	/* inside, but not an ld_imm64 */
		put_field(c, off, bad, 8);
		snprintf(want, sizeof(want),
			 "BPF object: kprobe/read: relocation at instruction 0 does not point at a 64-bit load (code 0x%02x)",
			 first_insn.code);
		expect_error("reloc on a non-ld_imm64", c, size, want);
		bad = 8 * 1 + 3;
		put_field(c, off, bad, 8);
		snprintf(want, sizeof(want),
			 "BPF object: kprobe/read: relocation offset 11 is outside the program (%zu instructions)",
			 read_insns);
		expect_error("misaligned reloc offset", c, size, want);
	}
	memcpy(c, ext4dist_bpf_obj, size);

	/*
	 * Rename the section "license" so the object has none (its name may
	 * share bytes with the symbol "_license", and .BTF's strings name it
	 * too, for clang -g's data section record: renaming all is fine).
	 */
	hit = memmem(c, size, "license\0", 8);
	if (CHECK(hit, "found the license section name")) {
		char *more = hit;

		do
			more[0] = 'X';
		while ((more = memmem(more, size - (size_t)(more - c),
				      "license\0", 8)) != NULL);
		expect_error("missing license", c, size,
			     "BPF object: no license section (the kernel refuses GPL-only helpers without one)");
	}
	memcpy(c, ext4dist_bpf_obj, size);

	/* A section header table offset past the end of the file. */
	{
		unsigned long long shoff = size * 4;
		char want[128];

		put_field(c, 0x28, shoff, 8);	/* e_shoff */
		snprintf(want, sizeof(want),
			 "BPF object: truncated: section headers end at byte %zu, the file has %zu",
			 (size_t)shoff + (size_t)get_field(c, 0x3c, 2) * 64, size);
		expect_error("section headers past the end", c, size, want);
	}
	free(c);
}

/* Every truncation point and every single-byte flip: no crash, any result. */
static void test_no_crash_sweep(void)
{
	size_t size, i, ok = 0, failed = 0;
	char *c = blob_copy(&size);

	if (!c)
		return;
	for (i = 0; i < size; i += 7) {
		struct bpf_obj obj;
		struct errbuf eb;

		if (bpf_obj_parse(c, i, &obj, &eb) == 0) {
			ok++;
			bpf_obj_free(&obj);
		} else {
			failed++;
		}
	}
	for (i = 0; i < size; i += 3) {
		struct bpf_obj obj;
		struct errbuf eb;

		c[i] ^= 0x5a;
		if (bpf_obj_parse(c, size, &obj, &eb) == 0)
			bpf_obj_free(&obj);
		c[i] ^= 0x5a;
	}
	check_int("every truncation short of the whole file fails", (long long)ok, 0);
	CHECK(failed > 0, "truncation sweep ran");
	free(c);
}

static void same_lines(const char *what, const struct obj_prog *a,
		       const struct obj_prog *b)
{
	size_t i;
	int same = a->nr_lines == b->nr_lines;

	for (i = 0; same && i < a->nr_lines; i++)
		same = a->lines[i].insn == b->lines[i].insn &&
		       a->lines[i].line == b->lines[i].line &&
		       a->lines[i].col == b->lines[i].col &&
		       strcmp(a->lines[i].file, b->lines[i].file) == 0 &&
		       strcmp(a->lines[i].text, b->lines[i].text) == 0;
	CHECK(same, what);
}

/*
 * The two objects read: the same maps, programs, instructions,
 * relocations and source lines.
 */
static void same_object(const struct bpf_obj *be, const struct bpf_obj *le)
{
	size_t i, same_maps = 0, same_progs = 0;
	char what[200];

	check_str("license", be->license, le->license);
	check_int("version", be->version, le->version);
	if (!check_int("maps", (long long)be->nr_maps, (long long)le->nr_maps) ||
	    !check_int("programs", (long long)be->nr_progs,
		       (long long)le->nr_progs))
		return;
	for (i = 0; i < be->nr_maps; i++)
		same_maps += strcmp(be->maps[i].name, le->maps[i].name) == 0 &&
			     memcmp(&be->maps[i].def, &le->maps[i].def,
				    sizeof(be->maps[i].def)) == 0;
	check_int("every map the same, its definition in this machine's order",
		  (long long)same_maps, (long long)be->nr_maps);
	for (i = 0; i < be->nr_progs; i++) {
		const struct obj_prog *a = &be->progs[i], *b = &le->progs[i];

		snprintf(what, sizeof(what), "%s: its instructions", a->section);
		if (!CHECK(strcmp(a->section, b->section) == 0 &&
			   strcmp(a->name, b->name) == 0 && a->kind == b->kind &&
			   a->insn_cnt == b->insn_cnt && a->nr_relocs == b->nr_relocs,
			   "the same program, as long, as many relocations"))
			continue;
		if (!check_mem(what, a->insns, a->insn_cnt * sizeof(*a->insns),
			       b->insns, b->insn_cnt * sizeof(*b->insns)))
			continue;
		if (a->nr_relocs &&
		    memcmp(a->relocs, b->relocs, a->nr_relocs * sizeof(*a->relocs)))
			continue;
		snprintf(what, sizeof(what), "%s: its source lines", a->section);
		if (a->nr_lines == b->nr_lines && a->nr_lines)
			same_progs++;
		same_lines(what, a, b);
	}
	check_int("every program the same, with its relocations and lines",
		  (long long)same_progs, (long long)be->nr_progs);
}

static void test_other_byte_order(void)
{
	size_t blen = 0, llen = 0;
	char *bdata = test_read_file(TEST_SRCDIR "/bpf/prebuilt/ext4dist-s390.bpf.o",
				     &blen);
	unsigned char *ldata = test_read_gz(TEST_FIXTURES "ext4dist-s390-bpfel.bpf.o.gz",
					    &llen);
	struct obj_load_opts o = { 0 };
	struct obj_load_state st = { 0 };
	struct errbuf eb = { "" };
	struct bpf_obj be, le;
	char want[160];

	if (!CHECK(bdata && ldata, "the s390 object and its little-endian twin"))
		goto out;
	check_int("the s390 object is big-endian (EI_DATA)",
		  bdata[EI_DATA], ELFDATA2MSB);
	check_int("its twin little-endian", ldata[EI_DATA], ELFDATA2LSB);
	if (!check_int("s390 object parses", bpf_obj_parse(bdata, blen, &be, &eb), 0)) {
		printf("  %s\n", eb.msg);
		goto out;
	}
	if (check_int("its twin parses", bpf_obj_parse(ldata, llen, &le, &eb), 0)) {
		check_int("s390 object: foreign here", be.foreign, HOST_LITTLE_ENDIAN);
		check_int("twin: foreign here", le.foreign, !HOST_LITTLE_ENDIAN);
		check_str("s390 object: its lines", be.lines_note, "");
		same_object(&be, &le);
		/* Never to a kernel: the refusal comes before any map. */
		snprintf(want, sizeof(want),
			 "the BPF object is %s-endian and this kernel %s-endian: it cannot be loaded here",
			 HOST_LITTLE_ENDIAN ? "big" : "little",
			 HOST_LITTLE_ENDIAN ? "little" : "big");
		check_int("the foreign one is not loaded",
			  bpf_obj_create_maps(HOST_LITTLE_ENDIAN ? &be : &le, &o,
					      &st, &eb), -ENOEXEC);
		check_str("the foreign one is not loaded: why", eb.msg, want);
		check_int("no map was created",
			  (HOST_LITTLE_ENDIAN ? be : le).maps[0].fd, -1);
		bpf_obj_free(&le);
	}
	bpf_obj_free(&be);
out:
	free(bdata);
	free(ldata);
}

/* The object inflated whole again: copy's size bytes. */
static void check_whole_again(const char *copy, size_t size)
{
	check_int("inflated whole again", (long long)ext4dist_bpf_obj_size(),
		  (long long)size);
	check_int("the same bytes", memcmp(ext4dist_bpf_obj, copy, size), 0);
}

/* Keeps the kprobe/ and kretprobe/ programs; counts the sections asked about. */
/*
 * The objects for 32-bit kernels carry no fentry/fexit programs: those
 * kernels have no BPF trampolines (bpf/ext4dist.bpf.c).
 */
static int own_trampolines(void)
{
	const char *arch = bpf_blob_own_arch();

	return strcmp(arch, "arm") && strcmp(arch, "mips");
}

static int plain_kprobes(const char *section, void *arg)
{
	(*(int *)arg)++;
	return !strncmp(section, "kprobe/", 7) || !strncmp(section, "kretprobe/", 10);
}

/*
 * A run's parse: in place on the object inflated without its source
 * lines (their bytes never written: zero in a fresh room), only the
 * programs asked for kept, each with the same instructions as a whole
 * parse gives, no lines; the whole object then inflated again as it was.
 */
static int asked;

static void test_run_parse(void)
{
	const struct obj_parse_opts opts = { .keep = plain_kprobes,
					     .arg = &asked };
	struct bpf_obj whole, run;
	struct errbuf eb = { "" };
	struct bpf_blob blob;
	size_t i, btf_off, btf_len = 0, ext_off, ext_len = 0, zero = 0;
	size_t prog_off, prog_len = 0;
	char *copy;
	size_t size;
	int err;

	copy = blob_copy(&size);
	if (!CHECK(copy, "a copy of the whole object"))
		return;
	btf_off = section_offset(copy, size, ".BTF", &btf_len);
	ext_off = section_offset(copy, size, ".BTF.ext", &ext_len);
	if (bpf_obj_parse(copy, size, &whole, &eb)) {
		CHECK(0, "the whole object parses");
		free(copy);
		return;
	}
	/* Given back: the room's whole pages read as zero again. */
	if (!check_int("inflated whole", bpf_blob_for(bpf_blob_own_arch(), &blob), 0))
		goto out;
	bpf_blob_release(&blob);
	if (!check_int("inflated for a run",
		       bpf_blob_for_run(bpf_blob_own_arch(), plain_kprobes,
					&asked, &blob), 0))
		goto out;
	check_int("its size", (long long)blob.size, (long long)size);
	/*
	 * After .BTF.ext (the section headers, symbols, relocations) and
	 * the programs kept are the object's; the programs refused, .BTF
	 * and .BTF.ext were never written.
	 */
	check_int("after .BTF.ext",
		  memcmp(blob.data + ext_off + ext_len, copy + ext_off + ext_len,
			 size - ext_off - ext_len), 0);
	prog_off = section_offset(copy, size, "kprobe/open", &prog_len);
	check_int("a program kept: its bytes",
		  prog_len && !memcmp(blob.data + prog_off, copy + prog_off, prog_len), 1);
	prog_off = section_offset(copy, size, "kprobe.multi/every_op",
				  &prog_len);
	for (i = 0; i < prog_len; i++)
		zero += !blob.data[prog_off + i];
	check_int("a program refused: never written", prog_len && zero == prog_len, 1);
	zero = 0;
	for (i = btf_off; i < ext_off + ext_len; i++)
		zero += !blob.data[i];
	check_int(".BTF and .BTF.ext never written",
		  (long long)zero, (long long)(ext_off + ext_len - btf_off));
	zero = 0;
	asked = 0;
	err = bpf_obj_parse_in(blob.data, blob.size, &opts, &run, &eb);
	if (!check_int("parsed in place", err, 0)) {
		printf("  error: %s\n", eb.msg);
		goto out;
	}
	/* 22 of them fentry/fexit, which 32-bit kernels cannot run. */
	check_int("every program section asked about", asked,
		  own_trampolines() ? 95 : 73);
	check_int("only the kprobe/ and kretprobe/ programs kept", (long long)run.nr_progs, 55);
	check_str("no lines", run.lines_note, "not read: only the listings print them");
	for (i = 0; i < run.nr_progs; i++) {
		const struct obj_prog *p = &run.progs[i];
		const struct obj_prog *q = bpf_obj_find_prog(&whole, p->kind,
							    p->target,
							    p->variant);

		if (!q || q->insn_cnt != p->insn_cnt || p->lines ||
		    memcmp(q->insns, p->insns, p->insn_cnt * sizeof(*p->insns)) ||
		    q->nr_relocs != p->nr_relocs)
			CHECK(0, p->section);
		else
			zero++;
	}
	check_int("each kept program as the whole parse has it",
		  (long long)zero, (long long)run.nr_progs);
	bpf_obj_free(&run);
	bpf_blob_release(&blob);
	check_int("released: no data", blob.data == NULL, 1);
	/* The whole object again, lines and all, after a run's inflate. */
	check_whole_again(copy, size);
out:
	bpf_obj_free(&whole);
	free(copy);
}

/*
 * The embedded object inflated for the dumps: with one program's code
 * and source lines alone (.BTF.ext's other blocks never written, their
 * pages untouched), or with no program's code (a parse of the names
 * alone, no_code); and the walk of .BTF.ext that finds the blocks,
 * whatever the chunks the bytes come in, and giving up (every byte
 * written) on a .BTF.ext it does not read.
 */
static int only(const char *section, void *arg)
{
	return !strcmp(section, arg);
}

static int none(const char *section, void *arg)
{
	(void)section;
	(void)arg;
	return 0;
}

static const struct obj_prog *prog_named(const struct bpf_obj *o,
					 const char *section)
{
	size_t i;

	for (i = 0; i < o->nr_progs; i++)
		if (!strcmp(o->progs[i].section, section))
			return &o->progs[i];
	return NULL;
}

/*
 * One program with its lines: .BTF whole, of .BTF.ext only what a
 * listing of it reads (each byte the object's or zero, a few hundred of
 * them), its lines those of a whole parse, line for line.
 */
static void test_one_with_lines(void)
{
	static const struct obj_parse_opts whole_opts = { .lines = 1 };
	struct obj_parse_opts one = { .lines = 1, .borrow = 1, .keep = only,
				      .arg = (void *)"kretprobe/read" };
	struct bpf_obj whole, got;
	struct errbuf eb = { "" };
	struct bpf_blob blob;
	const struct obj_prog *p, *q;
	size_t size, btf_off, btf_len, ext_off, ext_len, i;
	size_t written = 0, theirs = 0, other = 0, same = 0;
	char *copy = blob_copy(&size);

	if (!CHECK(copy, "a copy of the whole object"))
		return;
	btf_off = section_offset(copy, size, ".BTF", &btf_len);
	ext_off = section_offset(copy, size, ".BTF.ext", &ext_len);
	if (!CHECK(btf_len && ext_len, "the object has .BTF and .BTF.ext") ||
	    !check_int("parsed whole",
		       bpf_obj_parse_in(copy, size, &whole_opts, &whole, &eb), 0)) {
		free(copy);
		return;
	}
	memcpy(copy, ext4dist_bpf_obj, size);
	/* The room as a fresh run finds it: nothing written. */
	if (!check_int("inflated whole", bpf_blob_for(bpf_blob_own_arch(),
						      &blob), 0))
		goto out;
	bpf_blob_release(&blob);
	if (!check_int("inflated with one program and its lines",
		       bpf_blob_running(1, only, one.arg, &blob, &eb), 0))
		goto out;
	check_int(".BTF written whole",
		  memcmp(blob.data + btf_off, copy + btf_off, btf_len), 0);
	for (i = ext_off; i < ext_off + ext_len; i++) {
		written += blob.data[i] != 0;
		theirs += copy[i] != 0;
		other += blob.data[i] && blob.data[i] != copy[i];
	}
	check_int("of .BTF.ext, only the object's bytes", (long long)other, 0);
	printf("# %zu of the %zu non-zero bytes of .BTF.ext written\n", written,
	       theirs);
	/* Non-zero bytes of .BTF.ext: x86's 71,635, mips' 59,113 (no fentry). */
	check_int("of .BTF.ext, under 4 KiB written",
		  written > 0 && written < 4096 && theirs > 49152, 1);
	if (!check_int("parsed in place",
		       bpf_obj_parse_in(blob.data, blob.size, &one, &got, &eb), 0)) {
		printf("  error: %s\n", eb.msg);
		bpf_blob_release(&blob);
		goto out;
	}
	check_int("one program", (long long)got.nr_progs, 1);
	check_str("with lines", got.lines_note, "");
	p = &got.progs[0];
	q = prog_named(&whole, "kretprobe/read");
	if (CHECK(q && q->nr_lines > 10, "the whole parse has its lines") &&
	    check_int("as many lines", (long long)p->nr_lines,
		      (long long)q->nr_lines)) {
		for (i = 0; i < p->nr_lines; i++)
			same += p->lines[i].insn == q->lines[i].insn &&
				p->lines[i].line == q->lines[i].line &&
				p->lines[i].col == q->lines[i].col &&
				!strcmp(p->lines[i].text, q->lines[i].text) &&
				!strcmp(p->lines[i].file, q->lines[i].file);
		check_int("the same lines", (long long)same,
			  (long long)p->nr_lines);
	}
	bpf_obj_free(&got);
	bpf_blob_release(&blob);
	/* Given back, then whole again: the same bytes as before. */
	check_whole_again(copy, size);
out:
	bpf_obj_free(&whole);
	free(copy);
}

/* Names alone: no program's code inflated nor read, every program named. */
static void test_names_alone(void)
{
	static const struct obj_parse_opts names = { .no_code = 1 };
	static const struct obj_parse_opts all = { .borrow = 1 };
	struct bpf_obj whole, got;
	struct errbuf eb = { "" };
	struct bpf_blob blob;
	size_t size, i, off, len, ok = 0, zero = 0;
	char *copy = blob_copy(&size);
	struct pages w;
	uintptr_t page;

	if (!CHECK(copy, "a copy of the whole object"))
		return;
	if (!check_int("parsed whole", bpf_obj_parse_in(copy, size, &all,
							&whole, &eb), 0)) {
		free(copy);
		return;
	}
	/* The room as a fresh run finds it: nothing written. */
	if (!check_int("inflated whole", bpf_blob_for(bpf_blob_own_arch(),
						      &blob), 0))
		goto out;
	bpf_blob_release(&blob);
	if (!check_int("inflated without code",
		       bpf_blob_running(0, none, NULL, &blob, &eb), 0))
		goto out;
	page = (uintptr_t)sysconf(_SC_PAGESIZE);
	w.room = (const unsigned char *)blob.data;
	w.lo = ((uintptr_t)w.room + page - 1) & ~(page - 1);
	w.hi = ((uintptr_t)w.room + size) & ~(page - 1);
	len = 0;
	off = section_where(copy, size, on_whole_pages, &w, &len);
	for (i = 0; i < len; i++)
		zero += !blob.data[off + i];
	check_int("a program's bytes never written",
		  len && zero == len && memcmp(copy + off, blob.data + off, len), 1);
	if (!check_int("parsed without code",
		       bpf_obj_parse_in(blob.data, blob.size, &names, &got, &eb),
		       0)) {
		printf("  error: %s\n", eb.msg);
		bpf_blob_release(&blob);
		goto out;
	}
	check_int("every program", (long long)got.nr_progs,
		  (long long)whole.nr_progs);
	check_int("every map", (long long)got.nr_maps, (long long)whole.nr_maps);
	for (i = 0; i < got.nr_progs && i < whole.nr_progs; i++)
		ok += !got.progs[i].insns && !got.progs[i].nr_relocs &&
		      got.progs[i].insn_cnt == whole.progs[i].insn_cnt &&
		      !strcmp(got.progs[i].section, whole.progs[i].section) &&
		      !strcmp(got.progs[i].name, whole.progs[i].name) &&
		      got.progs[i].kind == whole.progs[i].kind;
	check_int("each named, its length, no code", (long long)ok,
		  (long long)whole.nr_progs);
	bpf_obj_free(&got);
	bpf_blob_release(&blob);
out:
	bpf_obj_free(&whole);
	free(copy);
}

/* The embedded object is in this machine's byte order. */
static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* The walk of member [0, len) fed chunk bytes at a time. */
static int walk(const unsigned char *m, size_t len, size_t ext,
		size_t ext_len, size_t chunk, struct ranges *rg)
{
	struct ext_walk w;
	size_t pos;

	ext_walk_init(&w, m, len, ext, ext_len, only, (void *)"kprobe/open",
		      rg);
	for (pos = 0; pos < len; pos += chunk)
		ext_walk_seen(&w, pos, m + pos, pos + chunk > len ? len - pos :
			      chunk);
	return ext_walk_done(&w);
}

/*
 * The lines' member of the real object walked in chunks of 1, 7 and
 * 4096 bytes: the same ranges each time, .BTF to the record size first,
 * then the one block kept; a record size not a multiple of 8 (zeroed
 * blocks would not fall on block headers) or a block running past
 * line_info: given up, everything written.
 */
static void test_walk(void)
{
	static struct ranges a, b, c;
	size_t size, btf_off, btf_len, ext_off, ext_len, len, li;
	unsigned char *m;
	char *copy = blob_copy(&size);

	if (!CHECK(copy, "a copy of the whole object"))
		return;
	btf_off = section_offset(copy, size, ".BTF", &btf_len);
	ext_off = section_offset(copy, size, ".BTF.ext", &ext_len);
	m = (unsigned char *)copy + btf_off;
	len = ext_off + ext_len - btf_off;
	if (!check_int("walked by the byte", walk(m, len, ext_off - btf_off,
						  ext_len, 1, &a), 0))
		goto out;
	check_int("walked by 7", walk(m, len, ext_off - btf_off, ext_len, 7, &b), 0);
	check_int("walked by 4096",
		  walk(m, len, ext_off - btf_off, ext_len, 4096, &c), 0);
	check_int("two ranges", (long long)a.n, 2);
	check_int("the same ranges whatever the chunks",
		  !memcmp(&a, &b, sizeof(a)) && !memcmp(&a, &c, sizeof(a)), 1);
	/* hdr_len + line_info_off, then the record size. */
	li = ext_off - btf_off + get32(m + ext_off - btf_off + 4) +
	     get32(m + ext_off - btf_off + 16);
	check_int(".BTF to the record size", a.start[0] == 0 &&
		  a.end[0] == li + 4, 1);
	/* .BTF's strings: hdr_len + str_off; the block's name first. */
	if (a.n == 2)
		check_str("the block kept: kprobe/open's",
			  (const char *)m + get32(m + 4) + get32(m + 16) +
			  get32(m + a.start[1]), "kprobe/open");
	check_int("its header and records",
		  a.n == 2 && a.end[1] > a.start[1] + 8 &&
		  (a.end[1] - a.start[1] - 8) % get32(m + li) == 0, 1);
	put32(m + li, 20);
	check_int("records of 20 bytes: given up",
		  walk(m, len, ext_off - btf_off, ext_len, 4096, &a), -1);
	check_int("everything written", (long long)a.n, 0);
	put32(m + li, 16);
	put32(m + li + 8, 0x7fffffff);
	check_int("a block past line_info: given up",
		  walk(m, len, ext_off - btf_off, ext_len, 4096, &a), -1);
out:
	free(copy);
}

static const struct test_case test_cases[] = {
	TEST_CASE(real_object),
	TEST_CASE(run_parse),
	TEST_CASE(corrupted),
	TEST_CASE(other_byte_order),
	TEST_CASE(no_crash_sweep),
	TEST_CASE(one_with_lines),
	TEST_CASE(names_alone),
	TEST_CASE(walk),
	TEST_CASE(patch_list),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	elf_version(EV_CURRENT);
	return test_main(argc, argv, test_cases);
}
