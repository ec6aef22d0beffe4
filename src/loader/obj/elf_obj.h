/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A legacy BPF object (ELF, EM_BPF, ET_REL) parsed from memory: license,
 * version, map definitions, kprobe/kretprobe programs (and fentry/fexit
 * and tracepoint ones) and the relocations that point their ld_imm64
 * instructions at maps.
 */
#ifndef EXT4DIST_LOADER_OBJ_ELF_OBJ_H
#define EXT4DIST_LOADER_OBJ_ELF_OBJ_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

#include "legacy_map_def.h"
#include "loader/util/errbuf.h"

enum probe_kind { PROBE_ENTRY = 0, PROBE_RETURN = 1 };

struct obj_map {
	char name[64];
	struct legacy_map_def def;
	int fd;			/* -1 until created */
};

struct obj_reloc {
	size_t insn;		/* index of the ld_imm64 instruction */
	size_t map;		/* index into obj->maps */
};

/*
 * Where the source line changes (clang -g's .BTF.ext line_info): the C
 * line above instruction insn.  For --dump-bpf; never sent to the kernel.
 */
struct obj_line {
	size_t insn;		/* first instruction of the line */
	const char *file;	/* "bpf/ext4dist.bpf.c", in bpf_obj.line_strs */
	const char *text;	/* the line as clang read it ("" if it had none) */
	unsigned int line;	/* 1-based */
	unsigned int col;	/* 1-based, 0 when unknown */
};

/*
 * What the kernel says of a loaded program (BPF_OBJ_GET_INFO_BY_FD,
 * 4.13+); all 0 when it cannot say.
 */
struct obj_prog_kinfo {
	int known;			/* the kernel answered */
	uint32_t id;			/* its program id (bpftool prog show) */
	uint8_t tag[8];			/* hash of the instructions it was given */
	uint32_t xlated_len;		/* bytes after the verifier's rewrites */
	uint32_t jited_len;		/* 0: interpreted */
	uint32_t verified_insns;	/* instructions processed, 5.16+ */
};

struct obj_prog {
	char section[128];	/* "kprobe/open" */
	size_t shndx;		/* its section's index in the object */
	char name[64];		/* function symbol, "" if none */
	enum probe_kind kind;
	int multi;		/* "kprobe.multi/": attached by one link (5.18+) */
	/*
	 * "fentry/", "fexit/": BPF_PROG_TYPE_TRACING (5.5+), loaded for one
	 * function, named by its BTF id in the kernel's BTF object (fd 0:
	 * vmlinux's, else a module's, 5.11+); the caller sets both.
	 */
	int tracing;
	uint32_t attach_btf_id;
	int attach_btf_obj_fd;
	/*
	 * "tracepoint/<target>/<variant>": BPF_PROG_TYPE_TRACEPOINT (4.7+),
	 * whose context is the event's record, kind PROBE_ENTRY; the
	 * caller says which tracepoint it goes on.
	 */
	int tracepoint;
	char target[96];	/* "open" */
	char variant[32];	/* "kprobe/f/variant": "variant", else "" */
	struct bpf_insn *insns;
	size_t insn_cnt;
	/*
	 * Where insns' plain 64-bit constants are (ld_imm64, src_reg 0),
	 * for bpf_obj_patch_imm64(): valid while imm64_of and imm64_of_cnt
	 * are insns and insn_cnt.
	 */
	uint32_t *imm64_at;
	size_t nr_imm64;
	const struct bpf_insn *imm64_of;
	size_t imm64_of_cnt;
	struct obj_reloc *relocs;
	size_t nr_relocs;
	struct obj_line *lines;	/* sorted by insn; NULL without line info */
	size_t nr_lines;
	int fd;			/* -1 until loaded */
	/* Instructions handed to the kernel at the last load (nops.h). */
	size_t sent_cnt;
	struct obj_prog_kinfo kinfo;	/* of the last load */
};

struct bpf_obj {
	char license[128];
	uint32_t version;	/* as written in the object; replaced at load */
	struct obj_map *maps;
	size_t nr_maps;
	struct obj_prog *progs;
	size_t nr_progs;
	char *line_strs;	/* .BTF's strings, which obj_line points into */
	char lines_note[160];	/* why the programs have no lines, else "" */
	int borrowed;		/* the instructions are the parsed bytes' */
	/*
	 * Big-endian (bpfeb) where this machine is little-endian, or the
	 * reverse: read into this machine's order (for the dumps and the
	 * tests), never loaded.
	 */
	int foreign;
};

/* What bpf_obj_parse_in() keeps of an object. */
struct obj_parse_opts {
	int lines;	/* the programs' source lines (the listings print them) */
	/*
	 * The instructions left where they are in the parsed bytes, not
	 * copied: those must then outlive the object, and whatever patches
	 * the instructions writes into them (the listings).
	 */
	int borrow;
	/*
	 * The programs' names, kinds and lengths alone: their bytes never
	 * read (insns NULL), no relocations, no lines.  For what lists the
	 * programs without their code, which need not be inflated then.
	 */
	int no_code;
	/* The programs to keep, by section name; NULL: all of them. */
	int (*keep)(const char *section, void *arg);
	void *arg;
};

/*
 * Parses size bytes at data in place, in either byte order: libelf reads
 * them where they are (and may convert them there), no copy is made, and
 * nothing of obj points into them once it returns (each kept program's
 * instructions are copied), unless o->borrow.  Instructions, map
 * definitions and the version are kept in this machine's order.  On
 * failure returns -EINVAL (or -ENOMEM) with the reason in eb.
 */
int bpf_obj_parse_in(void *data, size_t size, const struct obj_parse_opts *o,
		     struct bpf_obj *obj, struct errbuf *eb);
/* The same on a private copy of data: every program, with its lines. */
int bpf_obj_parse(const void *data, size_t size, struct bpf_obj *obj,
		  struct errbuf *eb);
/* Closes every fd the object holds and frees it. */
void bpf_obj_free(struct bpf_obj *obj);
/*
 * Frees the programs' instructions, relocations and lines once nothing
 * will load them again (every program a run needs is in the kernel):
 * their fds, names and the maps stay.
 */
void bpf_obj_drop_insns(struct bpf_obj *obj);

/* variant NULL or "" = the plain "kprobe/<target>" program. */
struct obj_prog *bpf_obj_find_prog(struct bpf_obj *obj, enum probe_kind kind,
				   const char *target, const char *variant);
/* The same for "fentry/<target>" (entry) or "fexit/<target>" (return). */
struct obj_prog *bpf_obj_find_tracing(struct bpf_obj *obj,
				      enum probe_kind kind, const char *target,
				      const char *variant);
/* The "kprobe.multi/<label>[/<variant>]" (or kretprobe.multi) program. */
struct obj_prog *bpf_obj_find_multi(struct bpf_obj *obj, enum probe_kind kind,
				    const char *label, const char *variant);
/* The "tracepoint/<target>/<variant>" program. */
struct obj_prog *bpf_obj_find_tracepoint(struct bpf_obj *obj,
					 const char *target,
					 const char *variant);
struct obj_map *bpf_obj_find_map(struct bpf_obj *obj, const char *name);

#endif
