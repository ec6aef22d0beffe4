// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines from .BTF.ext, in the order the sections are laid out:
 * the .BTF header, its string section; the .BTF.ext header, its
 * line_info block (a record size, then per program section its name and
 * records of insn_off, file_name_off, line_off, line_col).  Every offset
 * is checked against the bytes that are there: a malformed section costs
 * the lines, never the object.  Each section is read in the byte order
 * its magic says (a big-endian object's, bpfeb, read anywhere).
 */
#include "loader/obj/btf_lines.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "loader/obj/elf_obj.h"
#include "loader/util/byteorder.h"

/* struct bpf_line_info: the first 16 bytes of each record. */
struct line_rec {
	uint32_t insn_off;		/* in bytes from the section's start */
	uint32_t file_name_off;
	uint32_t line_off;
	uint32_t line_col;		/* line << 10 | column */
};

/* read_records' answer when calloc fails: -ENOMEM, not a note. */
static const char out_of_memory[] = "out of memory";

struct lines_read {
	struct bpf_obj *obj;
	const char *strs;		/* obj->line_strs */
	uint32_t str_len;
	int swapped;			/* .BTF.ext in the other byte order */
};

static void drop_lines(struct bpf_obj *obj)
{
	size_t i;

	for (i = 0; i < obj->nr_progs; i++) {
		free(obj->progs[i].lines);
		obj->progs[i].lines = NULL;
		obj->progs[i].nr_lines = 0;
	}
	free(obj->line_strs);
	obj->line_strs = NULL;
}

/* No lines, with the reason; returns 0 (the object is fine without). */
static int no_lines(struct bpf_obj *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int no_lines(struct bpf_obj *obj, const char *fmt, ...)
{
	va_list ap;

	drop_lines(obj);
	va_start(ap, fmt);
	vsnprintf(obj->lines_note, sizeof(obj->lines_note), fmt, ap);
	va_end(ap);
	return 0;
}

/* The .BTF string section, copied into obj->line_strs; 1 if malformed. */
static int read_strings(struct bpf_obj *obj, const unsigned char *btf,
			size_t len, uint32_t *str_len)
{
	struct btf_header h;

	if (len < sizeof(h))
		return 1;
	memcpy(&h, btf, sizeof(h));
	if (h.magic == bo16(BTF_MAGIC, 1)) {
		h.magic = BTF_MAGIC;
		h.hdr_len = bo32(h.hdr_len, 1);
		h.str_off = bo32(h.str_off, 1);
		h.str_len = bo32(h.str_len, 1);
	}
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) || h.hdr_len > len ||
	    !h.str_len ||
	    (uint64_t)h.str_off + h.str_len > len - h.hdr_len ||
	    btf[h.hdr_len + h.str_off + h.str_len - 1] != '\0')
		return 1;
	obj->line_strs = malloc(h.str_len);
	if (!obj->line_strs)
		return -ENOMEM;
	memcpy(obj->line_strs, btf + h.hdr_len + h.str_off, h.str_len);
	*str_len = h.str_len;
	return 0;
}

static struct obj_prog *prog_of_section(struct bpf_obj *obj, const char *sec)
{
	size_t i;

	for (i = 0; i < obj->nr_progs; i++)
		if (strcmp(obj->progs[i].section, sec) == 0)
			return &obj->progs[i];
	return NULL;
}

/* One section's n records of rec_size bytes at p into prog's lines. */
static const char *read_records(struct lines_read *r, struct obj_prog *prog,
				const unsigned char *p, uint32_t n,
				uint32_t rec_size)
{
	uint32_t i;

	if (prog->lines)
		return "a program section listed twice";
	prog->lines = calloc(n ? n : 1, sizeof(*prog->lines));
	if (!prog->lines)
		return out_of_memory;
	for (i = 0; i < n; i++, p += rec_size) {
		struct obj_line *l = &prog->lines[i];
		struct line_rec rec;

		rec.insn_off = get_bo32(p, r->swapped);
		rec.file_name_off = get_bo32(p + 4, r->swapped);
		rec.line_off = get_bo32(p + 8, r->swapped);
		rec.line_col = get_bo32(p + 12, r->swapped);
		if (rec.insn_off % 8 || rec.insn_off / 8 >= prog->insn_cnt)
			return "an instruction offset outside its program";
		if (i && rec.insn_off / 8 <= prog->lines[i - 1].insn)
			return "instruction offsets not in increasing order";
		if (rec.file_name_off >= r->str_len ||
		    rec.line_off >= r->str_len)
			return "a string offset outside the string section";
		l->insn = rec.insn_off / 8;
		l->file = r->strs + rec.file_name_off;
		l->text = r->strs + rec.line_off;
		l->line = rec.line_col >> 10;
		l->col = rec.line_col & 0x3ff;
	}
	prog->nr_lines = n;
	return NULL;
}

/* The line_info block: a record size, then sections until its end. */
static const char *read_line_info(struct lines_read *r,
				  const unsigned char *p, size_t len)
{
	uint32_t rec_size;

	if (len < 4)
		return "its line_info block has no record size";
	rec_size = get_bo32(p, r->swapped);
	if (rec_size < sizeof(struct line_rec))
		return "its line_info records are shorter than 16 bytes";
	p += 4;
	len -= 4;
	while (len) {
		uint32_t sec[2];	/* sec_name_off, num_info */
		struct obj_prog *prog;
		const char *why;

		if (len < sizeof(sec))
			return "a line_info section header is cut short";
		sec[0] = get_bo32(p, r->swapped);
		sec[1] = get_bo32(p + 4, r->swapped);
		p += sizeof(sec);
		len -= sizeof(sec);
		if (sec[0] >= r->str_len)
			return "a section name outside the string section";
		if ((uint64_t)sec[1] * rec_size > len)
			return "a section's line_info records are cut short";
		prog = prog_of_section(r->obj, r->strs + sec[0]);
		if (prog) {
			why = read_records(r, prog, p, sec[1], rec_size);
			if (why)
				return why;
		}
		p += (size_t)sec[1] * rec_size;
		len -= (size_t)sec[1] * rec_size;
	}
	return NULL;
}

int btf_lines_attach(struct bpf_obj *obj, const void *btf, size_t btf_len,
		     const void *ext, size_t ext_len)
{
	struct lines_read r = { .obj = obj };
	struct btf_ext_hdr h;
	const char *why;
	int err;

	drop_lines(obj);
	obj->lines_note[0] = '\0';
	if (!ext)
		return no_lines(obj, "no source lines: the object has no .BTF.ext section (built without clang -g)");
	if (!btf)
		return no_lines(obj, "no source lines: the object has .BTF.ext but no .BTF for its strings");
	err = read_strings(obj, btf, btf_len, &r.str_len);
	if (err < 0)
		return err;
	if (err)
		return no_lines(obj, "no source lines: the .BTF section is malformed (header or string section)");
	r.strs = obj->line_strs;
	if (ext_len < sizeof(h))
		return no_lines(obj, "no source lines: the .BTF.ext section is shorter than its header");
	memcpy(&h, ext, sizeof(h));
	r.swapped = h.magic == bo16(BTF_MAGIC, 1);
	if (r.swapped) {
		h.magic = BTF_MAGIC;
		h.hdr_len = bo32(h.hdr_len, 1);
		h.line_info_off = bo32(h.line_info_off, 1);
		h.line_info_len = bo32(h.line_info_len, 1);
	}
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) || h.hdr_len > ext_len ||
	    (uint64_t)h.line_info_off + h.line_info_len > ext_len - h.hdr_len)
		return no_lines(obj, "no source lines: the .BTF.ext header is malformed");
	if (!h.line_info_len)
		return no_lines(obj, "no source lines: the .BTF.ext section has no line_info");
	why = read_line_info(&r, (const unsigned char *)ext + h.hdr_len +
			     h.line_info_off, h.line_info_len);
	if (why == out_of_memory) {
		drop_lines(obj);
		return -ENOMEM;
	}
	if (why)
		return no_lines(obj, "no source lines: .BTF.ext: %s", why);
	return 0;
}
