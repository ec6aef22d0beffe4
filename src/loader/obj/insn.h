/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF instructions written out in C, for the loader's own small programs
 * (the kernel's include/linux/filter.h has such macros, the UAPI none).
 */
#ifndef EXT4DIST_LOADER_OBJ_INSN_H
#define EXT4DIST_LOADER_OBJ_INSN_H

#include <linux/bpf.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

/* dst = imm (64-bit register) */
#define MOV64_IMM(dst, imm)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
/* dst = src */
#define MOV64_REG(dst, src)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0)
/* dst >>= imm (unsigned) */
#define RSH64_IMM(dst, imm)	INSN(BPF_ALU64 | BPF_RSH | BPF_K, dst, 0, 0, imm)
/* dst += imm */
#define ADD64_IMM(dst, imm)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm)
/* dst = *(u64 *)(src + off) */
#define LDX_DW(dst, src, off)	INSN(BPF_LDX | BPF_MEM | BPF_DW, dst, src, off, 0)
/* *(u64 *)(dst + off) = src */
#define STX_DW(dst, src, off)	INSN(BPF_STX | BPF_MEM | BPF_DW, dst, src, off, 0)
#define CALL(helper)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, helper)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#endif
