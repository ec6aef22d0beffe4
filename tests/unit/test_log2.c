// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF programs' log2 slots (bpf/log2.h), compiled for the host (its C
 * form of log2_slot()'s steps; the BPF build writes the same steps out in
 * asm): both equal to BCC's log2l(delta / factor) for every power of two
 * and its neighbours, the edges of every slot, in both units, and a
 * million pseudo-random deltas.
 */
#include <stdint.h>

#include "../../bpf/log2.h"
#include "test.h"

/* BCC's bpf_log2l(v), 0 and 1 both in slot 1, by the obvious loop. */
static __u64 reference(__u64 v)
{
	__u64 s = 1;

	while (v > 1) {
		v >>= 1;
		s++;
	}
	return s;
}

/*
 * Both forms: the value shifted (plain adds) and k searched (atomic
 * twins); the steps counted from any base, as the programs count them
 * from a word of the row, wrapping through 2^64 or not.
 */
static int agrees(__u64 delta, __u64 factor)
{
	static const __u64 bases[] = { 0, 1000, UINT64_MAX - 20, 1ULL << 63 };
	__u64 want = reference(delta / factor);
	unsigned int b;

	for (b = 0; b < 4; b++)
		if (log2_steps(delta, factor, bases[b]) - bases[b] + 1 != want)
			return 0;
	return log2_slot(delta, factor) == want &&
	       (delta >> 63 || log2_slot_k(delta, factor) == want);
}

static void test_boundaries(void)
{
	static const __u64 factors[] = { 1, 1000, 1000000 };
	unsigned int f, k, bad = 0;
	char name[80];

	for (f = 0; f < 3; f++) {
		for (k = 0; k < 64; k++) {
			__u64 p = 1ULL << k, q = factors[f] << (k < 40 ? k : 0);

			bad += !agrees(p, factors[f]) + !agrees(p - 1, factors[f]) +
			       !agrees(p + 1, factors[f]) + !agrees(q, factors[f]) +
			       !agrees(q - 1, factors[f]);
		}
		bad += !agrees(0, factors[f]) + !agrees(UINT64_MAX, factors[f]);
		snprintf(name, sizeof(name), "factor %llu: powers of two and their neighbours",
			 (unsigned long long)factors[f]);
		check_int(name, bad, 0);
	}
	check_int("1999 ns is in 0 -> 1 usecs", (long long)log2_slot(1999, 1000), 1);
	check_int("2000 ns is in 2 -> 3 usecs", (long long)log2_slot(2000, 1000), 2);
	check_int("4000 ns is in 4 -> 7 usecs", (long long)log2_slot(4000, 1000), 3);
	check_int("2^64-1 ns: slot 55 in usecs", (long long)log2_slot(UINT64_MAX, 1000), 55);
}

/*
 * The edges of each slot: 0, factor - 1, factor, and 2^k * factor and one
 * below it for every k that stays under 2^53 (a start record's 53 bits of
 * time), and 2^53 - 1 itself; both forms, each compared with the slot
 * written out (k + 1 at 2^k * factor, k below it).
 */
static void test_edges(void)
{
	static const __u64 factors[] = { 1, 1000, 1000000 };
	const __u64 top = (1ULL << 53) - 1;
	unsigned int f, k, bad, n;
	char name[96];

	for (f = 0; f < 3; f++) {
		__u64 fa = factors[f];

		bad = !agrees(0, fa) + !agrees(fa - 1, fa) + !agrees(top, fa);
		bad += log2_slot(0, fa) != 1 || log2_slot_k(0, fa) != 1;
		bad += log2_slot(fa - 1, fa) != 1 || log2_slot_k(fa - 1, fa) != 1;
		bad += log2_slot(fa, fa) != 1 || log2_slot_k(fa, fa) != 1;
		for (k = 1, n = 0; k < 64 && fa << k <= top && fa << k >> k == fa;
		     k++, n++) {
			__u64 d = fa << k;

			bad += !agrees(d, fa) + !agrees(d - 1, fa);
			bad += log2_slot(d, fa) != k + 1 ||
			       log2_slot_k(d, fa) != k + 1;
			bad += log2_slot(d - 1, fa) != k ||
			       log2_slot_k(d - 1, fa) != k;
		}
		snprintf(name, sizeof(name),
			 "factor %llu: 0, factor - 1, factor, %u slot edges below 2^53, 2^53 - 1",
			 (unsigned long long)fa, n);
		check_int(name, bad, 0);
	}
	check_int("2^53 - 1 ns: slot 53 in ns", (long long)log2_slot(top, 1), 53);
	check_int("2^53 - 1 ns: slot 44 in usecs", (long long)log2_slot(top, 1000), 44);
	check_int("2^53 - 1 ns, searched: slot 44 in usecs",
		  (long long)log2_slot_k(top, 1000), 44);
}

static void test_random(void)
{
	__u64 x = 0x9e3779b97f4a7c15ULL;
	unsigned int i, bad = 0;

	for (i = 0; i < 1000000; i++) {
		/* xorshift64, then a random width so small values show up too */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		bad += !agrees(x >> (x & 63), 1000) + !agrees(x >> (x & 63), 1000000);
	}
	check_int("a million deltas, both units", bad, 0);
}

static const struct test_case test_cases[] = {
	TEST_CASE(boundaries),
	TEST_CASE(edges),
	TEST_CASE(random),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
