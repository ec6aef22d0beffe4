// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF disassembler: exact text for every instruction class, programs
 * with relocations, named constants and jump labels, one real program
 * against a golden file, --dump-bpf as a whole, and random instructions
 * (no crash, never empty text).
 *
 * The golden file follows x86's BPF object (bpf/prebuilt, whatever this
 * build's architecture and byte order): when bpf/ext4dist.bpf.c or the
 * compiler changes, rewrite it with
 *   UPDATE_GOLDEN=1 build/tests/test_bpf_disasm
 * (from the repository root) and check the diff against
 * llvm-objdump -d bpf/prebuilt/ext4dist-x86.bpf.o.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/obj/bpf_disasm.h"
#include "loader/obj/elf_obj.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"
#include "tool/dump/dump_bpf.h"

/* The placeholder names --dump-bpf uses (set in main). */
static const struct bpf_disasm_name *patch_names;
static size_t nr_patch_names;

#define GOLDEN_PROG_SECTION "kretprobe/read"
#define GOLDEN_PATH TEST_GOLDEN "disasm_return_read.txt"
#define GOLDEN_OBJECT TEST_SRCDIR "/bpf/prebuilt/ext4dist-x86.bpf.o"

#define INSN(c, d, s, o, i) \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

/* Opcode parts some UAPI headers lack: the values are ABI. */
#define T_JMP32		0x06
#define T_ATOMIC	0xc0
#define T_FETCH		0x01
#define T_MEMSX		0x80
#define T_JLT		0xa0
#define T_JLE		0xb0
#define T_JSLT		0xc0
#define T_JSLE		0xd0
#define T_JCOND		0xe0
#define LDDW		(BPF_LD | BPF_IMM | BPF_DW)


struct one_case {
	struct bpf_insn insn[2];
	size_t cnt;		/* 0 means 1 */
	const char *want;
	int slots;		/* 0 means 1 */
};

static const struct one_case cases[] = {
	/* ALU64, immediate and register sources. */
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0) }, 0, "r1 = 0", 0 },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, -1) }, 0, "r1 = -1", 0 },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0) }, 0, "r2 = r10", 0 },
	{ { INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4) }, 0, "r2 += -4", 0 },
	{ { INSN(BPF_ALU64 | BPF_SUB | BPF_X, 6, 7, 0, 0) }, 0, "r6 -= r7", 0 },
	{ { INSN(BPF_ALU64 | BPF_MUL | BPF_K, 3, 0, 0, 10) }, 0, "r3 *= 10", 0 },
	{ { INSN(BPF_ALU64 | BPF_DIV | BPF_X, 2, 8, 0, 0) }, 0, "r2 /= r8", 0 },
	{ { INSN(BPF_ALU64 | BPF_OR | BPF_X, 1, 4, 0, 0) }, 0, "r1 |= r4", 0 },
	{ { INSN(BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, 63) }, 0, "r1 &= 63", 0 },
	{ { INSN(BPF_ALU64 | BPF_LSH | BPF_K, 4, 0, 0, 4) }, 0, "r4 <<= 4", 0 },
	{ { INSN(BPF_ALU64 | BPF_RSH | BPF_K, 0, 0, 0, 32) }, 0, "r0 >>= 32", 0 },
	{ { INSN(BPF_ALU64 | BPF_RSH | BPF_X, 3, 4, 0, 0) }, 0, "r3 >>= r4", 0 },
	{ { INSN(BPF_ALU64 | BPF_MOD | BPF_K, 5, 0, 0, 7) }, 0, "r5 %= 7", 0 },
	{ { INSN(BPF_ALU64 | BPF_XOR | BPF_X, 5, 5, 0, 0) }, 0, "r5 ^= r5", 0 },
	{ { INSN(BPF_ALU64 | BPF_ARSH | BPF_K, 1, 0, 0, 3) }, 0, "r1 s>>= 3", 0 },
	{ { INSN(BPF_ALU64 | BPF_NEG | BPF_K, 1, 0, 0, 0) }, 0, "r1 = -r1", 0 },
	/* Signed division and sign-extending moves (cpu v4). */
	{ { INSN(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 1, 0) }, 0, "r1 s/= r2", 0 },
	{ { INSN(BPF_ALU64 | BPF_MOD | BPF_K, 1, 0, 1, 3) }, 0, "r1 s%= 3", 0 },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 8, 0) }, 0, "r1 = (s8)r2", 0 },
	/* The kernel's own per-CPU address move (6.8), in translated code. */
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 0, 0, -1, 0) }, 0, "r0 = &(void __percpu *)(r0)", 0 },
	{ { INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 32, 0) }, 0, "r1 = (s32)r2", 0 },
	/* ALU (32-bit). */
	{ { INSN(BPF_ALU | BPF_ADD | BPF_K, 1, 0, 0, 1) }, 0, "w1 += 1", 0 },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 0, 0) }, 0, "w1 = w2", 0 },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_K, 0, 0, 0, 5) }, 0, "w0 = 5", 0 },
	{ { INSN(BPF_ALU | BPF_NEG | BPF_K, 3, 0, 0, 0) }, 0, "w3 = -w3", 0 },
	{ { INSN(BPF_ALU | BPF_ARSH | BPF_X, 3, 1, 0, 0) }, 0, "w3 s>>= w1", 0 },
	{ { INSN(BPF_ALU | BPF_DIV | BPF_K, 3, 0, 1, -2) }, 0, "w3 s/= -2", 0 },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 16, 0) }, 0, "w1 = (s16)w2", 0 },
	/* Byte order. */
	{ { INSN(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 16) }, 0, "r1 = be16 r1", 0 },
	{ { INSN(BPF_ALU | BPF_END | BPF_TO_LE, 2, 0, 0, 32) }, 0, "r2 = le32 r2", 0 },
	{ { INSN(BPF_ALU | BPF_END | BPF_TO_BE, 3, 0, 0, 64) }, 0, "r3 = be64 r3", 0 },
	{ { INSN(BPF_ALU64 | BPF_END | BPF_TO_LE, 1, 0, 0, 64) }, 0, "r1 = bswap64 r1", 0 },
	/* ALU forms that mean nothing (yet). */
	{ { INSN(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 17) }, 0,
	  ".insn 0xdc dst=r1 src=r0 off=0 imm=17", 0 },
	{ { INSN(BPF_ALU64 | BPF_END | BPF_TO_BE, 1, 0, 0, 16) }, 0,
	  ".insn 0xdf dst=r1 src=r0 off=0 imm=16", 0 },
	{ { INSN(BPF_ALU64 | 0xe0 | BPF_X, 1, 2, 0, 0) }, 0,
	  ".insn 0xef dst=r1 src=r2 off=0 imm=0", 0 },
	{ { INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 5, 1) }, 0,
	  ".insn 0x07 dst=r1 src=r0 off=5 imm=1", 0 },
	{ { INSN(BPF_ALU64 | BPF_NEG | BPF_X, 1, 2, 0, 0) }, 0,
	  ".insn 0x8f dst=r1 src=r2 off=0 imm=0", 0 },
	{ { INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 32, 0) }, 0,
	  ".insn 0xbc dst=r1 src=r2 off=32 imm=0", 0 },
	/* ld_imm64: plain, pseudo sources, unknown source, cut short. */
	{ { INSN(LDDW, 1, 0, 0, 1), INSN(0, 0, 0, 0, 0x7e570000) }, 2,
	  "r1 = 0x7e57000000000001 ll", 2 },
	{ { INSN(LDDW, 9, 0, 0, 0), INSN(0, 0, 0, 0, 0) }, 2,
	  "r9 = 0x0 ll", 2 },
	{ { INSN(LDDW, 1, 0, 0, -1), INSN(0, 0, 0, 0, -1) }, 2,
	  "r1 = 0xffffffffffffffff ll", 2 },
	{ { INSN(LDDW, 1, 1, 0, 5), INSN(0, 0, 0, 0, 0) }, 2,
	  "r1 = map_fd[5] ll", 2 },
	{ { INSN(LDDW, 2, 2, 0, 5), INSN(0, 0, 0, 0, 16) }, 2,
	  "r2 = map_value_fd[5] + 16 ll", 2 },
	{ { INSN(LDDW, 3, 3, 0, 42), INSN(0, 0, 0, 0, 0) }, 2,
	  "r3 = btf_id[42] ll", 2 },
	{ { INSN(LDDW, 4, 4, 0, 7), INSN(0, 0, 0, 0, 0) }, 2,
	  "r4 = func[+7] ll", 2 },
	{ { INSN(LDDW, 1, 5, 0, 2), INSN(0, 0, 0, 0, 0) }, 2,
	  "r1 = map_idx[2] ll", 2 },
	{ { INSN(LDDW, 1, 6, 0, 2), INSN(0, 0, 0, 0, 8) }, 2,
	  "r1 = map_value_idx[2] + 8 ll", 2 },
	{ { INSN(LDDW, 1, 9, 0, 1), INSN(0, 0, 0, 0, 2) }, 2,
	  ".insn 0x18 dst=r1 src=r9 off=0 imm=1 imm2=2", 2 },
	{ { INSN(LDDW, 1, 0, 0, 1) }, 1,
	  ".insn 0x18 dst=r1 src=r0 off=0 imm=1", 1 },
	/* Packet loads of classic BPF. */
	{ { INSN(BPF_LD | BPF_ABS | BPF_H, 0, 0, 0, 12) }, 0,
	  "r0 = *(u16 *)skb[12]", 0 },
	{ { INSN(BPF_LD | BPF_ABS | BPF_W, 0, 0, 0, 0) }, 0,
	  "r0 = *(u32 *)skb[0]", 0 },
	{ { INSN(BPF_LD | BPF_IND | BPF_B, 0, 3, 0, 4) }, 0,
	  "r0 = *(u8 *)skb[r3 + 4]", 0 },
	{ { INSN(BPF_LD | BPF_IND | BPF_W, 0, 3, 0, -2) }, 0,
	  "r0 = *(u32 *)skb[r3 - 2]", 0 },
	{ { INSN(BPF_LD | BPF_ABS | BPF_DW, 0, 0, 0, 12) }, 0,
	  ".insn 0x38 dst=r0 src=r0 off=0 imm=12", 0 },
	{ { INSN(BPF_LD | BPF_MEM | BPF_W, 0, 0, 0, 0) }, 0,
	  ".insn 0x60 dst=r0 src=r0 off=0 imm=0", 0 },
	/* Loads. */
	{ { INSN(BPF_LDX | BPF_MEM | BPF_DW, 7, 7, 0, 0) }, 0,
	  "r7 = *(u64 *)(r7 + 0)", 0 },
	{ { INSN(BPF_LDX | BPF_MEM | BPF_B, 1, 2, -6, 0) }, 0,
	  "r1 = *(u8 *)(r2 - 6)", 0 },
	{ { INSN(BPF_LDX | BPF_MEM | BPF_W, 0, 10, -32768, 0) }, 0,
	  "r0 = *(u32 *)(r10 - 32768)", 0 },
	{ { INSN(BPF_LDX | T_MEMSX | BPF_H, 1, 2, 2, 0) }, 0,
	  "r1 = *(s16 *)(r2 + 2)", 0 },
	{ { INSN(BPF_LDX | T_MEMSX | BPF_DW, 1, 2, 2, 0) }, 0,
	  ".insn 0x99 dst=r1 src=r2 off=2 imm=0", 0 },
	{ { INSN(BPF_LDX | BPF_IMM | BPF_W, 1, 2, 0, 0) }, 0,
	  ".insn 0x01 dst=r1 src=r2 off=0 imm=0", 0 },
	/* Stores of an immediate and of a register. */
	{ { INSN(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -8, 0) }, 0,
	  "*(u64 *)(r10 - 8) = 0", 0 },
	{ { INSN(BPF_ST | BPF_MEM | BPF_H, 1, 0, 2, -1) }, 0,
	  "*(u16 *)(r1 + 2) = -1", 0 },
	{ { INSN(BPF_ST | T_ATOMIC | BPF_DW, 1, 0, 0, 0) }, 0,
	  ".insn 0xda dst=r1 src=r0 off=0 imm=0", 0 },
	{ { INSN(BPF_STX | BPF_MEM | BPF_W, 10, 0, -4, 0) }, 0,
	  "*(u32 *)(r10 - 4) = r0", 0 },
	{ { INSN(BPF_STX | BPF_MEM | BPF_B, 1, 2, 32767, 0) }, 0,
	  "*(u8 *)(r1 + 32767) = r2", 0 },
	{ { INSN(BPF_STX | BPF_ABS | BPF_W, 1, 2, 0, 0) }, 0,
	  ".insn 0x23 dst=r1 src=r2 off=0 imm=0", 0 },
	/* Atomics: BPF_XADD is the add without fetch. */
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, BPF_ADD) }, 0,
	  "lock *(u64 *)(r2 + 0) += r1", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_W, 2, 1, 8, BPF_ADD) }, 0,
	  "lock *(u32 *)(r2 + 8) += w1", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, BPF_OR) }, 0,
	  "lock *(u64 *)(r2 + 0) |= r1", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, BPF_AND) }, 0,
	  "lock *(u64 *)(r2 + 0) &= r1", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, BPF_XOR) }, 0,
	  "lock *(u64 *)(r2 + 0) ^= r1", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, BPF_ADD | T_FETCH) }, 0,
	  "r1 = atomic_fetch_add((u64 *)(r2 + 0), r1)", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_W, 4, 3, -8, BPF_XOR | T_FETCH) }, 0,
	  "w3 = atomic_fetch_xor((u32 *)(r4 - 8), w3)", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, 0xe0 | T_FETCH) }, 0,
	  "r1 = atomic_xchg((u64 *)(r2 + 0), r1)", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, 0xf0 | T_FETCH) }, 0,
	  "r0 = atomic_cmpxchg((u64 *)(r2 + 0), r0, r1)", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_W, 2, 1, 4, 0xf0 | T_FETCH) }, 0,
	  "w0 = atomic_cmpxchg((u32 *)(r2 + 4), w0, w1)", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_B, 0, 1, 0, 0x100) }, 0,
	  "r0 = load_acquire((u8 *)(r1 + 0))", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_H, 1, 2, 4, 0x110) }, 0,
	  "store_release((u16 *)(r1 + 4), r2)", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_B, 2, 1, 0, BPF_ADD) }, 0,
	  ".insn 0xd3 dst=r2 src=r1 off=0 imm=0", 0 },
	{ { INSN(BPF_STX | T_ATOMIC | BPF_DW, 2, 1, 0, 0x30) }, 0,
	  ".insn 0xdb dst=r2 src=r1 off=0 imm=48", 0 },
	/* Jumps. */
	{ { INSN(BPF_JMP | BPF_JA, 0, 0, 27, 0) }, 0, "goto +27", 0 },
	{ { INSN(BPF_JMP | BPF_JA, 0, 0, -3, 0) }, 0, "goto -3", 0 },
	{ { INSN(T_JMP32 | BPF_JA, 0, 0, 0, 100000) }, 0, "gotol +100000", 0 },
	{ { INSN(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 2, 0) }, 0,
	  "if r1 == 0x0 goto +2", 0 },
	{ { INSN(BPF_JMP | BPF_JNE | BPF_X, 0, 1, 10, 0) }, 0,
	  "if r0 != r1 goto +10", 0 },
	{ { INSN(BPF_JMP | BPF_JGT | BPF_K, 3, 0, 1, 65535) }, 0,
	  "if r3 > 0xffff goto +1", 0 },
	{ { INSN(BPF_JMP | BPF_JGE | BPF_X, 3, 4, 0, 0) }, 0,
	  "if r3 >= r4 goto +0", 0 },
	{ { INSN(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 3, 4) }, 0,
	  "if r1 & 0x4 goto +3", 0 },
	{ { INSN(BPF_JMP | BPF_JSGT | BPF_K, 1, 0, -5, -1) }, 0,
	  "if r1 s> -0x1 goto -5", 0 },
	{ { INSN(BPF_JMP | BPF_JSGE | BPF_K, 1, 0, 1, -2147483647 - 1) }, 0,
	  "if r1 s>= -0x80000000 goto +1", 0 },
	{ { INSN(BPF_JMP | T_JLT | BPF_X, 2, 3, 4, 0) }, 0,
	  "if r2 < r3 goto +4", 0 },
	{ { INSN(BPF_JMP | T_JLE | BPF_K, 2, 0, 4, 16) }, 0,
	  "if r2 <= 0x10 goto +4", 0 },
	{ { INSN(BPF_JMP | T_JSLT | BPF_X, 2, 3, 0, 0) }, 0,
	  "if r2 s< r3 goto +0", 0 },
	{ { INSN(BPF_JMP | T_JSLE | BPF_K, 2, 0, -1, 0) }, 0,
	  "if r2 s<= 0x0 goto -1", 0 },
	{ { INSN(T_JMP32 | BPF_JGT | BPF_K, 1, 0, 7, 3) }, 0,
	  "if w1 > 0x3 goto +7", 0 },
	{ { INSN(T_JMP32 | BPF_JEQ | BPF_X, 1, 2, -1, 0) }, 0,
	  "if w1 == w2 goto -1", 0 },
	{ { INSN(T_JMP32 | T_JSLT | BPF_K, 6, 0, 2, -7) }, 0,
	  "if w6 s< -0x7 goto +2", 0 },
	{ { INSN(BPF_JMP | T_JCOND, 0, 0, 3, 0) }, 0, "may_goto +3", 0 },
	{ { INSN(BPF_JMP | 0xf0 | BPF_X, 1, 2, 3, 4) }, 0,
	  ".insn 0xfd dst=r1 src=r2 off=3 imm=4", 0 },
	{ { INSN(T_JMP32 | T_JCOND, 0, 0, 3, 0) }, 0,
	  ".insn 0xe6 dst=r0 src=r0 off=3 imm=0", 0 },
	/* Calls and exit. */
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 1) }, 0,
	  "call bpf_map_lookup_elem#1", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 2) }, 0,
	  "call bpf_map_update_elem#2", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 3) }, 0,
	  "call bpf_map_delete_elem#3", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 4) }, 0,
	  "call bpf_probe_read#4", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 5) }, 0,
	  "call bpf_ktime_get_ns#5", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 6) }, 0,
	  "call bpf_trace_printk#6", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 14) }, 0,
	  "call bpf_get_current_pid_tgid#14", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 0) }, 0, "call #0", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, -1) }, 0, "call #-1", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 100000) }, 0, "call #100000", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 1, 0, 4) }, 0, "call +4", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 2, 0, 77) }, 0, "call kfunc#77", 0 },
	{ { INSN(BPF_JMP | BPF_CALL, 0, 3, 0, 1) }, 0,
	  ".insn 0x85 dst=r0 src=r3 off=0 imm=1", 0 },
	{ { INSN(T_JMP32 | BPF_CALL, 0, 0, 0, 1) }, 0,
	  ".insn 0x86 dst=r0 src=r0 off=0 imm=1", 0 },
	{ { INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0) }, 0, "exit", 0 },
	{ { INSN(T_JMP32 | BPF_EXIT, 0, 0, 0, 0) }, 0,
	  ".insn 0x96 dst=r0 src=r0 off=0 imm=0", 0 },
};

static void test_each_class(void)
{
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct one_case *c = &cases[k];
		size_t cnt = c->cnt ? c->cnt : 1;
		char buf[128], name[160];
		int n;

		memset(buf, 'X', sizeof(buf));
		n = bpf_disasm_insn(c->insn, cnt, 0, buf, sizeof(buf));
		snprintf(name, sizeof(name), "text: %s", c->want);
		check_str(name, buf, c->want);
		if (n != (c->slots ? c->slots : 1)) {
			snprintf(name, sizeof(name), "slots: %s", c->want);
			check_int(name, n, c->slots ? c->slots : 1);
		}
	}
	printf("# %zu instruction forms checked\n", k);
}

static void test_api_edges(void)
{
	struct bpf_insn ld[2] = { INSN(LDDW, 1, 0, 0, 1),
				  INSN(0, 0, 0, 0, 0x7e570000) };
	char buf[8];

	check_int("i past the end: -EINVAL",
		  bpf_disasm_insn(ld, 2, 2, buf, sizeof(buf)), -EINVAL);
	check_int("NULL instructions: -EINVAL",
		  bpf_disasm_insn(NULL, 2, 0, buf, sizeof(buf)), -EINVAL);
	check_int("NULL buffer still counts slots",
		  bpf_disasm_insn(ld, 2, 0, NULL, 0), 2);
	check_int("second half alone is one slot",
		  bpf_disasm_insn(ld, 2, 1, NULL, 0), 1);
	memset(buf, 'X', sizeof(buf));
	check_int("short buffer: slots", bpf_disasm_insn(ld, 2, 0, buf, 5), 2);
	check_str("short buffer: cut and terminated", buf, "r1 =");
	check_int("short buffer: nothing written past len", buf[5], 'X');
	bpf_disasm_insn(ld, 2, 0, buf, 1);
	check_str("one-byte buffer: empty string", buf, "");
}

static void test_jump_targets(void)
{
	struct bpf_insn p[] = {
		INSN(BPF_JMP | BPF_JA, 0, 0, 2, 0),		/* -> 3 */
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, -2, 0),	/* -> 0 */
		INSN(T_JMP32 | BPF_JA, 0, 0, 0, 5),		/* -> 8 */
		INSN(BPF_JMP | BPF_CALL, 0, 1, 0, -4),		/* -> 0 */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 1),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		INSN(BPF_JMP | 0xf0, 0, 0, 1, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 3, 0),
	};
	size_t n = sizeof(p) / sizeof(p[0]);
	long long t = -99;

	CHECK(bpf_disasm_jump_target(p, n, 0, &t) && t == 3, "goto +2 at 0 -> 3");
	CHECK(bpf_disasm_jump_target(p, n, 1, &t) && t == 0, "if ... goto -2 at 1 -> 0");
	CHECK(bpf_disasm_jump_target(p, n, 2, &t) && t == 8, "gotol +5 at 2 -> 8");
	CHECK(bpf_disasm_jump_target(p, n, 3, &t) && t == 0, "call -4 at 3 -> 0");
	CHECK(!bpf_disasm_jump_target(p, n, 4, &t), "helper call: no target");
	CHECK(!bpf_disasm_jump_target(p, n, 5, &t), "exit: no target");
	CHECK(!bpf_disasm_jump_target(p, n, 6, &t), "unknown jump op: no target");
	CHECK(!bpf_disasm_jump_target(p, n, 7, &t), "ALU: no target");
	CHECK(!bpf_disasm_jump_target(p, n, 8, &t), "past the end: no target");
}

/* Runs bpf_disasm_prog_named into memory; returns the malloc'ed text. */
static char *prog_text(const struct bpf_obj *obj, const struct obj_prog *p,
		       const struct bpf_disasm_name *names, size_t nr,
		       size_t *len, int *err)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	*err = bpf_disasm_prog_named(f, obj, p, names, nr);
	fclose(f);
	return text;
}

static void test_hand_program(void)
{
	struct bpf_insn insns[] = {
		INSN(LDDW, 1, 0, 0, 0), INSN(0, 0, 0, 0, 0),	/* map "start" */
		INSN(LDDW, 2, 0, 0, 0), INSN(0, 0, 0, 0, 0),	/* bad map index */
		INSN(LDDW, 3, 0, 0, 1), INSN(0, 0, 0, 0, 0x7e570000),
		INSN(LDDW, 4, 0, 0, 9), INSN(0, 0, 0, 0, 0),	/* no name */
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, 1, 0),
		INSN(BPF_JMP | BPF_JA, 0, 0, 100, 0),
		INSN(BPF_JMP | BPF_JA, 0, 0, -12, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		INSN(LDDW, 5, 0, 0, 1),		/* cut short at the end */
	};
	struct obj_reloc relocs[] = { { 0, 0 }, { 2, 7 } };
	struct obj_map maps[1];
	struct bpf_obj obj;
	struct obj_prog p;
	struct bpf_disasm_name names[] = { { 9, NULL }, { 0x7e57000000000001ULL, "TGID" } };
	const char *want =
		"(no symbol): section kprobe/x, 13 instructions\n"
		"   0: r1 = map[start] ll\n"
		"   2: r2 = map[#7] ll\n"
		"   4: r3 = TGID ll\n"
		"   6: r4 = 0x9 ll\n"
		"   8: if r3 == 0x0 goto +1 <L10>\n"
		"   9: goto +100 <L110 outside>\n"
		"  10: goto -12 <L-1 outside>\n"
		"  11: exit\n"
		"  12: .insn 0x18 dst=r5 src=r0 off=0 imm=1\n";
	const char *want_plain =
		"f: section kprobe/x, 13 instructions\n"
		"   0: r1 = map[start] ll\n"
		"   2: r2 = map[#7] ll\n"
		"   4: r3 = 0x7e57000000000001 ll\n";
	size_t len;
	char *text;
	int err = -1;

	memset(&obj, 0, sizeof(obj));
	memset(&p, 0, sizeof(p));
	memset(maps, 0, sizeof(maps));
	strcpy(maps[0].name, "start");
	obj.maps = maps;
	obj.nr_maps = 1;
	strcpy(p.section, "kprobe/x");
	p.insns = insns;
	p.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	p.relocs = relocs;
	p.nr_relocs = 2;

	text = prog_text(&obj, &p, names, 2, &len, &err);
	check_int("hand program: returns 0", err, 0);
	check_str("hand program: relocations, names, labels", text, want);
	free(text);

	strcpy(p.name, "f");
	text = prog_text(&obj, &p, NULL, 0, &len, &err);
	CHECK(text && strncmp(text, want_plain, strlen(want_plain)) == 0,
	      "hand program without names: the value, not a name");
	free(text);

	/* No object at all: relocations print by index. */
	text = prog_text(NULL, &p, NULL, 0, &len, &err);
	CHECK(text && strstr(text, "   0: r1 = map[#0] ll\n"),
	      "hand program without an object: map by index");
	free(text);
}

static void test_golden(void)
{
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	struct obj_prog *p = NULL;
	size_t i, len = 0, olen = 0;
	char *text = NULL, *x86 = test_read_file(GOLDEN_OBJECT, &olen);
	int err;

	if (!CHECK(x86, "x86's object " GOLDEN_OBJECT))
		return;
	err = bpf_obj_parse(x86, olen, &obj, &eb);
	free(x86);
	if (!check_int("x86's object parses", err, 0)) {
		printf("  error: %s\n", eb.msg);
		return;
	}
	for (i = 0; i < obj.nr_progs; i++)
		if (strcmp(obj.progs[i].section, GOLDEN_PROG_SECTION) == 0)
			p = &obj.progs[i];
	if (CHECK(p, "golden program " GOLDEN_PROG_SECTION " found"))
		text = prog_text(&obj, p, patch_names, nr_patch_names,
				 &len, &err);
	if (text && getenv("UPDATE_GOLDEN")) {
		FILE *f = fopen(GOLDEN_PATH, "w");

		CHECK(f && fwrite(text, 1, len, f) == len && fclose(f) == 0,
		      "UPDATE_GOLDEN: rewrote " GOLDEN_PATH);
	} else if (text) {
		if (!check_golden("disassembly of " GOLDEN_PROG_SECTION, text,
				  len, GOLDEN_PATH))
			printf("# if bpf/ext4dist.bpf.c or clang changed, rewrite it:\n"
			       "#   UPDATE_GOLDEN=1 build/tests/test_bpf_disasm\n"
			       "# then compare with llvm-objdump -d " GOLDEN_OBJECT "\n");
	}
	free(text);

	/* Every program of the real object: understood in full. */
	for (i = 0; i < obj.nr_progs; i++) {
		char name[200];

		text = prog_text(&obj, &obj.progs[i], patch_names,
				 nr_patch_names,
				 &len, &err);
		snprintf(name, sizeof(name),
			 "%s: no unknown instruction, no jump outside",
			 obj.progs[i].section);
		CHECK(text && !strstr(text, ".insn") && !strstr(text, "outside") &&
		      !strstr(text, "0x7e57"), name);
		free(text);
	}
	bpf_obj_free(&obj);
}

/* The golden program of this build's own object, disassembled. */
static char *own_golden_program(void)
{
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	char *text = NULL;
	size_t i, len;
	int err;

	if (bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj, &eb))
		return NULL;
	for (i = 0; i < obj.nr_progs && !text; i++)
		if (strcmp(obj.progs[i].section, GOLDEN_PROG_SECTION) == 0)
			text = prog_text(&obj, &obj.progs[i], patch_names,
					 nr_patch_names, &len, &err);
	bpf_obj_free(&obj);
	return text;
}

/* --dump-bpf's text into *text; its return value. */
static int dump_text(const struct tracer_config *cfg, char **text,
		     struct errbuf *eb)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	int err;

	*text = NULL;
	if (!f)
		return -ENOMEM;
	err = dump_bpf_mode(DUMP_BPF_TEXT, f, cfg, eb);
	fclose(f);
	return err;
}

/* How many programs a listing holds. */
static size_t listed(const char *text)
{
	const char *p = text;
	size_t n = 0;

	while ((p = strstr(p, ": section ")) != NULL) {
		n++;
		p++;
	}
	return n;
}

static void test_dump_bpf(void)
{
	struct tracer_config cfg = { 0 };
	struct errbuf eb = { "" };
	char *text = NULL, *golden, want[128];
	FILE *f;
	int err, thirty_two;

	thirty_two = strcmp(bpf_blob_own_arch(), "arm") == 0 ||
		     strcmp(bpf_blob_own_arch(), "mips") == 0;
	err = dump_text(&cfg, &text, &eb);
	if (!CHECK(text, "open_memstream"))
		return;
	check_int("dump_bpf returns 0", err, 0);
	CHECK(strncmp(text, "license: GPL\n", 13) == 0, "dump: license first");
	CHECK(strstr(text, "\nmaps: 10\n"), "dump: ten maps");
	CHECK(strstr(text, "\n  lesson_hash  hash           key 4, value 32, entries 1\n"),
	      "dump: the lessons' map");
	CHECK(strstr(text, "\n  start        array          key 4, value 1310720, entries 1\n"),
	      "dump: map start");
	CHECK(strstr(text, "\n  calls        array          key 4, value 128, entries 1\n"),
	      "dump: map calls");
	CHECK(strstr(text, "\n  hist         percpu_array   key 4, value 552, entries 10\n"),
	      "dump: map hist");
	CHECK(strstr(text, "\n  ctl          array          key 4, value 8, entries 1\n"),
	      "dump: map ctl");
	CHECK(strstr(text, "\n  open_scan    array          key 4, value 1296, entries 1\n"),
	      "dump: map open_scan");
	/* 22 fentry and fexit programs but for 32-bit kernels (arm, mips). */
	if (thirty_two)
		CHECK(strstr(text, "\nprograms: 73: 44 kprobe and kretprobe, 16 kprobe_multi, 2 tracepoint, 2 helpers, 9 lessons\n"),
		      "dump: the programs of each family (no fentry/fexit on 32-bit kernels)");
	else
		CHECK(strstr(text, "\nprograms: 95: 44 kprobe and kretprobe, 16 kprobe_multi, 22 fentry and fexit, 2 tracepoint, 2 helpers, 9 lessons\n"),
		      "dump: the programs of each family");
	check_int("dump: every program listed", listed(text),
		  thirty_two ? 73 : 95);
	CHECK(!strstr(text, "\nshown: "), "dump: no selection said without one");
	CHECK(strstr(text, "call bpf_get_func_ip#173\n"),
	      "dump: a 5.x helper by name");
	CHECK(strstr(text, "\nscan_release: section kprobe/dir_release/scan_release, "),
	      "dump: the scan_release program");
	CHECK(strstr(text, "r1 = PATCH_TGID ll") &&
	      strstr(text, " = PATCH_FACTOR ll") &&
	      strstr(text, " = PATCH_FOPS ll") &&
	      strstr(text, " = PATCH_FOP_OFF ll") &&
	      strstr(text, " = PATCH_SELF ll") &&
	      strstr(text, " = PATCH_IP_READ ll") &&
	      strstr(text, " = PATCH_IP_GETATTR ll") &&
	      strstr(text, " &= PATCH_CPU_MASK\n") &&
	      (thirty_two || (strstr(text, " = PATCH_NARGS_READ ll") &&
			      strstr(text, " = PATCH_NARGS_GETATTR ll"))),
	      "dump: every placeholder by name");
	CHECK(strstr(text, " = map[open_scan] ll") &&
	      strstr(text, " = map[ctl] ll"), "dump: map names");
	CHECK(!strstr(text, ".insn") && !strstr(text, "0x7e57"),
	      "dump: nothing unknown, no raw placeholder");
	/* x86's object: the golden program; another's: its own disassembly. */
	golden = strcmp(bpf_blob_own_arch(), "x86") == 0 ?
		 test_read_file(GOLDEN_PATH, NULL) : own_golden_program();
	CHECK(golden && strstr(text, golden), "dump: contains the golden program");
	free(golden);
	free(text);

	/* --ops fsync: fsync's own programs, kprobe_multi's, the peek. */
	cfg.ops_given = 1;
	cfg.ops_mask = 1u << OP_FSYNC;
	err = dump_text(&cfg, &text, &eb);
	check_int("dump --ops fsync returns 0", err, 0);
	check_int("dump --ops fsync: the programs a fsync run may load",
		  text ? listed(text) : 0,
		  thirty_two ? 27 : 31);
	snprintf(want, sizeof(want), "\nshown: %d of them: those a run tracing fsync may load\n",
		 thirty_two ? 27 : 31);
	CHECK(text && strstr(text, want), "dump --ops fsync: says what it shows");
	CHECK(text && strstr(text, ": section tracepoint/fsync/exit, ") &&
	      strstr(text, ": section kprobe.multi/every_op/ip, ") &&
	      !strstr(text, ": section kprobe/open, ") &&
	      !strstr(text, ": section kprobe/lesson/"),
	      "dump --ops fsync: fsync's, kprobe_multi's, no open's, no lesson");
	free(text);
	/* --prog: a glob on the section, the function or a lesson's name. */
	cfg.ops_given = 0;
	cfg.prog_glob = "kretprobe/fsync*";
	dump_text(&cfg, &text, &eb);
	check_int("dump --prog on sections", text ? listed(text) : 0, 4);
	free(text);
	cfg.prog_glob = "return_fsync";
	dump_text(&cfg, &text, &eb);
	check_int("dump --prog on a function name", text ? listed(text) : 0, 1);
	free(text);
	cfg.prog_glob = "null_*";
	dump_text(&cfg, &text, &eb);
	check_int("dump --prog on lesson names", text ? listed(text) : 0, 2);
	free(text);
	cfg.ops_given = 1;
	cfg.prog_glob = "*past_end";
	err = dump_text(&cfg, &text, &eb);
	check_int("dump --ops and --prog that match nothing: -ENOENT", err,
		  -ENOENT);
	check_str("dump --ops and --prog that match nothing: message", eb.msg,
		  "--dump-bpf: no program matches --prog *past_end");
	free(text);
	cfg.ops_given = 0;
	cfg.prog_glob = NULL;

	f = fopen("/dev/full", "w");
	if (f) {
		err = dump_bpf_mode(DUMP_BPF_TEXT, f, &cfg, &eb);
		fclose(f);
		check_int("dump to /dev/full: -EIO", err, -EIO);
		check_str("dump to /dev/full: message", eb.msg,
			  "--dump-bpf: cannot write the listing");
	}
}

/* xorshift64: the same garbage on every run. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void random_insn(struct bpf_insn *in)
{
	uint64_t r = rnd();

	memcpy(in, &r, sizeof(*in));
}

#ifndef SWEEP_INSNS
#define SWEEP_INSNS 20000
#endif

static void test_garbage(void)
{
	struct bpf_insn *p = calloc(SWEEP_INSNS, sizeof(*p));
	size_t i, empty = 0, bad_slots = 0, bad_cut = 0, unknown = 0;
	char full[256], cut[16];

	if (!CHECK(p, "sweep buffer"))
		return;
	for (i = 0; i < SWEEP_INSNS; i++)
		random_insn(&p[i]);
	/* Every opcode with every src_reg, the rest random. */
	for (i = 0; i < 256 * 16 && i < SWEEP_INSNS; i++) {
		p[i].code = (uint8_t)(i >> 4);
		p[i].src_reg = i & 15;
	}
	for (i = 0; i < SWEEP_INSNS; i++) {
		size_t cut_len = 1 + rnd() % sizeof(cut), want_cut;
		int n;

		n = bpf_disasm_insn(p, SWEEP_INSNS, i, full, sizeof(full));
		if (!full[0])
			empty++;
		if (strncmp(full, ".insn", 5) == 0)
			unknown++;
		if (n != 1 && !(n == 2 && p[i].code == LDDW &&
				i + 1 < SWEEP_INSNS))
			bad_slots++;
		bpf_disasm_insn(p, SWEEP_INSNS, i, cut, cut_len);
		want_cut = strlen(full) < cut_len - 1 ? strlen(full) :
							 cut_len - 1;
		if (strlen(cut) != want_cut || strncmp(cut, full, want_cut))
			bad_cut++;
	}
	printf("# %d random instructions, %zu not understood\n", SWEEP_INSNS,
	       unknown);
	check_int("garbage: no empty text", (long long)empty, 0);
	check_int("garbage: slots are 1, or 2 for ld_imm64", (long long)bad_slots,
		  0);
	check_int("garbage: short buffers hold a prefix", (long long)bad_cut, 0);

	/* A whole random program with random relocations. */
	{
		struct obj_reloc relocs[64];
		struct obj_map maps[2];
		struct bpf_obj obj;
		struct obj_prog prog;
		size_t len = 0, lines = 0;
		char *text = NULL, *s;
		int err = -1;

		memset(&obj, 0, sizeof(obj));
		memset(&prog, 0, sizeof(prog));
		memset(maps, 0, sizeof(maps));
		strcpy(maps[0].name, "a");	/* maps[1] has no name */
		obj.maps = maps;
		obj.nr_maps = 2;
		for (i = 0; i < 64; i++) {
			relocs[i].insn = rnd() % (SWEEP_INSNS + 2);
			relocs[i].map = rnd() % 4;
		}
		strcpy(prog.section, "kprobe/garbage");
		prog.insns = p;
		prog.insn_cnt = SWEEP_INSNS;
		prog.relocs = relocs;
		prog.nr_relocs = 64;
		text = prog_text(&obj, &prog, patch_names, 5, &len, &err);
		check_int("garbage program: returns 0", err, 0);
		for (s = text; s && *s; s++)
			lines += *s == '\n';
		CHECK(text && lines > SWEEP_INSNS / 2 && len && text[len - 1] == '\n',
		      "garbage program: one line per instruction");
		CHECK(text && !strstr(text, ": \n"),
		      "garbage program: no empty instruction text");
		free(text);
	}
	free(p);
}

static const struct test_case test_cases[] = {
	TEST_CASE(each_class),
	TEST_CASE(api_edges),
	TEST_CASE(jump_targets),
	TEST_CASE(hand_program),
	TEST_CASE(golden),
	TEST_CASE(dump_bpf),
	TEST_CASE(garbage),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	patch_names = dump_bpf_placeholders(&nr_patch_names);
	return test_main(argc, argv, test_cases);
}
