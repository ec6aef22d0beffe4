/* SPDX-License-Identifier: GPL-2.0 */
/* --dump-bpf: the embedded BPF object as text, without loading anything. */
#ifndef EXT4DIST_TOOL_DUMP_BPF_H
#define EXT4DIST_TOOL_DUMP_BPF_H

#include <stdio.h>

#include "loader/loader.h"
#include "tool/cli/args.h"
#include "tool/engine/tracer.h"

/* The PATCH_* placeholders of ext4dist_abi.h by name; *n entries. */
const struct bpf_disasm_name *dump_bpf_placeholders(size_t *n);

/*
 * --dump-bpf=WHAT (mode, dump_mode.c): the dump of that mode on out.  text: the
 * embedded object's license, its maps (name, type, key and value sizes,
 * entries), how many programs of each family, and the programs
 * disassembled, the PATCH_* placeholders of ext4dist_abi.h shown by
 * name (those of cfg's --ops when given, and --prog); needs no
 * privileges and touches no kernel.  The others below.  Returns 0, or
 * -errno with the reason in eb.
 */
int dump_bpf_mode(enum dump_bpf_mode mode, FILE *out,
		  const struct tracer_config *cfg, struct errbuf *eb);

/* --dump-bpf=text (dump_bpf.c): dump_bpf_mode()'s text, above. */
int dump_bpf_text(FILE *out, const struct tracer_config *cfg,
		  struct errbuf *eb);

/*
 * --dump-bpf=xlated (dump_xlated.c): loads the programs a run would load
 * (as --check does, nothing attached; those of --prog printed) and
 * prints each as sent and as the kernel keeps it after the verifier,
 * annotated.  Needs root.
 */
int dump_xlated(FILE *out, const struct tracer_config *cfg, struct errbuf *eb);

/*
 * What --dump-bpf=xlated and =jited share (dump_bpf.c): the programs a
 * run loads here, each loaded (as --check loads them, nothing attached)
 * and handed to each(arg, p) while it is; setup(arg, t, cfg, eb) first,
 * once the maps are made.  *shown: how many each() printed, to say so
 * when --prog matched none of them.  mode names the dump in messages.
 */
int dump_each_loaded(FILE *out, const struct tracer_config *cfg,
		     const char *mode,
		     int (*setup)(void *arg, struct tracer *t,
				  const struct tracer_config *cfg,
				  struct errbuf *eb),
		     void (*each)(void *arg, const struct obj_prog *p),
		     void *arg, const size_t *shown, struct errbuf *eb);

/*
 * --dump-bpf=jited (dump_jited.c): the same programs as the machine code
 * the kernel's JIT made of them (BPF_OBJ_GET_INFO_BY_FD's
 * jited_prog_insns), in hex.  Needs root.
 */
int dump_jited(FILE *out, const struct tracer_config *cfg, struct errbuf *eb);

/*
 * --dump-bpf=elf (dump_elf.c): the object's sections, then each
 * relocation with the instruction's bytes before and after the loader
 * rewrites it (the maps a histogram run creates made for their fds,
 * where allowed).
 */
int dump_elf(FILE *out, const struct tracer_config *cfg, struct errbuf *eb);

/*
 * --dump-bpf=refused (dump_refused.c): loads each lesson the object
 * carries (kprobe/lesson/NAME, tool/dump/lessons.h; those of --prog) alone,
 * and prints it with the verifier's verdict, its reason and its log.
 * Returns 0 when the verifier did what each lesson says, -EPROTO when
 * not, -errno (EPERM...) when it could not ask; the reason in eb.
 */
int dump_refused(FILE *out, const struct tracer_config *cfg, struct errbuf *eb);

#endif
