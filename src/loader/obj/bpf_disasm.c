// SPDX-License-Identifier: GPL-2.0
/*
 * BPF instructions as text.  The decoding follows the encoding: the low
 * three bits of the opcode give the class, each class has its printer, and
 * whatever a printer does not recognise (reserved fields set, opcodes from
 * a future kernel, garbage) goes to print_unknown().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/obj/bpf_disasm.h"

/*
 * Opcode parts newer than the oldest UAPI headers this may be built
 * against; the values are part of the kernel ABI and never change.
 */
#ifndef BPF_JMP32
#define BPF_JMP32		0x06	/* 5.1 */
#endif
#ifndef BPF_JLT
#define BPF_JLT			0xa0	/* 4.14 */
#define BPF_JLE			0xb0
#define BPF_JSLT		0xc0
#define BPF_JSLE		0xd0
#endif
#ifndef BPF_ATOMIC
#define BPF_ATOMIC		0xc0	/* 5.12; BPF_XADD before */
#endif
#ifndef BPF_FETCH
#define BPF_FETCH		0x01	/* 5.12 */
#endif
#define ATOMIC_XCHG		(0xe0 | BPF_FETCH)
#define ATOMIC_CMPXCHG		(0xf0 | BPF_FETCH)
#define ATOMIC_LOAD_ACQ		0x100	/* 6.15 */
#define ATOMIC_STORE_REL	0x110	/* 6.15 */
#define MODE_MEMSX		0x80	/* 6.6: sign-extending load */
#define JMP_JCOND		0xe0	/* 6.9: may_goto */
#define ALU64_BSWAP		0x00	/* BPF_ALU64 | BPF_END: 6.6 */
#define PSEUDO_LD_MAP_FD	1
#define PSEUDO_LD_MAP_VALUE	2
#define PSEUDO_LD_BTF_ID	3
#define PSEUDO_LD_FUNC		4
#define PSEUDO_LD_MAP_IDX	5
#define PSEUDO_LD_MAP_IDX_VALUE	6
#define PSEUDO_CALL_LOCAL	1	/* bpf-to-bpf call, pc-relative imm */
#define PSEUDO_CALL_KFUNC	2

#define LD_IMM64		(BPF_LD | BPF_IMM | BPF_DW)

/*
 * Helper names by number, from the UAPI header's own list, so every helper
 * the build host's kernel headers know gets its name.  The list puts the
 * commas itself (up to 6.1 between the entries, from 6.2 after each).
 */
#ifdef __BPF_FUNC_MAPPER
#define HELPER_NAME(x) [BPF_FUNC_##x] = "bpf_" #x
static const char *const helper_names[] = {
	__BPF_FUNC_MAPPER(HELPER_NAME)
};
#undef HELPER_NAME
#else
static const char *const helper_names[] = {
	[1] = "bpf_map_lookup_elem",
	[2] = "bpf_map_update_elem",
	[3] = "bpf_map_delete_elem",
	[4] = "bpf_probe_read",
	[5] = "bpf_ktime_get_ns",
	[6] = "bpf_trace_printk",
	[14] = "bpf_get_current_pid_tgid",
};
#endif

/* Compound assignment of each ALU operation, by BPF_OP(code) >> 4. */
static const char *const alu_ops[16] = {
	[BPF_ADD >> 4] = "+=",
	[BPF_SUB >> 4] = "-=",
	[BPF_MUL >> 4] = "*=",
	[BPF_DIV >> 4] = "/=",
	[BPF_OR >> 4] = "|=",
	[BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=",
	[BPF_RSH >> 4] = ">>=",
	[BPF_MOD >> 4] = "%=",
	[BPF_XOR >> 4] = "^=",
	[BPF_MOV >> 4] = "=",
	[BPF_ARSH >> 4] = "s>>=",
};

/* Comparison of each conditional jump, by BPF_OP(code) >> 4. */
static const char *const jmp_ops[16] = {
	[BPF_JEQ >> 4] = "==",
	[BPF_JGT >> 4] = ">",
	[BPF_JGE >> 4] = ">=",
	[BPF_JSET >> 4] = "&",
	[BPF_JNE >> 4] = "!=",
	[BPF_JSGT >> 4] = "s>",
	[BPF_JSGE >> 4] = "s>=",
	[BPF_JLT >> 4] = "<",
	[BPF_JLE >> 4] = "<=",
	[BPF_JSLT >> 4] = "s<",
	[BPF_JSLE >> 4] = "s<=",
};

/* Bits of an access of BPF_SIZE(code): W, H, B, DW. */
static unsigned int size_bits(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_W:
		return 32;
	case BPF_H:
		return 16;
	case BPF_B:
		return 8;
	default:
		return 64;
	}
}

/* slots 2: an ld_imm64 whose second half's immediate is shown too. */
static void print_unknown(const struct bpf_insn *in, int slots, char *buf,
			  size_t len)
{
	if (slots == 2)
		snprintf(buf, len,
			 ".insn 0x%02x dst=r%u src=r%u off=%d imm=%d imm2=%d",
			 in->code, in->dst_reg, in->src_reg, in->off, in->imm,
			 in[1].imm);
	else
		snprintf(buf, len, ".insn 0x%02x dst=r%u src=r%u off=%d imm=%d",
			 in->code, in->dst_reg, in->src_reg, in->off, in->imm);
}

/* "(u64 *)(r7 - 8)": the address part of a memory access. */
static void addr_text(char *out, size_t len, char sign, unsigned int bits,
		      unsigned int reg, int off)
{
	snprintf(out, len, "(%c%u *)(r%u %c %d)", sign, bits, reg,
		 off < 0 ? '-' : '+', abs(off));
}

/* An immediate compared by a jump: signed hex, "0x10", "-0x1". */
static void jmp_imm_text(char *out, size_t len, int32_t imm)
{
	long long v = imm;

	if (v < 0)
		snprintf(out, len, "-0x%llx", -v);
	else
		snprintf(out, len, "0x%llx", v);
}

/*
 * The printers below return 0 when they wrote the instruction's text, -1
 * when they do not understand it (and wrote nothing).
 */
static int print_alu(const struct bpf_insn *in, char *buf, size_t len)
{
	int is64 = BPF_CLASS(in->code) == BPF_ALU64;
	char r = is64 ? 'r' : 'w';
	unsigned int op = BPF_OP(in->code);
	int is_x = BPF_SRC(in->code) == BPF_X;
	const char *kind;
	char src[16];

	switch (op) {
	case BPF_NEG:
		if (is_x || in->off)
			return -1;
		snprintf(buf, len, "%c%u = -%c%u", r, in->dst_reg, r,
			 in->dst_reg);
		return 0;
	case BPF_END:
		/* ALU: to little or big endian; ALU64 (src bit clear): bswap */
		if (!is64)
			kind = is_x ? "be" : "le";
		else
			kind = is_x ? NULL : "bswap";
		if (!kind || in->off ||
		    (in->imm != 16 && in->imm != 32 && in->imm != 64))
			return -1;
		snprintf(buf, len, "r%u = %s%d r%u", in->dst_reg, kind, in->imm,
			 in->dst_reg);
		return 0;
	}
	if (!alu_ops[op >> 4])
		return -1;
	if (is_x)
		snprintf(src, sizeof(src), "%c%u", r, in->src_reg);
	else
		snprintf(src, sizeof(src), "%d", in->imm);

	if (op == BPF_MOV && is_x &&
	    (in->off == 8 || in->off == 16 || (is64 && in->off == 32))) {
		snprintf(buf, len, "%c%u = (s%d)%s", r, in->dst_reg, in->off,
			 src);
		return 0;
	}
	/*
	 * BPF_ADDR_PERCPU (6.8): a per-CPU address made this CPU's; only
	 * the kernel writes it, inlining per-CPU array lookups.
	 */
	if (op == BPF_MOV && is_x && is64 && in->off == -1) {
		snprintf(buf, len, "r%u = &(void __percpu *)(r%u)", in->dst_reg,
			 in->src_reg);
		return 0;
	}
	if ((op == BPF_DIV || op == BPF_MOD) && in->off == 1) {
		snprintf(buf, len, "%c%u s%s %s", r, in->dst_reg,
			 alu_ops[op >> 4], src);
		return 0;
	}
	/* Every other use of off is an extension this does not know. */
	if (in->off)
		return -1;
	snprintf(buf, len, "%c%u %s %s", r, in->dst_reg, alu_ops[op >> 4], src);
	return 0;
}

/* ld_imm64, both halves present: what the value is depends on src_reg. */
static int print_ld_imm64(const struct bpf_insn *in, char *buf, size_t len)
{
	uint32_t hi = (uint32_t)in[1].imm;
	uint64_t v = ((uint64_t)hi << 32) | (uint32_t)in->imm;
	unsigned int d = in->dst_reg;

	switch (in->src_reg) {
	case 0:
		snprintf(buf, len, "r%u = 0x%llx ll", d, (unsigned long long)v);
		return 0;
	case PSEUDO_LD_MAP_FD:
		snprintf(buf, len, "r%u = map_fd[%d] ll", d, in->imm);
		return 0;
	case PSEUDO_LD_MAP_VALUE:
		snprintf(buf, len, "r%u = map_value_fd[%d] + %u ll", d, in->imm,
			 hi);
		return 0;
	case PSEUDO_LD_BTF_ID:
		snprintf(buf, len, "r%u = btf_id[%d] ll", d, in->imm);
		return 0;
	case PSEUDO_LD_FUNC:
		snprintf(buf, len, "r%u = func[%+d] ll", d, in->imm);
		return 0;
	case PSEUDO_LD_MAP_IDX:
		snprintf(buf, len, "r%u = map_idx[%d] ll", d, in->imm);
		return 0;
	case PSEUDO_LD_MAP_IDX_VALUE:
		snprintf(buf, len, "r%u = map_value_idx[%d] + %u ll", d,
			 in->imm, hi);
		return 0;
	default:
		return -1;
	}
}

/* Class LD: ld_imm64 and the packet loads kept from classic BPF. */
static int print_ld(const struct bpf_insn *in, char *buf, size_t len)
{
	unsigned int mode = BPF_MODE(in->code);
	unsigned int bits = size_bits(in->code);

	if (bits == 64)
		return -1;
	if (mode == BPF_ABS) {
		snprintf(buf, len, "r0 = *(u%u *)skb[%d]", bits, in->imm);
		return 0;
	}
	if (mode == BPF_IND) {
		snprintf(buf, len, "r0 = *(u%u *)skb[r%u %c %lld]", bits,
			 in->src_reg, in->imm < 0 ? '-' : '+',
			 llabs((long long)in->imm));
		return 0;
	}
	return -1;
}

static int print_ldx(const struct bpf_insn *in, char *buf, size_t len)
{
	unsigned int mode = BPF_MODE(in->code);
	unsigned int bits = size_bits(in->code);
	char addr[48];

	if (mode != BPF_MEM && (mode != MODE_MEMSX || bits == 64))
		return -1;
	addr_text(addr, sizeof(addr), mode == BPF_MEM ? 'u' : 's', bits,
		  in->src_reg, in->off);
	snprintf(buf, len, "r%u = *%s", in->dst_reg, addr);
	return 0;
}

static int print_st(const struct bpf_insn *in, char *buf, size_t len)
{
	char addr[48];

	if (BPF_MODE(in->code) != BPF_MEM)
		return -1;
	addr_text(addr, sizeof(addr), 'u', size_bits(in->code), in->dst_reg,
		  in->off);
	snprintf(buf, len, "*%s = %d", addr, in->imm);
	return 0;
}

/* Atomic operations: the operation is in imm, the width in the size. */
static int print_atomic(const struct bpf_insn *in, char *buf, size_t len)
{
	unsigned int bits = size_bits(in->code);
	char r = bits == 64 ? 'r' : 'w';
	const char *name, *sym;
	char addr[48];

	if (in->imm == ATOMIC_LOAD_ACQ) {
		/* Loads from src + off into dst, unlike all the others. */
		addr_text(addr, sizeof(addr), 'u', bits, in->src_reg, in->off);
		snprintf(buf, len, "r%u = load_acquire(%s)", in->dst_reg, addr);
		return 0;
	}
	addr_text(addr, sizeof(addr), 'u', bits, in->dst_reg, in->off);
	if (in->imm == ATOMIC_STORE_REL) {
		snprintf(buf, len, "store_release(%s, r%u)", addr, in->src_reg);
		return 0;
	}
	if (bits != 32 && bits != 64)
		return -1;
	if (in->imm == ATOMIC_XCHG) {
		snprintf(buf, len, "%c%u = atomic_xchg(%s, %c%u)", r,
			 in->src_reg, addr, r, in->src_reg);
		return 0;
	}
	if (in->imm == ATOMIC_CMPXCHG) {
		snprintf(buf, len, "%c0 = atomic_cmpxchg(%s, %c0, %c%u)", r,
			 addr, r, r, in->src_reg);
		return 0;
	}
	switch (in->imm & ~BPF_FETCH) {
	case BPF_ADD:
		name = "add";
		sym = "+=";
		break;
	case BPF_AND:
		name = "and";
		sym = "&=";
		break;
	case BPF_OR:
		name = "or";
		sym = "|=";
		break;
	case BPF_XOR:
		name = "xor";
		sym = "^=";
		break;
	default:
		return -1;
	}
	if (in->imm & BPF_FETCH)
		snprintf(buf, len, "%c%u = atomic_fetch_%s(%s, %c%u)", r,
			 in->src_reg, name, addr, r, in->src_reg);
	else
		snprintf(buf, len, "lock *%s %s %c%u", addr, sym, r,
			 in->src_reg);
	return 0;
}

static int print_stx(const struct bpf_insn *in, char *buf, size_t len)
{
	char addr[48];

	switch (BPF_MODE(in->code)) {
	case BPF_MEM:
		addr_text(addr, sizeof(addr), 'u', size_bits(in->code),
			  in->dst_reg, in->off);
		snprintf(buf, len, "*%s = r%u", addr, in->src_reg);
		return 0;
	case BPF_ATOMIC:
		return print_atomic(in, buf, len);
	default:
		return -1;
	}
}

static int print_call(const struct bpf_insn *in, char *buf, size_t len)
{
	size_t nr = sizeof(helper_names) / sizeof(helper_names[0]);

	switch (in->src_reg) {
	case 0:
		if (in->imm > 0 && (size_t)in->imm < nr &&
		    helper_names[in->imm])
			snprintf(buf, len, "call %s#%d", helper_names[in->imm],
				 in->imm);
		else
			snprintf(buf, len, "call #%d", in->imm);
		return 0;
	case PSEUDO_CALL_LOCAL:
		snprintf(buf, len, "call %+d", in->imm);
		return 0;
	case PSEUDO_CALL_KFUNC:
		snprintf(buf, len, "call kfunc#%d", in->imm);
		return 0;
	default:
		return -1;
	}
}

static int print_jmp(const struct bpf_insn *in, char *buf, size_t len)
{
	int is32 = BPF_CLASS(in->code) == BPF_JMP32;
	char r = is32 ? 'w' : 'r';
	unsigned int op = BPF_OP(in->code);
	char src[24];

	switch (op) {
	case BPF_JA:
		if (is32)
			snprintf(buf, len, "gotol %+d", in->imm);
		else
			snprintf(buf, len, "goto %+d", in->off);
		return 0;
	case BPF_CALL:
		return is32 ? -1 : print_call(in, buf, len);
	case BPF_EXIT:
		if (is32)
			return -1;
		snprintf(buf, len, "exit");
		return 0;
	case JMP_JCOND:
		if (is32 || in->src_reg)
			return -1;
		snprintf(buf, len, "may_goto %+d", in->off);
		return 0;
	}
	if (!jmp_ops[op >> 4])
		return -1;
	if (BPF_SRC(in->code) == BPF_X)
		snprintf(src, sizeof(src), "%c%u", r, in->src_reg);
	else
		jmp_imm_text(src, sizeof(src), in->imm);
	snprintf(buf, len, "if %c%u %s %s goto %+d", r, in->dst_reg,
		 jmp_ops[op >> 4], src, in->off);
	return 0;
}

/*
 * Text of insns[i] into buf; returns the slots used and sets *known to
 * whether the instruction was understood.
 */
static int disasm(const struct bpf_insn *insns, size_t cnt, size_t i,
		  char *buf, size_t len, int *known)
{
	const struct bpf_insn *in = &insns[i];
	int slots = 1, err;

	switch (BPF_CLASS(in->code)) {
	case BPF_LD:
		if (in->code == LD_IMM64 && i + 1 < cnt) {
			slots = 2;
			err = print_ld_imm64(in, buf, len);
		} else {
			err = print_ld(in, buf, len);
		}
		break;
	case BPF_LDX:
		err = print_ldx(in, buf, len);
		break;
	case BPF_ST:
		err = print_st(in, buf, len);
		break;
	case BPF_STX:
		err = print_stx(in, buf, len);
		break;
	case BPF_ALU:
	case BPF_ALU64:
		err = print_alu(in, buf, len);
		break;
	default:	/* BPF_JMP, BPF_JMP32: the class has three bits */
		err = print_jmp(in, buf, len);
		break;
	}
	if (err)
		print_unknown(in, slots, buf, len);
	*known = !err;
	return slots;
}

int bpf_disasm_insn(const struct bpf_insn *insns, size_t cnt, size_t i,
		    char *buf, size_t len)
{
	char scratch[1];
	int known;

	if (!insns || i >= cnt)
		return -EINVAL;
	if (!buf || !len) {
		buf = scratch;
		len = sizeof(scratch);
	}
	return disasm(insns, cnt, i, buf, len, &known);
}

int bpf_disasm_jump_target(const struct bpf_insn *insns, size_t cnt, size_t i,
			   long long *target)
{
	const struct bpf_insn *in;
	unsigned int cls, op;
	char scratch[1];
	long long rel;
	int known;

	if (!insns || i >= cnt)
		return 0;
	in = &insns[i];
	cls = BPF_CLASS(in->code);
	op = BPF_OP(in->code);
	if (cls != BPF_JMP && cls != BPF_JMP32)
		return 0;
	/* Only what the printer understood counts as a jump. */
	disasm(insns, cnt, i, scratch, sizeof(scratch), &known);
	if (!known || op == BPF_EXIT)
		return 0;
	if (op == BPF_CALL) {
		if (in->src_reg != PSEUDO_CALL_LOCAL)
			return 0;
		rel = in->imm;
	} else if (op == BPF_JA && cls == BPF_JMP32) {
		rel = in->imm;
	} else {
		rel = in->off;
	}
	*target = (long long)i + 1 + rel;
	return 1;
}

/* "start" for an ld_imm64 that a relocation ties to a map, else NULL. */
static const char *reloc_map_name(const struct bpf_obj *obj,
				  const struct obj_prog *p, size_t i,
				  char *tmp, size_t len)
{
	size_t k, m;

	for (k = 0; p->relocs && k < p->nr_relocs; k++) {
		if (p->relocs[k].insn != i)
			continue;
		m = p->relocs[k].map;
		if (obj && m < obj->nr_maps && obj->maps[m].name[0])
			snprintf(tmp, len, "%.63s", obj->maps[m].name);
		else
			snprintf(tmp, len, "#%zu", m);
		return tmp;
	}
	return NULL;
}

/* One instruction of a program, with what the program knows around it. */
static int prog_line(const struct bpf_obj *obj, const struct obj_prog *p,
		     size_t i, const struct bpf_disasm_name *names,
		     size_t nr_names, char *buf, size_t len)
{
	const struct bpf_insn *in = &p->insns[i];
	char text[160], map[72];
	const char *op;
	long long target;
	size_t k;
	int n;

	if (in->code == LD_IMM64 && i + 1 < p->insn_cnt) {
		uint64_t v = ((uint64_t)(uint32_t)in[1].imm << 32) |
			     (uint32_t)in->imm;

		if (reloc_map_name(obj, p, i, map, sizeof(map))) {
			snprintf(buf, len, "r%u = map[%s] ll", in->dst_reg,
				 map);
			return 2;
		}
		for (k = 0; names && in->src_reg == 0 && k < nr_names; k++) {
			if (names[k].name && names[k].value == v) {
				snprintf(buf, len, "r%u = %s ll", in->dst_reg,
					 names[k].name);
				return 2;
			}
		}
	}
	/*
	 * A mask patched into an AND's immediate (PATCH_START_MASK,
	 * PATCH_CPU_MASK), a shift into a right shift's (PATCH_START_SHIFT),
	 * a factor into a multiply's (PATCH_START_STRIDE).
	 */
	op = in->code == (BPF_ALU64 | BPF_AND | BPF_K) ? "&=" :
	     in->code == (BPF_ALU64 | BPF_RSH | BPF_K) ? ">>=" :
	     in->code == (BPF_ALU64 | BPF_MUL | BPF_K) ? "*=" : NULL;
	for (k = 0; op && names && k < nr_names; k++) {
		if (names[k].name && names[k].value == (uint64_t)(int64_t)in->imm) {
			snprintf(buf, len, "r%u %s %s", in->dst_reg, op,
				 names[k].name);
			return 1;
		}
	}
	n = bpf_disasm_insn(p->insns, p->insn_cnt, i, text, sizeof(text));
	if (!bpf_disasm_jump_target(p->insns, p->insn_cnt, i, &target))
		snprintf(buf, len, "%s", text);
	else if (target >= 0 && (unsigned long long)target < p->insn_cnt)
		snprintf(buf, len, "%s <L%lld>", text, target);
	else
		snprintf(buf, len, "%s <L%lld outside>", text, target);
	return n;
}

/*
 * The C line above instruction i, when the line changes there, or comes
 * back after instructions of line 0 (as llvm-objdump -S prints it):
 * "; bpf/ext4dist.bpf.c:123: if (!s || !c)".
 * *li walks p->lines, *last is the line printed last.
 */
static void source_line(FILE *f, const struct obj_prog *p, size_t i,
			size_t *li, const struct obj_line **last)
{
	const struct obj_line *l = NULL;
	const char *text;

	while (*li < p->nr_lines && p->lines[*li].insn <= i)
		l = &p->lines[(*li)++];
	if (!l)
		return;
	/* Line 0: code of no line (compiler-made); what follows is new. */
	if (!l->line) {
		*last = NULL;
		return;
	}
	if (*last && (*last)->line == l->line &&
	    strcmp((*last)->file, l->file) == 0)
		return;
	*last = l;
	for (text = l->text; *text == ' ' || *text == '\t'; text++)
		;
	/* -fdebug-prefix-map made the build directory "." */
	fprintf(f, "; %s:%u:%s%s\n",
		strncmp(l->file, "./", 2) ? l->file : l->file + 2, l->line,
		*text ? " " : "", text);
}

int bpf_disasm_prog_named(FILE *f, const struct bpf_obj *obj,
			  const struct obj_prog *p,
			  const struct bpf_disasm_name *names, size_t nr_names)
{
	const struct obj_line *last = NULL;
	char line[256];
	size_t i, li = 0;
	int n;

	fprintf(f, "%.63s: section %.127s, %zu instructions\n",
		p->name[0] ? p->name : "(no symbol)", p->section, p->insn_cnt);
	for (i = 0; p->insns && i < p->insn_cnt; i += (size_t)n) {
		source_line(f, p, i, &li, &last);
		n = prog_line(obj, p, i, names, nr_names, line, sizeof(line));
		fprintf(f, "%4zu: %s\n", i, line);
	}
	return ferror(f) ? -EIO : 0;
}
