/* SPDX-License-Identifier: GPL-2.0 */
/* --dump-bpf: the embedded BPF object as text, without loading anything. */
#ifndef EXT4DIST_TOOL_DUMP_BPF_H
#define EXT4DIST_TOOL_DUMP_BPF_H

#include <stdio.h>

#include "loader/loader.h"
#include "tool/tracer.h"

/* The PATCH_* placeholders of ext4dist_abi.h by name; *n entries. */
const struct bpf_disasm_name *dump_bpf_placeholders(size_t *n);

/*
 * Prints the embedded object's license, its maps (name, type, key and
 * value sizes, entries) and every program disassembled, the PATCH_*
 * placeholders of ext4dist_abi.h shown by name.  Needs no privileges and
 * touches no kernel.  Returns 0, or -errno with the reason in eb (the
 * object does not parse, or writing to out failed).
 */
int dump_bpf(FILE *out, struct errbuf *eb);

/*
 * --dump-bpf=xlated (dump_xlated.c): loads the programs a run would load
 * (as --check does, nothing attached) and prints each as sent and as the
 * kernel keeps it after the verifier, annotated.  Needs root.
 */
int dump_xlated(FILE *out, const struct tracer_config *cfg, struct errbuf *eb);

/*
 * --dump-bpf=elf (dump_elf.c): the object's sections, then each
 * relocation with the instruction's bytes before and after the loader
 * rewrites it (the maps created for their fds where allowed).
 */
int dump_elf(FILE *out, struct errbuf *eb);

/*
 * --dump-bpf=refused (dump_refused.c): loads the program the object
 * carries broken on purpose (kprobe/ext4_file_open/refused, a store past
 * the end of a map value), and prints it with the verifier's refusal and
 * log.  Returns 0 when the verifier refused it, -EPROTO when it accepted
 * it, -errno (EPERM...) when it could not ask; the reason in eb.
 */
int dump_refused(FILE *out, const struct tracer_config *cfg, struct errbuf *eb);

#endif
