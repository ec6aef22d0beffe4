/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small BPF disassembler: one instruction (or one program of a parsed
 * object) as text in the style of the kernel's verifier log, for
 * --dump-bpf and for messages.  It knows no program in particular: names
 * for special 64-bit constants are passed in by the caller.
 *
 * The text, by instruction class (rN is a 64-bit register, wN its low half):
 *   r1 = 0   r2 += -4   w1 s>>= 3   r1 = -r1   r1 = (s8)r2   r1 s/= r2
 *   r1 = be16 r1   r1 = le32 r1   r1 = bswap64 r1
 *   r1 = 0x7e57000000000001 ll        (ld_imm64: always hex)
 *   r1 = map_fd[3] ll   r1 = map_value_fd[3] + 8 ll   (pseudo ld_imm64)
 *   r7 = *(u64 *)(r7 + 0)   r1 = *(s16 *)(r2 - 6)
 *   *(u32 *)(r10 - 4) = r0   *(u64 *)(r10 - 8) = 0
 *   lock *(u64 *)(r2 + 0) += r1
 *   r1 = atomic_fetch_add((u64 *)(r2 + 0), r1)
 *   r0 = atomic_cmpxchg((u64 *)(r2 + 0), r0, r1)
 *   r0 = *(u16 *)skb[12]   r0 = *(u8 *)skb[r3 + 4]        (LD_ABS/LD_IND)
 *   goto +27   gotol -3   if r1 == 0x0 goto +2   if w1 s> -0x1 goto -5
 *   call bpf_map_lookup_elem#1   call #999   call +4   exit
 *   .insn 0xff dst=r1 src=r2 off=3 imm=4    (anything not understood)
 * Immediates of ALU operations print in decimal, those of conditional
 * jumps in signed hex, as the verifier log does.
 */
#ifndef EXT4DIST_LOADER_OBJ_BPF_DISASM_H
#define EXT4DIST_LOADER_OBJ_BPF_DISASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/bpf.h>

#include "loader/obj/elf_obj.h"

/* A 64-bit constant with a name: "r1 = PATCH_TGID ll" instead of its value. */
struct bpf_disasm_name {
	uint64_t value;
	const char *name;
};

/*
 * Formats insns[i] into buf (always NUL-terminated when len > 0, cut short
 * if len is too small).  Returns how many instruction slots it consumed:
 * 2 for a 64-bit load (ld_imm64) with its second half present, else 1;
 * -EINVAL if insns is NULL or i >= cnt.  Never fails on garbage: what it
 * does not understand prints as ".insn ...".
 */
int bpf_disasm_insn(const struct bpf_insn *insns, size_t cnt, size_t i,
		    char *buf, size_t len);

/*
 * Where a jump at insns[i] goes: sets *target to the absolute instruction
 * index (may lie outside the program) and returns 1; returns 0 for an
 * instruction that is not a jump (exit, helper call, anything else).
 */
int bpf_disasm_jump_target(const struct bpf_insn *insns, size_t cnt, size_t i,
			   long long *target);

/*
 * Prints program p of obj: a header line
 *   "<name>: section <section>, <N> instructions"
 * then one line per instruction, "%4zu: <text>", where
 *   - an ld_imm64 that p->relocs ties to a map prints as "r1 = map[start] ll",
 *   - an ld_imm64 whose value is in names prints as "r1 = NAME ll",
 *     and a 64-bit AND by an immediate in names as "r1 &= NAME",
 *   - a jump (or bpf-to-bpf call) ends with the instruction it lands on,
 *     "goto +27 <L87>" meaning line 87, or "<L120 outside>" when the
 *     target is not inside the program,
 * and, where p->lines has them (the object's .BTF.ext line info), the C
 * line above the first instruction of each change of line, as
 * llvm-objdump -S prints it: "; bpf/ext4dist.bpf.c:123: if (!s || !c)".
 * names may be NULL with nr_names 0.  Returns 0, or -EIO if writing failed.
 */
int bpf_disasm_prog_named(FILE *f, const struct bpf_obj *obj,
			  const struct obj_prog *p,
			  const struct bpf_disasm_name *names, size_t nr_names);

#endif
