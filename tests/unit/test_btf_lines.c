// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines from .BTF.ext: hand-built sections read exactly, each kind
 * of malformation costing the lines (with its note) and never the object,
 * the lines printed above their instructions as --dump-bpf prints them,
 * and the real object's lines (every program has them, in order).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader/obj/bpf_disasm.h"
#include "loader/obj/btf_lines.h"
#include "loader/obj/elf_obj.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"

/* .BTF's strings: offsets 1 "kprobe/f", 10 "./a.c", 16 "\tif (x)", 24 "return 0;". */
static const char strs[] = "\0kprobe/f\0./a.c\0\tif (x)\0return 0;";
#define S_SEC 1
#define S_FILE 10
#define S_IF 16
#define S_RET 24

struct btf {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	char s[sizeof(strs)];
};

/* The bytes of .BTF, without the struct's padding. */
#define BTF_LEN (offsetof(struct btf, s) + sizeof(strs))

struct ext {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, func_off, func_len, line_off, line_len;
	uint32_t core_off, core_len;	/* clang 14's header is 32 bytes */
	uint32_t rec_size;
	uint32_t sec_name, num;
	uint32_t rec[5][4];		/* insn_off, file, line, line_col */
};

static struct btf btf;
static struct ext ext;

/*
 * 5 records: insn 0 line 3, insn 1 line 3 col 9 (same line), insn 2 line 0
 * (compiler-made code), insn 3 line 3 again, insn 4 line 5.
 */
static void build(void)
{
	const uint32_t recs[5][4] = {
		{ 0, S_FILE, S_IF, 3 << 10 | 2 },
		{ 8, S_FILE, S_IF, 3 << 10 | 9 },
		{ 16, S_FILE, 0, 0 },
		{ 24, S_FILE, S_IF, 3 << 10 | 2 },
		{ 32, S_FILE, S_RET, 5 << 10 | 2 },
	};

	memset(&btf, 0, sizeof(btf));
	btf.magic = 0xeb9f;
	btf.version = 1;
	btf.hdr_len = 24;
	btf.str_len = sizeof(strs);
	memcpy(btf.s, strs, sizeof(strs));
	memset(&ext, 0, sizeof(ext));
	ext.magic = 0xeb9f;
	ext.version = 1;
	ext.hdr_len = 32;
	ext.line_len = 4 + 8 + sizeof(recs);
	ext.rec_size = 16;
	ext.sec_name = S_SEC;
	ext.num = 5;
	memcpy(ext.rec, recs, sizeof(recs));
}

/* An object of one program "kprobe/f", 6 instructions: r0 = 0 ... exit. */
static void make_obj(struct bpf_obj *obj)
{
	struct obj_prog *p = calloc(1, sizeof(*p));

	memset(obj, 0, sizeof(*obj));
	if (!p)
		return;
	p->insns = calloc(6, sizeof(struct bpf_insn));
	if (!p->insns) {
		free(p);
		return;
	}
	p->insn_cnt = 6;
	p->insns[0].code = p->insns[1].code = p->insns[2].code =
		p->insns[3].code = p->insns[4].code = BPF_ALU64 | BPF_MOV | BPF_K;
	p->insns[5].code = BPF_JMP | BPF_EXIT;
	p->fd = -1;
	strcpy(p->section, "kprobe/f");
	strcpy(p->name, "f");
	obj->progs = p;
	obj->nr_progs = 1;
}

/* Attaches btf and ext (as built, then spoiled by the caller) to a fresh object. */
static int attach(struct bpf_obj *obj, const void *b, size_t blen,
		  const void *e, size_t elen)
{
	make_obj(obj);
	if (!obj->nr_progs)
		return -ENOMEM;
	return btf_lines_attach(obj, b, blen, e, elen);
}

static void test_read(void)
{
	struct bpf_obj obj;
	const struct obj_line *l;

	build();
	check_int("attach returns 0", attach(&obj, &btf, BTF_LEN, &ext, sizeof(ext)), 0);
	check_str("no note", obj.lines_note, "");
	if (!check_int("5 lines", (long long)obj.progs[0].nr_lines, 5))
		goto out;
	l = obj.progs[0].lines;
	check_int("line 0: insn", (long long)l[0].insn, 0);
	check_str("line 0: file", l[0].file, "./a.c");
	check_str("line 0: text", l[0].text, "\tif (x)");
	check_int("line 0: line", l[0].line, 3);
	check_int("line 0: col", l[0].col, 2);
	check_int("line 1: col", l[1].col, 9);
	check_int("line 2: line 0", l[2].line, 0);
	check_str("line 2: no text", l[2].text, "");
	check_int("line 4: insn", (long long)l[4].insn, 4);
	check_str("line 4: text", l[4].text, "return 0;");
out:
	bpf_obj_free(&obj);
}

/*
 * --dump-bpf's listing: a line where it changes, and again after code of
 * line 0, as llvm-objdump -S does; "./" dropped, line 0 never printed.
 */
static void test_listing(void)
{
	struct bpf_obj obj;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	build();
	attach(&obj, &btf, BTF_LEN, &ext, sizeof(ext));
	f = open_memstream(&text, &len);
	if (CHECK(f, "open_memstream")) {
		check_int("listing returns 0",
			  bpf_disasm_prog_named(f, &obj, &obj.progs[0], NULL, 0), 0);
		fclose(f);
		check_str("listing", text,
			  "f: section kprobe/f, 6 instructions\n"
			  "; a.c:3: if (x)\n"
			  "   0: r0 = 0\n"
			  "   1: r0 = 0\n"
			  "   2: r0 = 0\n"
			  "; a.c:3: if (x)\n"
			  "   3: r0 = 0\n"
			  "; a.c:5: return 0;\n"
			  "   4: r0 = 0\n"
			  "   5: exit\n");
	}
	free(text);
	bpf_obj_free(&obj);
}

/* Each malformation: attach returns 0, no program has lines, the note says why. */
static void expect_note(const char *name, const void *b, size_t blen,
			const void *e, size_t elen, const char *note)
{
	struct bpf_obj obj;

	check_int(name, attach(&obj, b, blen, e, elen), 0);
	check_str(name, obj.lines_note, note);
	CHECK(obj.nr_progs && !obj.progs[0].lines && !obj.progs[0].nr_lines &&
	      !obj.line_strs, name);
	bpf_obj_free(&obj);
}

static void test_malformed(void)
{
	build();
	expect_note("no .BTF.ext", &btf, BTF_LEN, NULL, 0,
		    "no source lines: the object has no .BTF.ext section (built without clang -g)");
	expect_note("no .BTF", NULL, 0, &ext, sizeof(ext),
		    "no source lines: the object has .BTF.ext but no .BTF for its strings");
	btf.magic = 0x9feb;
	expect_note("BTF of the other byte order", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: the .BTF section is malformed (header or string section)");
	build();
	btf.s[sizeof(strs) - 1] = 'x';
	expect_note("strings not NUL-terminated", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: the .BTF section is malformed (header or string section)");
	build();
	btf.str_len = sizeof(strs) + 1;
	expect_note("strings past the section", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: the .BTF section is malformed (header or string section)");
	build();
	expect_note(".BTF.ext shorter than its header", &btf, BTF_LEN, &ext, 20,
		    "no source lines: the .BTF.ext section is shorter than its header");
	ext.line_len = sizeof(ext);
	expect_note("line_info past the section", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: the .BTF.ext header is malformed");
	build();
	ext.line_len = 0;
	expect_note("no line_info", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: the .BTF.ext section has no line_info");
	build();
	ext.rec_size = 12;
	expect_note("records of 12 bytes", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: its line_info records are shorter than 16 bytes");
	build();
	ext.num = 6;
	expect_note("one record too many", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: a section's line_info records are cut short");
	build();
	ext.line_len = 4 + 4;
	expect_note("a section header cut short", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: a line_info section header is cut short");
	build();
	ext.sec_name = sizeof(strs);
	expect_note("a section name outside the strings", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: a section name outside the string section");
	build();
	ext.rec[4][0] = 6 * 8;
	expect_note("an instruction past the program", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: an instruction offset outside its program");
	build();
	ext.rec[1][0] = 12;
	expect_note("an offset inside an instruction", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: an instruction offset outside its program");
	build();
	ext.rec[1][0] = 0;
	expect_note("two records of one instruction", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: instruction offsets not in increasing order");
	build();
	ext.rec[2][2] = sizeof(strs);
	expect_note("a line text outside the strings", &btf, BTF_LEN, &ext, sizeof(ext),
		    "no source lines: .BTF.ext: a string offset outside the string section");
	build();
	ext.sec_name = S_FILE;	/* "./a.c": no such program, its lines skipped */
	{
		struct bpf_obj obj;

		check_int("lines of another section: 0",
			  attach(&obj, &btf, BTF_LEN, &ext, sizeof(ext)), 0);
		check_str("lines of another section: no note", obj.lines_note, "");
		CHECK(obj.nr_progs && !obj.progs[0].lines, "lines of another section: skipped");
		bpf_obj_free(&obj);
	}
}

/*
 * The embedded object (clang -g): every program has lines from instruction
 * 0, from the BPF sources; a line 0 record (code of no line) has no text.
 */
static void test_real_object(void)
{
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	size_t i, j, bad = 0, lines = 0;

	if (!check_int("real object parses",
		       bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(),
				     &obj, &eb), 0))
		return;
	check_str("real object: no note", obj.lines_note, "");
	for (i = 0; i < obj.nr_progs; i++) {
		const struct obj_prog *p = &obj.progs[i];

		if (!p->nr_lines || p->lines[0].insn != 0)
			bad++;
		for (j = 0; j < p->nr_lines; j++, lines++)
			if ((j && p->lines[j].insn <= p->lines[j - 1].insn) ||
			    strncmp(p->lines[j].file, "./bpf/", 6) ||
			    !p->lines[j].line != !p->lines[j].text[0]) {
				if (!bad++)
					printf("# first bad: %s line %zu: insn %zu %s:%u \"%s\"\n",
					       p->section, j, p->lines[j].insn,
					       p->lines[j].file, p->lines[j].line,
					       p->lines[j].text);
			}
	}
	check_int("real object: every program's lines from instruction 0, in order, in bpf/", (long long)bad, 0);
	CHECK(lines > obj.nr_progs * 10, "real object: more than 10 lines a program");
	bpf_obj_free(&obj);
}

static const struct test_case test_cases[] = {
	TEST_CASE(read),
	TEST_CASE(listing),
	TEST_CASE(malformed),
	TEST_CASE(real_object),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
