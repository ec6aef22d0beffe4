// SPDX-License-Identifier: GPL-2.0
#include "loader/obj/map_value.h"

#include <errno.h>
#include <linux/bpf.h>

#include "loader/obj/bpf_sys.h"
#include "loader/obj/insn.h"
#include "loader/util/kcall.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define JA_0 INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0)

int map_value_probe(int map_fd)
{
	const struct bpf_insn insns[] = {
		INSN(LD_IMM64, 0, BPF_PSEUDO_MAP_VALUE, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		MOV64_IMM(0, 0),
		EXIT(),
	};
	/*
	 * A kprobe program, as ext4dist's own (kern_version 0: not checked
	 * since 5.0, and before 5.2 the answer is no all the same).
	 */
	const struct bpf_prog_load_req req = {
		.type = BPF_PROG_TYPE_KPROBE,
		.insns = insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.license = "GPL",
	};
	int fd;

	kcall_why("whether the kernel loads a map value's address (BPF_PSEUDO_MAP_VALUE, 5.2+): a 4-instruction program that loads one, closed once answered");
	fd = bpf_prog_load_fd(&req);
	if (fd == -EMFILE || fd == -ENFILE)
		return fd;
	if (fd < 0)
		return 0;
	kcall_close(fd, "the map value probe's program: its answer taken");
	return 1;
}

/* Whether in reads or writes register r; jumps and ld_imm64 count as yes. */
static int uses_reg(const struct bpf_insn *in, unsigned int r)
{
	unsigned int cls = BPF_CLASS(in->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		return in->dst_reg == r ||
		       (BPF_SRC(in->code) == BPF_X && in->src_reg == r);
	case BPF_LDX:
	case BPF_STX:
		return in->dst_reg == r || in->src_reg == r;
	case BPF_ST:
		return in->dst_reg == r;
	default:
		return 1;
	}
}

static int is_jump(const struct bpf_insn *in)
{
	unsigned int cls = BPF_CLASS(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) &&
	       BPF_OP(in->code) != BPF_CALL && BPF_OP(in->code) != BPF_EXIT;
}

/* Whether a jump of p (not by 0: that one falls through) lands in [from, to]. */
static int jumped_into(const struct obj_prog *p, size_t from, size_t to)
{
	size_t i;

	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		long long t;

		if (in->code == LD_IMM64) {
			i++;
			continue;
		}
		if (!is_jump(in) || !in->off)
			continue;
		t = (long long)i + 1 + in->off;
		if (t >= (long long)from && t <= (long long)to)
			return 1;
	}
	return 0;
}

/* Whether in computes r2 and nothing else. */
static int sets_r2(const struct bpf_insn *in)
{
	return BPF_CLASS(in->code) == BPF_ALU64 && in->dst_reg == BPF_REG_2;
}

/* Whether instruction t is reached other than by the jump at j. */
static int reached_besides(const struct obj_prog *p, size_t j, size_t t)
{
	size_t i;

	if (t == 0 || t >= p->insn_cnt)
		return 0;
	/* A jump by 0 falls through, as does all but a jump or an exit. */
	if (t - 1 == j || (p->insns[t - 1].code != (BPF_JMP | BPF_JA) &&
			   p->insns[t - 1].code != (BPF_JMP | BPF_EXIT)))
		return 1;
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];

		if (in->code == LD_IMM64) {
			i++;
			continue;
		}
		if (i != j && is_jump(in) && (long long)i + 1 + in->off == (long long)t)
			return 1;
	}
	return 0;
}

/* Whether in writes its dst_reg (and nothing else that matters here). */
static int writes_dst(const struct bpf_insn *in)
{
	unsigned int cls = BPF_CLASS(in->code);

	return cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX ||
	       in->code == LD_IMM64;
}

/*
 * The lookup's null test after the call: the first test for 0 of the
 * address (r0, or a copy of it clang keeps across other calls) along a
 * straight run of code (other tests' fall-throughs); 0 when none.
 */
static size_t null_test_of(const struct obj_prog *p, size_t call)
{
	unsigned int held = 1u << BPF_REG_0;
	size_t i;

	for (i = call + 1; i < p->insn_cnt && held; i++) {
		const struct bpf_insn *in = &p->insns[i];

		if ((in->code == (BPF_JMP | BPF_JEQ | BPF_K) ||
		     in->code == (BPF_JMP | BPF_JNE | BPF_K)) && !in->imm &&
		    (held >> in->dst_reg & 1))
			return i;
		if (in->code == (BPF_JMP | BPF_CALL)) {
			held &= ~0x3fu;		/* r0 to r5 */
			continue;
		}
		if (is_jump(in) && BPF_OP(in->code) != BPF_JA)
			continue;
		if (is_jump(in) || in->code == (BPF_JMP | BPF_EXIT) ||
		    (BPF_CLASS(in->code) == BPF_LD && in->code != LD_IMM64))
			return 0;
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) &&
		    (held >> in->src_reg & 1))
			held |= 1u << in->dst_reg;
		else if (writes_dst(in))
			held &= ~(1u << in->dst_reg);
		if (in->code == LD_IMM64)
			i++;
	}
	return 0;
}

/*
 * The address is never null, so the lookup's null test is never taken:
 * a jump by 0 too, which the verifier drops (it knows the address is
 * not null, but keeps a test whose target other paths reach).  Not
 * where a jump lands between the call and the test, nor where the
 * test's target has no other way in: the verifier refuses a program
 * with an instruction it cannot reach.  clang's other shape, "if r0 !=
 * 0 goto found; goto out", becomes a jump by 0 and one to found (by 0
 * where found is next).  A scan or two of the program a lookup: start-up
 * is guarded.
 */
static void drop_null_test(struct obj_prog *p, size_t call)
{
	size_t t = null_test_of(p, call);
	struct bpf_insn *in = &p->insns[t];

	if (!t)
		return;
	if (in->code == (BPF_JMP | BPF_JEQ | BPF_K)) {
		if (!jumped_into(p, call + 1, t) &&
		    reached_besides(p, t, t + 1 + (size_t)(long long)in->off))
			*in = JA_0;
		return;
	}
	if (in->off >= 1 && t + 1 < p->insn_cnt &&
	    in[1].code == (BPF_JMP | BPF_JA) && in[1].off &&
	    !jumped_into(p, call + 1, t + 1) &&
	    reached_besides(p, t + 1, t + 2 + (size_t)(long long)in[1].off)) {
		in[1].off = (int16_t)(in->off - 1);
		in[0] = JA_0;
	}
}

int map_value_rewrite(struct obj_prog *p, size_t insn, int map_fd)
{
	struct bpf_insn *ld = &p->insns[insn];
	size_t call, first, i;
	int r2_only = 1;

	if (insn + 1 >= p->insn_cnt || ld->code != LD_IMM64)
		return 0;
	if (ld->src_reg == BPF_PSEUDO_MAP_VALUE) {
		ld->imm = map_fd;
		return 1;
	}
	if (ld->dst_reg != BPF_REG_1)
		return 0;
	for (call = insn + 2; call < p->insn_cnt; call++) {
		const struct bpf_insn *in = &p->insns[call];

		if (in->code == (BPF_JMP | BPF_CALL))
			break;
		if (uses_reg(in, BPF_REG_0) || uses_reg(in, BPF_REG_1))
			return 0;
		if (uses_reg(in, BPF_REG_2) && !sets_r2(in))
			r2_only = 0;
	}
	if (call >= p->insn_cnt || p->insns[call].src_reg ||
	    p->insns[call].imm != BPF_FUNC_map_lookup_elem ||
	    jumped_into(p, insn + 1, call))
		return 0;
	/* The key's pointer made just before the map's load (clang's order). */
	for (first = insn; r2_only && first > 0 &&
	     sets_r2(&p->insns[first - 1]) &&
	     (first < 2 || p->insns[first - 2].code != LD_IMM64); first--)
		;
	if (first < insn && jumped_into(p, first + 1, insn))
		first = insn;
	ld->dst_reg = BPF_REG_0;
	ld->src_reg = BPF_PSEUDO_MAP_VALUE;
	ld->imm = map_fd;
	ld[1].imm = 0;		/* the value's offset: key 0's value */
	/*
	 * r1 to r5 are the call's to clobber: nothing after it reads r2
	 * without setting it again (the verifier would refuse the object),
	 * so the key's pointer, made for the call alone, goes with it.
	 */
	for (i = first; r2_only && i < call; i++)
		if (i != insn && i != insn + 1 && uses_reg(&p->insns[i], BPF_REG_2))
			p->insns[i] = JA_0;
	p->insns[call] = JA_0;
	drop_null_test(p, call);
	return 1;
}
