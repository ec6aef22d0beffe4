/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning a parsed object into kernel objects: maps created (with the
 * fallbacks old kernels need), relocations applied, placeholders patched,
 * programs loaded through the verifier.
 */
#ifndef EXT4DIST_LOADER_OBJ_OBJ_LOAD_H
#define EXT4DIST_LOADER_OBJ_OBJ_LOAD_H

#include <stdint.h>

#include "loader/obj/elf_obj.h"
#include "loader/util/errbuf.h"

struct obj_load_opts {
	uint32_t kern_version;	/* written as the program's kern_version */
	int no_percpu;		/* as before 4.6: per-CPU arrays are plain */
	int no_names;		/* as before 4.15: no map/program names */
	int no_map_value;	/* as before 5.2: no map value addresses */
	/* Maps not to create (a mode that does not use them), NULL-ended. */
	const char *const *skip_maps;
	int log_always;		/* keep the verifier's log of every load */
	/*
	 * The verifier log's level (the kernel's log_level): 1 what it
	 * walked, 2 its state after every instruction (5.2+), 4 its
	 * statistics only (5.2+); 0: 2 for log_always, 1 for a refusal.
	 */
	uint32_t log_level;
	/* The license sent instead of the object's (a lesson's); NULL: its own. */
	const char *license;
	/*
	 * Single-entry arrays, NULL-ended, whose lookups (key 0 alone) are
	 * rewritten into reads of the value's address where the kernel
	 * allows it (map_value.h).
	 */
	const char *const *value_maps;
};

/* What actually happened, for -v, --check and tests. */
struct obj_load_state {
	int names_ok;		/* kernel took map/program names */
	char *verifier_log;	/* malloc'ed log of the last failed load */
	/* BPF_PSEUDO_MAP_VALUE taken: 1, refused: -1, not asked yet: 0. */
	int map_value;
};

/*
 * Replaces every ld_imm64 whose 64-bit immediate equals placeholder with
 * value, in every program.  Returns how many instructions were patched.
 */
int bpf_obj_patch_imm64(struct bpf_obj *obj, uint64_t placeholder,
			uint64_t value);

/*
 * Replaces the 16-bit offset of every 32-bit load (BPF_LDX | BPF_MEM |
 * BPF_W) whose offset equals placeholder with value: a field's offset in
 * a record whose layout the kernel says at run time (a tracepoint's
 * format file).  Returns how many instructions were patched.
 */
int bpf_obj_patch_off16(struct bpf_obj *obj, int16_t placeholder,
			int16_t value);

/*
 * Likewise the 16-bit offset of every 64-bit load and store (BPF_LDX |
 * BPF_MEM | BPF_DW, BPF_STX | BPF_MEM | BPF_DW): a word's offset in a
 * map value whose layout is chosen at load.
 */
int bpf_obj_patch_dw_off(struct bpf_obj *obj, int16_t placeholder,
			 int16_t value);

/*
 * Replaces the 32-bit immediate of every 64-bit ALU operation op by a
 * constant (BPF_ALU64 | op | BPF_K: BPF_AND, BPF_RSH, BPF_MUL) whose
 * immediate equals placeholder with value: a mask, shift or stride
 * chosen at load that the verifier must see as a bound.  Returns how
 * many instructions were patched.
 */
int bpf_obj_patch_alu64_imm(struct bpf_obj *obj, uint8_t op,
			    int32_t placeholder, int32_t value);

/* What bpf_obj_patch_list patches: one of the three above. */
enum insn_patch_kind {
	INSN_PATCH_W_OFF,	/* bpf_obj_patch_off16's */
	INSN_PATCH_DW_OFF,	/* bpf_obj_patch_dw_off's */
	INSN_PATCH_ALU64_IMM,	/* bpf_obj_patch_alu64_imm's, with op */
};

struct bpf_insn_patch {
	uint8_t kind;		/* enum insn_patch_kind */
	uint8_t op;		/* INSN_PATCH_ALU64_IMM's BPF_AND, BPF_RSH... */
	int32_t placeholder;
	int32_t value;
};

/*
 * The nw patches of w in one pass over every program (the first of them
 * that matches an instruction patches it): how many instructions were
 * patched.
 */
int bpf_obj_patch_list(struct bpf_obj *obj, const struct bpf_insn_patch *w,
		       size_t nw);

/*
 * The ld_imm64 in[0..1] as relocation r rewrites it: src_reg
 * BPF_PSEUDO_MAP_FD and imm the fd of r's map (-1 if not created yet).
 * in and out may be the same.
 */
void bpf_obj_reloc_insn(const struct bpf_obj *obj, const struct obj_reloc *r,
			const struct bpf_insn in[2], struct bpf_insn out[2]);

/*
 * Creates every map of obj but o->skip_maps; fills obj->maps[i].fd and the
 * map's real type.  A program that uses a skipped map cannot be loaded.
 */
int bpf_obj_create_maps(struct bpf_obj *obj, const struct obj_load_opts *o,
			struct obj_load_state *st, struct errbuf *eb);

/*
 * Loads one program as BPF_PROG_TYPE_KPROBE (kprobe_multi ones with
 * their expected attach type; fentry/fexit ones as
 * BPF_PROG_TYPE_TRACING, tracepoint ones as BPF_PROG_TYPE_TRACEPOINT).  On a verifier rejection the log is kept
 * in st->verifier_log and eb names the program.  On success p->kinfo
 * holds what the kernel says of it (id, tag, sizes).
 */
int bpf_obj_load_prog(struct bpf_obj *obj, struct obj_prog *p,
		      const struct obj_load_opts *o, struct obj_load_state *st,
		      struct errbuf *eb);

/* Closes a loaded program's fd (no-op when not loaded): it may load again. */
void bpf_obj_unload_prog(struct obj_prog *p);

void obj_load_state_free(struct obj_load_state *st);

/* A program tag as the kernel prints it: 16 hex digits (size >= 17). */
const char *bpf_tag_text(const uint8_t tag[8], char *buf, size_t size);

/* Human name of a map type for messages ("percpu_array"). */
const char *map_type_name(uint32_t type);

#endif
