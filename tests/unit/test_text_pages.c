// SPDX-License-Identifier: GPL-2.0
/*
 * text_pages_drop(): the binary's read-only pages leave the process's RSS
 * and come back with the same bytes; its written data stays as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/util/text_pages.h"
#include "test.h"

#define BIG (1024u << 10)

/* In the file (an initialised constant): a read-only segment's pages. */
static const unsigned char big[BIG] __attribute__((aligned(4096))) = {
	[0] = 1, [BIG / 2] = 2, [BIG - 1] = 3,
};
static unsigned long written;

/* Rss of the mapping holding addr, in kB, from /proc/self/smaps; -1 if none. */
static long rss_of(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0;
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		/* A mapping's line; its fields' lines start with a name. */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* Reads every page of big: its sum, the same each time. */
static unsigned long touch(void)
{
	const volatile unsigned char *p = big;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < BIG; i += 4096)
		sum += p[i] + p[i + 4095];
	return sum + p[BIG / 2];
}

static void test_drop(void)
{
	unsigned long sum;
	long before, after;

	written = (unsigned long)getpid();
	sum = touch();
	check_int("big's bytes", (long long)sum, 1 + 3 + 2 + 2);
	before = rss_of(big);
	CHECK(before >= (long)(BIG >> 10), "big's pages all mapped before");
	text_pages_drop();
	after = rss_of(big);
	/* What the test runs after the drop maps its own windows back. */
	CHECK(after >= 0 && after <= before - (long)(BIG >> 11),
	      "big's pages unmapped after");
	check_int("big's bytes again", (long long)touch(), (long long)sum);
	CHECK(rss_of(big) >= (long)(BIG >> 10), "big's pages mapped again");
	check_int("written data kept", (long long)written,
		  (long long)getpid());
}

static const struct test_case test_cases[] = {
	TEST_CASE(drop),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
