// SPDX-License-Identifier: GPL-2.0
/*
 * loader/obj/map_value.c: which lookups become reads of the value's
 * address, instruction by instruction, and that every return program of
 * the embedded object has the shape for its ctl lookup.
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "loader/obj/elf_obj.h"
#include "loader/obj/insn.h"
#include "loader/obj/map_value.h"
#include "loader/obj/nops.h"
#include "ext4dist_abi.h"
#include "tool/engine/bpf_blob.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define LD_MAP(dst) INSN(LD_IMM64, dst, 0, 0, 0), INSN(0, 0, 0, 0, 0)
#define STW_KEY INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_1, -4, 0)
#define JA(off) INSN(BPF_JMP | BPF_JA, 0, 0, off, 0)
#define JEQ0(r, off) INSN(BPF_JMP | BPF_JEQ | BPF_K, r, 0, off, 0)
#define FD 7

/* clang's ctl lookup in a return program (the key's store first). */
static const struct bpf_insn clang_shape[] = {
	MOV64_IMM(BPF_REG_1, 0),		/* 0 */
	STW_KEY,				/* 1 */
	MOV64_REG(BPF_REG_2, BPF_REG_10),	/* 2 */
	ADD64_IMM(BPF_REG_2, -4),		/* 3 */
	LD_MAP(BPF_REG_1),			/* 4, 5 */
	CALL(BPF_FUNC_map_lookup_elem),		/* 6 */
	JEQ0(BPF_REG_0, 1),			/* 7 */
	LDX_DW(BPF_REG_1, BPF_REG_0, 0),	/* 8 */
	MOV64_IMM(BPF_REG_0, 0),		/* 9 */
	EXIT(),					/* 10 */
};

struct prog_copy {
	struct obj_prog p;
	struct bpf_insn in[24];
};

static struct obj_prog *copy_of(struct prog_copy *c, const struct bpf_insn *in,
				size_t n)
{
	memset(c, 0, sizeof(*c));
	memcpy(c->in, in, n * sizeof(*in));
	c->p.insns = c->in;
	c->p.insn_cnt = n;
	return &c->p;
}

static int same(const struct bpf_insn *a, const struct bpf_insn *b)
{
	return a->code == b->code && a->dst_reg == b->dst_reg &&
	       a->src_reg == b->src_reg && a->off == b->off && a->imm == b->imm;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_clang_shape(void)
{
	const struct bpf_insn want[] = {
		MOV64_IMM(BPF_REG_1, 0),
		STW_KEY,
		JA(0),
		JA(0),
		INSN(LD_IMM64, BPF_REG_0, BPF_PSEUDO_MAP_VALUE, 0, FD),
		INSN(0, 0, 0, 0, 0),
		JA(0),
		JA(0),		/* the null test: never taken */
		LDX_DW(BPF_REG_1, BPF_REG_0, 0),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	struct prog_copy c;
	struct obj_prog *p = copy_of(&c, clang_shape, N(clang_shape));
	size_t i, diff = 0;

	check_int("clang's shape: rewritten", map_value_rewrite(p, 4, FD), 1);
	for (i = 0; i < N(want); i++)
		diff += !same(&p->insns[i], &want[i]);
	check_int("clang's shape: the key's pointer, the call and the null test are jumps by 0, r0 the value's address",
		  (long long)diff, 0);
	/* A program loaded again (after a refused attach) keeps its shape. */
	check_int("loaded again: still rewritten", map_value_rewrite(p, 4, FD + 1), 1);
	check_int("loaded again: the map's new fd", p->insns[4].imm, FD + 1);
	check_int("loaded again: r0", p->insns[4].dst_reg, BPF_REG_0);
}

/* Each shape the rewrite must leave alone: every instruction as it was. */
static void untouched(const char *name, const struct bpf_insn *in, size_t n,
		      size_t ld)
{
	struct prog_copy c;
	struct obj_prog *p = copy_of(&c, in, n);
	char what[160];
	size_t i, diff = 0;

	snprintf(what, sizeof(what), "%s: not rewritten", name);
	check_int(what, map_value_rewrite(p, ld, FD), 0);
	for (i = 0; i < n; i++)
		diff += !same(&p->insns[i], &in[i]);
	snprintf(what, sizeof(what), "%s: nothing changed", name);
	check_int(what, (long long)diff, 0);
}

static void test_other_shapes(void)
{
	const struct bpf_insn into_r2[] = {
		LD_MAP(BPF_REG_2), CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn r0_between[] = {
		LD_MAP(BPF_REG_1), MOV64_IMM(BPF_REG_0, 1),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn r1_read_between[] = {
		LD_MAP(BPF_REG_1), MOV64_REG(BPF_REG_3, BPF_REG_1),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn other_helper[] = {
		LD_MAP(BPF_REG_1), CALL(BPF_FUNC_perf_event_output), EXIT(),
	};
	const struct bpf_insn branch_between[] = {
		LD_MAP(BPF_REG_1), JEQ0(BPF_REG_3, 0),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn landing_between[] = {
		JEQ0(BPF_REG_3, 3), LD_MAP(BPF_REG_1),
		ADD64_IMM(BPF_REG_2, -4), CALL(BPF_FUNC_map_lookup_elem),
		EXIT(),
	};
	const struct bpf_insn no_call[] = {
		LD_MAP(BPF_REG_1), MOV64_IMM(BPF_REG_0, 0), EXIT(),
	};

	untouched("map into r2", into_r2, N(into_r2), 0);
	untouched("r0 set between", r0_between, N(r0_between), 0);
	untouched("r1 read between", r1_read_between, N(r1_read_between), 0);
	untouched("another helper", other_helper, N(other_helper), 0);
	untouched("a branch between", branch_between, N(branch_between), 0);
	untouched("a jump landing between", landing_between,
		  N(landing_between), 1);
	untouched("no call", no_call, N(no_call), 0);
}

/* The key's pointer stays where something else reads r2 or jumps in. */
static void test_key_pointer_kept(void)
{
	const struct bpf_insn r2_read[] = {
		MOV64_REG(BPF_REG_2, BPF_REG_10), ADD64_IMM(BPF_REG_2, -4),
		LD_MAP(BPF_REG_1),
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_2, 0, 0, 0),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn jumped_to[] = {
		JEQ0(BPF_REG_3, 1), MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4), LD_MAP(BPF_REG_1),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	struct prog_copy c;
	struct obj_prog *p = copy_of(&c, r2_read, N(r2_read));

	check_int("r2 read by a store: rewritten", map_value_rewrite(p, 2, FD), 1);
	CHECK(same(&p->insns[0], &r2_read[0]) && same(&p->insns[1], &r2_read[1]) &&
	      same(&p->insns[4], &r2_read[4]),
	      "r2 read by a store: its set-up and the store kept");
	CHECK(same(&p->insns[5], &(struct bpf_insn)JA(0)),
	      "r2 read by a store: the call a jump by 0");
	p = copy_of(&c, jumped_to, N(jumped_to));
	check_int("a jump to the key's pointer: rewritten", map_value_rewrite(p, 3, FD), 1);
	CHECK(same(&p->insns[1], &jumped_to[1]) && same(&p->insns[2], &jumped_to[2]),
	      "a jump to the key's pointer: r2's set-up kept");
}

/* The lookup of clang's entry program, the address kept in r7. */
#define ENTRY_LOOKUP							\
	LD_MAP(BPF_REG_1),			/* 0, 1 */		\
	CALL(BPF_FUNC_map_lookup_elem),		/* 2 */			\
	MOV64_REG(BPF_REG_7, BPF_REG_0),	/* 3 */			\
	CALL(BPF_FUNC_get_current_pid_tgid),	/* 4: r0 clobbered */	\
	MOV64_REG(BPF_REG_8, BPF_REG_0)		/* 5 */

/*
 * The null test is dropped where it tests the address, in r0 or in a
 * copy, and its target has another way in; else it stays.
 */
static void test_null_test(void)
{
	const struct bpf_insn copied[] = {
		ENTRY_LOOKUP,
		JEQ0(BPF_REG_8, 2),			/* 6: not the address */
		JEQ0(BPF_REG_7, 1),			/* 7 */
		LDX_DW(BPF_REG_1, BPF_REG_7, 0),	/* 8 */
		MOV64_IMM(BPF_REG_0, 0),		/* 9 */
		EXIT(),
	};
	const struct bpf_insn only_way[] = {
		ENTRY_LOOKUP,
		JEQ0(BPF_REG_7, 2),			/* 6 */
		LDX_DW(BPF_REG_1, BPF_REG_7, 0),	/* 7 */
		EXIT(),					/* 8 */
		MOV64_IMM(BPF_REG_0, 0),		/* 9: reached by 6 alone */
		EXIT(),
	};
	const struct bpf_insn clobbered[] = {
		ENTRY_LOOKUP,
		JEQ0(BPF_REG_0, 1),			/* 6: r0 is the pid's */
		LDX_DW(BPF_REG_1, BPF_REG_7, 0),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	const struct bpf_insn landing[] = {
		ENTRY_LOOKUP,
		JEQ0(BPF_REG_8, 1),			/* 6: lands on 8 */
		MOV64_IMM(BPF_REG_0, 1),		/* 7 */
		JEQ0(BPF_REG_7, 1),			/* 8 */
		LDX_DW(BPF_REG_1, BPF_REG_7, 0),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	struct prog_copy c;
	struct obj_prog *p = copy_of(&c, copied, N(copied));

	check_int("a copy's test: rewritten", map_value_rewrite(p, 0, FD), 1);
	CHECK(same(&p->insns[7], &(struct bpf_insn)JA(0)),
	      "a copy's test: a jump by 0");
	CHECK(same(&p->insns[6], &copied[6]), "another register's test: kept");
	p = copy_of(&c, only_way, N(only_way));
	map_value_rewrite(p, 0, FD);
	CHECK(same(&p->insns[6], &only_way[6]),
	      "a test whose target nothing else reaches: kept");
	p = copy_of(&c, clobbered, N(clobbered));
	map_value_rewrite(p, 0, FD);
	CHECK(same(&p->insns[6], &clobbered[6]),
	      "r0 after another call: its test kept");
	p = copy_of(&c, landing, N(landing));
	map_value_rewrite(p, 0, FD);
	CHECK(same(&p->insns[8], &landing[8]),
	      "a test that a jump lands on: kept");
}

/* How many null tests (if rX == 0, if rX != 0) of p are jumps by 0 in q. */
static int tests_dropped(const struct bpf_insn *p, const struct bpf_insn *q,
			 size_t n)
{
	const struct bpf_insn ja = JA(0);
	size_t i;
	int d = 0;

	for (i = 0; i < n; i++)
		d += (p[i].code == (BPF_JMP | BPF_JEQ | BPF_K) ||
		      p[i].code == (BPF_JMP | BPF_JNE | BPF_K)) && !p[i].imm &&
		     same(&q[i], &ja);
	return d;
}

/*
 * Rewrites every lookup of map in p: 0 when p has none, else CHECKs
 * that each was read by address and lost its null test (1) or not (-1).
 */
static int rewrite_all(const struct bpf_obj *obj, struct obj_prog *p,
		       const char *map)
{
	struct bpf_insn *was;
	char name[320];
	int n = 0, lookups = 0, dropped;
	size_t k;

	for (k = 0; k < p->nr_relocs; k++)
		lookups += !strcmp(obj->maps[p->relocs[k].map].name, map);
	if (!lookups)
		return 0;
	was = malloc(p->insn_cnt * sizeof(*was));
	if (!CHECK(was, "malloc"))
		return -1;
	memcpy(was, p->insns, p->insn_cnt * sizeof(*was));
	for (k = 0; k < p->nr_relocs; k++)
		if (!strcmp(obj->maps[p->relocs[k].map].name, map))
			n += map_value_rewrite(p, p->relocs[k].insn, FD);
	dropped = tests_dropped(was, p->insns, p->insn_cnt);
	free(was);
	snprintf(name, sizeof(name), "%s: %d of its %d %s lookup%s read by address, %d null test%s dropped",
		 p->section, n, lookups, map, lookups == 1 ? "" : "s",
		 dropped, dropped == 1 ? "" : "s");
	return CHECK(n == lookups && dropped == lookups, name) ? 1 : -1;
}

/* A key's pointer into a lookup of the map of relocation 0 (ld at 2, 3). */
#define KEY_LOOKUP(off)							\
	MOV64_REG(BPF_REG_2, BPF_REG_10), ADD64_IMM(BPF_REG_2, off),	\
	LD_MAP(BPF_REG_1), CALL(BPF_FUNC_map_lookup_elem)

/*
 * clang's entry: start's key 0 at -4 and its lookup (0 to 6, rewritten
 * first), then calls' key at -8 looked up (7, 8 and from 9), then what
 * each case puts at 14 and 15.
 */
#define DROP_SHAPE(a, b)						\
	MOV64_IMM(BPF_REG_1, 0),		/* 0 */			\
	STW_KEY,				/* 1 */			\
	MOV64_REG(BPF_REG_2, BPF_REG_10),	/* 2 */			\
	ADD64_IMM(BPF_REG_2, -4),		/* 3 */			\
	LD_MAP(BPF_REG_1),			/* 4, 5 */		\
	CALL(BPF_FUNC_map_lookup_elem),		/* 6 */			\
	MOV64_IMM(BPF_REG_1, 1),		/* 7 */			\
	INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_1, -8, 0),	\
	KEY_LOOKUP(-8),				/* 9 to 13 */		\
	a, b,					/* 14, 15 */		\
	MOV64_IMM(BPF_REG_0, 0),		/* 16 */		\
	EXIT()					/* 17 */

struct drop_case {
	const char *name;
	struct bpf_insn in[18];
	unsigned int key_size;	/* the map of the lookup at 9 */
	int dropped;		/* map_value_drop_keys()'s count */
};

/*
 * Which key stores go: only one no other reader may reach, each a case
 * the patcher must or must not touch.
 */
static void test_drop_keys(void)
{
	const struct bpf_insn nop = MOV64_REG(BPF_REG_3, BPF_REG_3);
	const struct drop_case cases[] = {
		{ "another lookup's key below it", { DROP_SHAPE(nop, nop) }, 4, 2 },
		{ "a key of 8 bytes over it", { DROP_SHAPE(nop, nop) }, 8, 0 },
		{ "a load of its bytes", { DROP_SHAPE(
			LDX_DW(BPF_REG_3, BPF_REG_10, -8), nop) }, 4, 0 },
		{ "a load of the bytes below", { DROP_SHAPE(
			INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, BPF_REG_10, -8, 0),
			nop) }, 4, 2 },
		{ "another pointer from r10", { DROP_SHAPE(
			MOV64_REG(BPF_REG_3, BPF_REG_10),
			ADD64_IMM(BPF_REG_3, -64)) }, 4, 0 },
		{ "r10 stored", { DROP_SHAPE(
			STX_DW(BPF_REG_7, BPF_REG_10, 0), nop) }, 4, 0 },
		{ "an atomic add to its bytes", { DROP_SHAPE(
			INSN(BPF_STX | BPF_ATOMIC | BPF_W, BPF_REG_10, BPF_REG_3,
			     -4, BPF_ADD), nop) }, 4, 0 },
	};
	struct prog_copy c;
	struct obj_reloc relocs[] = { { 4, 0 }, { 11, 1 } };
	struct obj_map maps[2];
	char what[160];
	size_t k, i;

	memset(maps, 0, sizeof(maps));
	maps[0].def.key_size = 4;
	for (k = 0; k < N(cases); k++) {
		const struct drop_case *dc = &cases[k];
		struct obj_prog *p = copy_of(&c, dc->in, N(dc->in));
		size_t diff = 0;

		p->relocs = relocs;
		p->nr_relocs = N(relocs);
		maps[1].def.key_size = dc->key_size;
		map_value_rewrite(p, 4, FD);
		snprintf(what, sizeof(what), "%s: instructions dropped", dc->name);
		check_int(what, map_value_drop_keys(p, maps), dc->dropped);
		for (i = 0; i < 2; i++)
			diff += !same(&p->insns[i], dc->dropped ?
				      &(struct bpf_insn)JA(0) : &dc->in[i]);
		for (i = 7; i < N(dc->in); i++)
			diff += !same(&p->insns[i], &dc->in[i]);
		snprintf(what, sizeof(what), "%s: %s, all else as it was", dc->name,
			 dc->dropped ? "the key's value and store jumps by 0" :
				       "the key's value and store kept");
		check_int(what, (long long)diff, 0);
	}
}

/* The value moved into r1 stays where something else reads it first. */
static void test_drop_keys_value(void)
{
	const struct bpf_insn read_between[] = {
		MOV64_IMM(BPF_REG_1, 0), MOV64_REG(BPF_REG_3, BPF_REG_1),
		STW_KEY, MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4), LD_MAP(BPF_REG_1),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn other_between[] = {
		MOV64_IMM(BPF_REG_1, 0), MOV64_REG(BPF_REG_9, BPF_REG_2),
		STW_KEY, MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4), LD_MAP(BPF_REG_1),
		CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	const struct bpf_insn not_rewritten[] = {
		MOV64_IMM(BPF_REG_1, 0), STW_KEY, EXIT(),
	};
	const struct bpf_insn ja = JA(0);
	struct obj_map map;
	struct prog_copy c;
	struct obj_prog *p = copy_of(&c, read_between, N(read_between));

	memset(&map, 0, sizeof(map));
	map_value_rewrite(p, 5, FD);
	check_int("r1 read before the store: one dropped", map_value_drop_keys(p, &map), 1);
	CHECK(same(&p->insns[0], &read_between[0]) && same(&p->insns[2], &ja),
	      "r1 read before the store: the store alone a jump by 0");
	p = copy_of(&c, other_between, N(other_between));
	map_value_rewrite(p, 5, FD);
	check_int("clang's ctl key (r9 = r2 between): both dropped",
		  map_value_drop_keys(p, &map), 2);
	CHECK(same(&p->insns[0], &ja) && same(&p->insns[1], &other_between[1]) &&
	      same(&p->insns[2], &ja),
	      "clang's ctl key: the value and the store jumps by 0, r9 = r2 kept");
	p = copy_of(&c, not_rewritten, N(not_rewritten));
	check_int("a store of no lookup read by address: kept",
		  map_value_drop_keys(p, &map), 0);
}

/*
 * After its lookups were rewritten, a histogram program with plain adds
 * (what runs where values are read by address: the atomic twins are for
 * kernels before 4.6) loses each one's key, its store and the value
 * moved into r1 for it: two instructions a lookup.  Any other program
 * loses at most that (a slow mode one passes its stack to other helpers
 * and keeps most; an atomic twin's ctl key is a register clang zeroed
 * for another use too, and only its store goes).
 */
static void keys_dropped(struct obj_prog *p, const struct obj_map *maps)
{
	size_t i, lookups = 0, pointers = 0;
	char name[320];
	int want, got;

	for (i = 0; i < p->insn_cnt; i++) {
		lookups += p->insns[i].code == LD_IMM64 &&
			   p->insns[i].src_reg == BPF_PSEUDO_MAP_VALUE;
		pointers += p->insns[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) &&
			    p->insns[i].src_reg == BPF_REG_10;
	}
	got = map_value_drop_keys(p, maps);
	want = (int)(2 * lookups);
	snprintf(name, sizeof(name), "%s: %d key instructions dropped (%zu lookups by address, %zu pointers from r10)",
		 p->section, got, lookups, pointers);
	if (strstr(p->section, "slow") || strstr(p->section, "generic_read") ||
	    strstr(p->section, PROG_ATOMIC))
		CHECK(got >= 0 && got <= want, name);
	else
		check_int(name, got, want);
}

/*
 * p as the loader sends it (nops.h): none of its jumps by 0 left, every
 * jump landing on the copy of the instruction it landed on (or on what
 * follows a jump by 0).  Returns how many jumps by 0 it dropped.
 */
static size_t compacts(const struct obj_prog *p)
{
	struct bpf_insn *c = calloc(p->insn_cnt + 1, sizeof(*c));
	uint32_t *at = calloc(p->insn_cnt + 1, sizeof(*at));
	size_t i, nops = 0, wrong = 0, left = 0;
	char name[320];
	long n = c && at ? nops_compact(p->insns, p->insn_cnt, c, at) : -1;

	for (i = 0; i < p->insn_cnt; i++)
		nops += map_value_is_nop(&p->insns[i]);
	snprintf(name, sizeof(name), "%s: sent without its %zu jumps by 0",
		 p->section, nops);
	if (check_int(name, n, (long)(p->insn_cnt - nops))) {
		for (i = 0; i < p->insn_cnt; i++) {
			const struct bpf_insn *in = &p->insns[i];
			long long t = (long long)i + 1 + in->off;
			unsigned int op = BPF_OP(in->code);

			if (in->code == LD_IMM64) {
				i++;
				continue;
			}
			if (BPF_CLASS(in->code) != BPF_JMP ||
			    op == BPF_CALL || op == BPF_EXIT ||
			    map_value_is_nop(in))
				continue;
			wrong += t < 0 || t > (long long)p->insn_cnt ||
				 (long long)at[i] + 1 + c[at[i]].off != at[t];
		}
		for (i = 0; i < (size_t)n; i++)
			left += map_value_is_nop(&c[i]);
		snprintf(name, sizeof(name), "%s: every jump lands where it did, no jump by 0 left",
			 p->section);
		check_int(name, (long long)(wrong + left), 0);
	}
	free(c);
	free(at);
	return nops;
}

/*
 * The embedded object as clang made it: every return program's ctl
 * lookup (kprobe_multi's, one per operation: FOR_OP), every entry
 * program's calls lookup, and every start lookup of an entry or return,
 * has the shape, and loses its null test,
 * so no run keeps the call where the kernel has the address (a new
 * compiler's order would show here first).
 */
static void test_object(void)
{
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	size_t i, returns = 0, rewritten = 0, starts = 0, started = 0, tr = 0;
	size_t entries = 0, counted = 0, nops = 0;

	if (!check_int("object parses",
		       bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(),
				     &obj, &eb), 0))
		return;
	for (i = 0; i < obj.nr_progs; i++) {
		struct obj_prog *p = &obj.progs[i];
		int r = rewrite_all(&obj, p, "start");

		starts += r != 0;
		started += r > 0;
		tr += !strncmp(p->section, "fentry/", 7) ||
		      !strncmp(p->section, "fexit/", 6);
		if (strncmp(p->section, "kretprobe", 9) &&
		    strncmp(p->section, "fexit/", 6) &&
		    strcmp(p->section, "tracepoint/fsync/exit")) {
			entries += r != 0;
			counted += r != 0 && rewrite_all(&obj, p, "calls") > 0;
			continue;
		}
		returns++;
		rewritten += rewrite_all(&obj, p, "ctl") > 0;
	}
	for (i = 0; i < obj.nr_progs; i++)
		keys_dropped(&obj.progs[i], obj.maps);
	for (i = 0; i < obj.nr_progs; i++)
		nops += compacts(&obj.progs[i]);
	CHECK(nops > 0, "the jumps by 0 of the rewrites dropped from what is sent");
	CHECK(returns > 0 && rewritten == returns, "every return program");
	/* 22 kprobe, 8 kprobe_multi, the fsync tracepoint's, 11 fentry (none on 32-bit). */
	check_int("every entry program: calls", (long long)counted,
		  (long long)(22 + 8 + 1 + tr / 2));
	check_int("every entry program: all of them", (long long)entries,
		  (long long)(22 + 8 + 1 + tr / 2));
	check_int("every entry and return program: start", (long long)started,
		  (long long)starts);
	/* 44 kprobe, 16 kprobe_multi, 2 tracepoint, fentry and fexit (22, none on 32-bit). */
	check_int("every entry and return program: all of them",
		  (long long)starts, (long long)(44 + 16 + 2 + tr));
	bpf_obj_free(&obj);
}

static const struct test_case test_cases[] = {
	TEST_CASE(clang_shape),
	TEST_CASE(other_shapes),
	TEST_CASE(key_pointer_kept),
	TEST_CASE(null_test),
	TEST_CASE(drop_keys),
	TEST_CASE(drop_keys_value),
	TEST_CASE(object),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
