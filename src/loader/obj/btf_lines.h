/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C source lines of an object's programs, read from the line_info of
 * its .BTF.ext section (clang -g), whose strings are in .BTF: for each
 * instruction where the source line changes, the file, the line and
 * column, and the line's text as clang read it.  For --dump-bpf only: the
 * loader never sends BTF or line info to the kernel (before 5.0 the
 * kernel has no use for it, and before 4.18 it refuses the attr fields).
 */
#ifndef EXT4DIST_LOADER_OBJ_BTF_LINES_H
#define EXT4DIST_LOADER_OBJ_BTF_LINES_H

#include <stddef.h>
#include <stdint.h>

struct bpf_obj;

/* .BTF.ext's header up to its line_info block (later fields: CO-RE). */
struct btf_ext_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len;
	uint32_t line_info_off, line_info_len;
};

/*
 * Gives each program of obj its lines (obj_prog.lines, sorted by
 * instruction), the strings copied into obj->line_strs.  btf and ext are
 * the raw bytes of .BTF and .BTF.ext (NULL when the object has none).
 * Never fails the parse: when there are no lines to give, or the
 * sections are malformed, every program is left without lines and
 * obj->lines_note says why.  Returns 0, or -ENOMEM.
 */
int btf_lines_attach(struct bpf_obj *obj, const void *btf, size_t btf_len,
		     const void *ext, size_t ext_len);

#endif
