// SPDX-License-Identifier: GPL-2.0
#include "loader/obj/map_value.h"

#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include "loader/obj/bpf_sys.h"
#include "loader/obj/insn.h"
#include "loader/util/kcall.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define JA_0 INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0)

int map_value_is_nop(const struct bpf_insn *in)
{
	return in->code == (BPF_JMP | BPF_JA) && !in->dst_reg &&
	       !in->src_reg && !in->off && !in->imm;
}

int map_value_is_load(const struct bpf_insn *in)
{
	return in->code == LD_IMM64 && in->src_reg == BPF_PSEUDO_MAP_VALUE;
}

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

/*
 * Dead key stores.  A lookup read by address leaves its key's store on
 * the stack (and the value clang moved into r1 for it) with no reader:
 * both become jumps by 0 where nothing else of the program can read the
 * key's bytes.  Stack bytes are indexed by their offset from r10 plus
 * STACK_BYTES (MAX_BPF_STACK, 512).
 */
#define STACK_BYTES 512

static unsigned int access_size(const struct bpf_insn *in)
{
	static const unsigned int size[] = { 4, 2, 1, 8 };

	return size[BPF_SIZE(in->code) >> 3];
}

/* Marks [off, off + n) of the stack as read; off outside it: all of it. */
static void mark_read(unsigned char *rd, long long off, long long n)
{
	long long i;

	if (off < -STACK_BYTES || off + n > 0) {
		memset(rd, 1, STACK_BYTES);
		return;
	}
	for (i = off; i < off + n; i++)
		rd[i + STACK_BYTES] = 1;
}

/*
 * The key size of a lookup whose key's pointer r2 = r10 + off is made
 * at i, straight before the map's load into r1 and the call (clang's
 * order): no jump in that run, so this pointer reaches only that call,
 * which reads the map's key_size bytes of it.  0 when not that shape.
 */
static unsigned int lookup_key_at(const struct obj_prog *p,
				  const struct obj_map *maps, size_t i)
{
	const struct bpf_insn *in = &p->insns[i];
	size_t k;

	if (i + 4 >= p->insn_cnt || in->dst_reg != BPF_REG_2 ||
	    BPF_CLASS(in[1].code) != BPF_ALU64 ||
	    BPF_OP(in[1].code) != BPF_ADD || BPF_SRC(in[1].code) != BPF_K ||
	    in[1].dst_reg != BPF_REG_2 || in[2].code != LD_IMM64 ||
	    in[2].dst_reg != BPF_REG_1 || in[4].code != (BPF_JMP | BPF_CALL) ||
	    in[4].src_reg || in[4].imm != BPF_FUNC_map_lookup_elem)
		return 0;
	for (k = 0; k < p->nr_relocs; k++)
		if (p->relocs[k].insn == i + 2)
			return maps[p->relocs[k].map].def.key_size;
	return 0;
}

/*
 * Which bytes of p's stack something may read: loads from r10, and
 * every pointer made from r10.  A pointer is followed only into the
 * lookup it is made for (lookup_key_at); any other may go anywhere and
 * is taken to read all of the stack.
 */
static void stack_reads(const struct obj_prog *p, const struct obj_map *maps,
			unsigned char *rd)
{
	size_t i;

	memset(rd, 0, STACK_BYTES);
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		unsigned int cls = BPF_CLASS(in->code), n;

		if (in->code == LD_IMM64) {
			i++;
			continue;
		}
		/* A load, or an atomic operation (which reads as it writes). */
		if ((cls == BPF_LDX && in->src_reg == BPF_REG_10) ||
		    (cls == BPF_STX && BPF_MODE(in->code) != BPF_MEM &&
		     in->dst_reg == BPF_REG_10)) {
			mark_read(rd, in->off, access_size(in));
		} else if (((cls == BPF_ALU || cls == BPF_ALU64) &&
			    BPF_SRC(in->code) == BPF_X &&
			    in->src_reg == BPF_REG_10) ||
			   (cls == BPF_STX && in->src_reg == BPF_REG_10)) {
			n = in->code == (BPF_ALU64 | BPF_MOV | BPF_X) ?
			    lookup_key_at(p, maps, i) : 0;
			if (!n)
				mark_read(rd, -STACK_BYTES, STACK_BYTES);
			else
				mark_read(rd, in[1].imm, n);
		}
	}
}

static int unread(const unsigned char *rd, long long off, unsigned int n)
{
	unsigned int i;

	if (off < -STACK_BYTES || off + n > 0)
		return 0;
	for (i = 0; i < n; i++)
		if (rd[off + STACK_BYTES + i])
			return 0;
	return 1;
}

/*
 * Whether the store at s is a key's, for the lookup rewritten at the
 * value's load after it (only jumps by 0 between): its r1 was the map's
 * until that load, read by nothing else (map_value_rewrite).
 */
static int key_store_of_rewrite(const struct obj_prog *p, size_t s)
{
	size_t k;

	for (k = s + 1; k < p->insn_cnt && map_value_is_nop(&p->insns[k]); k++)
		;
	return k > s + 1 && k < p->insn_cnt &&
	       map_value_is_load(&p->insns[k]) &&
	       p->insns[k].dst_reg == BPF_REG_0;
}

/*
 * The constant clang moved into r1 for the key's store at s alone: along
 * straight code before s, nothing else reads it, and the map's load
 * after s overwrote it in the program as compiled.
 */
static int drop_key_value(struct obj_prog *p, size_t s)
{
	size_t j;

	for (j = s; j > 0; j--) {
		struct bpf_insn *in = &p->insns[j - 1];

		if ((in->code == (BPF_ALU64 | BPF_MOV | BPF_K) ||
		     in->code == (BPF_ALU | BPF_MOV | BPF_K)) &&
		    in->dst_reg == BPF_REG_1 &&
		    (j < 2 || p->insns[j - 2].code != LD_IMM64)) {
			*in = JA_0;
			return 1;
		}
		if (uses_reg(in, BPF_REG_1))
			return 0;
	}
	return 0;
}

int map_value_drop_keys(struct obj_prog *p, const struct obj_map *maps)
{
	unsigned char rd[STACK_BYTES];
	size_t i;
	int n = 0;

	stack_reads(p, maps, rd);
	for (i = 0; i < p->insn_cnt; i++) {
		struct bpf_insn *in = &p->insns[i];
		unsigned int cls = BPF_CLASS(in->code);

		if (in->code == LD_IMM64) {
			i++;
			continue;
		}
		if ((cls != BPF_ST && cls != BPF_STX) ||
		    BPF_MODE(in->code) != BPF_MEM ||
		    in->dst_reg != BPF_REG_10 ||
		    !unread(rd, in->off, access_size(in)) ||
		    !key_store_of_rewrite(p, i))
			continue;
		if (cls == BPF_STX && in->src_reg == BPF_REG_1)
			n += drop_key_value(p, i);
		*in = JA_0;
		n++;
	}
	return n;
}
