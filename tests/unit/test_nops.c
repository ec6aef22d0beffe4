// SPDX-License-Identifier: GPL-2.0
/*
 * loader/obj/nops.c: a program without its jumps by 0, instruction by
 * instruction, every jump landing where it landed.
 */
#include <errno.h>
#include <string.h>

#include "test.h"
#include "loader/obj/insn.h"
#include "loader/obj/nops.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define JA(off) INSN(BPF_JMP | BPF_JA, 0, 0, off, 0)
#define GOTOL(imm) INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, imm)
#define JEQ0(r, off) INSN(BPF_JMP | BPF_JEQ | BPF_K, r, 0, off, 0)
#define JNE32_0(r, off) INSN(BPF_JMP32 | BPF_JNE | BPF_K, r, 0, off, 0)
#define LD64(r, lo, hi) INSN(LD_IMM64, r, 0, 0, lo), INSN(0, 0, 0, 0, hi)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* How many instructions of got differ from want's (of n). */
static size_t differ(const struct bpf_insn *got, const struct bpf_insn *want,
		     size_t n)
{
	size_t i, d = 0;

	for (i = 0; i < n; i++)
		d += memcmp(&got[i], &want[i], sizeof(*got)) != 0;
	return d;
}

/*
 * Jumps by 0 before a jump, inside its range forward and backward, as
 * its target, in a long jump's range, and beside an ld_imm64.
 */
static void test_runs(void)
{
	const struct bpf_insn in[] = {
		MOV64_IMM(BPF_REG_0, 0),	/* 0 */
		JA(0),				/* 1 */
		JEQ0(BPF_REG_1, 5),		/* 2: to 8 */
		JA(0),				/* 3 */
		LD64(BPF_REG_2, 0x55667788, 0x11223344),	/* 4, 5 */
		JA(0),				/* 6 */
		ADD64_IMM(BPF_REG_0, 1),	/* 7 */
		JA(0),				/* 8 */
		MOV64_IMM(BPF_REG_3, 2),	/* 9 */
		JNE32_0(BPF_REG_3, -9),		/* 10: to 2 */
		JA(0),				/* 11 */
		GOTOL(2),			/* 12: to 15 */
		JA(0),				/* 13 */
		JA(0),				/* 14 */
		JA(-4),				/* 15: to 12 */
		EXIT(),				/* 16 */
	};
	const struct bpf_insn want[] = {
		MOV64_IMM(BPF_REG_0, 0),	/* 0 */
		JEQ0(BPF_REG_1, 3),		/* 1: to 5, was 9 */
		LD64(BPF_REG_2, 0x55667788, 0x11223344),	/* 2, 3 */
		ADD64_IMM(BPF_REG_0, 1),	/* 4 */
		MOV64_IMM(BPF_REG_3, 2),	/* 5 */
		JNE32_0(BPF_REG_3, -6),		/* 6: to 1 */
		GOTOL(0),			/* 7: to 8 */
		JA(-2),				/* 8: to 7 */
		EXIT(),				/* 9 */
	};
	const uint32_t want_at[] = {
		0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 8, 9, 10,
	};
	struct bpf_insn out[N(in)];
	uint32_t at[N(in) + 1];
	long n;

	memset(out, 0xee, sizeof(out));
	n = nops_compact(in, N(in), out, at);
	if (!check_int("runs: 7 jumps by 0 dropped", n, (long)N(want)))
		return;
	check_int("runs: the copy, instruction by instruction (offsets moved)",
		  (long long)differ(out, want, N(want)), 0);
	check_mem("runs: where each instruction went", at, sizeof(at),
		  want_at, sizeof(want_at));
	check_int("runs: nothing past the copy written", out[N(want)].code,
		  0xee);
	n = nops_compact(in, N(in), out, NULL);
	check_int("runs: without the index map", n, (long)N(want));
	check_int("runs: the same copy", (long long)differ(out, want, N(want)), 0);
}

static void test_nothing_to_drop(void)
{
	const struct bpf_insn in[] = {
		JEQ0(BPF_REG_1, 1), MOV64_IMM(BPF_REG_0, 1), EXIT(),
	};
	struct bpf_insn out[N(in)];
	uint32_t at[N(in) + 1];
	const uint32_t want_at[] = { 0, 1, 2, 3 };

	check_int("none: every instruction", nops_compact(in, N(in), out, at),
		  (long)N(in));
	check_int("none: as it was", (long long)differ(out, in, N(in)), 0);
	check_mem("none: each where it was", at, sizeof(at), want_at,
		  sizeof(want_at));
	/* A program of jumps by 0 alone: nothing left. */
	check_int("only jumps by 0: empty",
		  nops_compact((const struct bpf_insn[]){ JA(0), JA(0) }, 2,
			       out, NULL), 0);
}

/* What the copy would miscompile: refused, out left alone. */
static void refused(const char *name, const struct bpf_insn *in, size_t cnt,
		    long err)
{
	struct bpf_insn out[8];
	char what[160];

	memset(out, 0xee, sizeof(out));
	snprintf(what, sizeof(what), "%s: refused", name);
	check_int(what, nops_compact(in, cnt, out, NULL), err);
	snprintf(what, sizeof(what), "%s: nothing written", name);
	check_int(what, out[0].code, 0xee);
}

static void test_refused(void)
{
	const struct bpf_insn subprog[] = {
		JA(0), INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1),
		EXIT(), MOV64_IMM(BPF_REG_0, 0), EXIT(),
	};
	const struct bpf_insn func_addr[] = {
		JA(0), INSN(LD_IMM64, BPF_REG_2, BPF_PSEUDO_FUNC, 0, 3),
		INSN(0, 0, 0, 0, 0), EXIT(), MOV64_IMM(BPF_REG_0, 0), EXIT(),
	};
	const struct bpf_insn past_end[] = { JA(0), JEQ0(BPF_REG_1, 2), EXIT() };
	const struct bpf_insn before_start[] = { JA(0), JEQ0(BPF_REG_1, -3), EXIT() };
	const struct bpf_insn helper[] = {
		JA(0), CALL(BPF_FUNC_map_lookup_elem), EXIT(),
	};
	struct bpf_insn out[N(helper)];

	refused("a bpf-to-bpf call", subprog, N(subprog), -ENOTSUP);
	refused("a function's address", func_addr, N(func_addr), -ENOTSUP);
	refused("a jump past the end", past_end, N(past_end), -ERANGE);
	refused("a jump before the start", before_start, N(before_start),
		-ERANGE);
	/* A helper's call is no jump: its imm stays. */
	check_int("a helper call: kept", nops_compact(helper, N(helper), out, NULL), 2);
	check_int("a helper call: its number", out[0].imm, BPF_FUNC_map_lookup_elem);
}

/* A test over jumps by 0 alone: a test by 0 in the copy, still a test. */
static void test_to_the_end(void)
{
	const struct bpf_insn in[] = { JEQ0(BPF_REG_1, 1), JA(0), EXIT() };
	struct bpf_insn out[N(in)];

	check_int("to the exit: 2 left", nops_compact(in, N(in), out, NULL), 2);
	check_int("to the exit: lands on it", out[0].off, 0);
}

static const struct test_case test_cases[] = {
	TEST_CASE(runs),
	TEST_CASE(nothing_to_drop),
	TEST_CASE(refused),
	TEST_CASE(to_the_end),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
