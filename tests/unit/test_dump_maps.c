// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-maps: each CPU's copy of a histogram buffer, the non-zero rows
 * only, with their sums, exactly; a plain array's one value; a failed
 * write reported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tool/dump/dump_maps.h"

static char *dump(unsigned int key, const struct op_hist *v, size_t n,
		  int percpu, const char *unit, int *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	*err = dump_maps_hist(f, key, v, n, percpu, unit);
	fclose(f);
	return text;
}

static void test_percpu(void)
{
	struct op_hist v[3];
	char *text;
	int err = -1;

	memset(v, 0, sizeof(v));
	v[0].slots[12] = 3;
	v[2].slots[12] = 8;
	v[1].slots[1] = 1;
	v[1].queued = 2;
	v[0].sum_ns = 99;	/* not a count: not shown */
	text = dump(3 + NR_OPS, v, 3, 1, "usecs", &err);
	check_int("per-CPU: returns 0", err, 0);
	check_str("per-CPU: text", text,
		  "ext4dist: map hist, key 8 (fsync, buffer 1): 3 per-CPU values\n"
		  "ext4dist:   slot 1 (0 -> 1 usecs): cpu0 0 + cpu1 1 + cpu2 0 = 1\n"
		  "ext4dist:   slot 12 (2048 -> 4095 usecs): cpu0 3 + cpu1 0 + cpu2 8 = 11\n"
		  "ext4dist:   queued: cpu0 0 + cpu1 2 + cpu2 0 = 2\n");
	free(text);
}

static void test_plain_and_empty(void)
{
	struct op_hist v;
	char *text;
	int err = -1;

	memset(&v, 0, sizeof(v));
	v.errors = 4;
	v.stolen = 1;
	text = dump(0, &v, 1, 0, "msecs", &err);
	check_int("plain: returns 0", err, 0);
	check_str("plain: text", text,
		  "ext4dist: map hist, key 0 (read, buffer 0): one value (a plain array: every CPU adds into it atomically)\n"
		  "ext4dist:   errors: cpu0 4 = 4\n"
		  "ext4dist:   stolen: cpu0 1 = 1\n");
	free(text);
	memset(&v, 0, sizeof(v));
	text = dump(2, &v, 1, 1, "usecs", &err);
	check_str("empty: the header alone", text,
		  "ext4dist: map hist, key 2 (open, buffer 0): 1 per-CPU value\n");
	free(text);
}

static void test_write_error(void)
{
	struct op_hist v;
	FILE *f = fopen("/dev/full", "w");

	memset(&v, 0, sizeof(v));
	v.slots[3] = 1;
	if (!CHECK(f, "open /dev/full"))
		return;
	setvbuf(f, NULL, _IONBF, 0);
	check_int("/dev/full: -EIO", dump_maps_hist(f, 1, &v, 1, 1, "usecs"), -EIO);
	fclose(f);
}

static const struct test_case test_cases[] = {
	TEST_CASE(percpu),
	TEST_CASE(plain_and_empty),
	TEST_CASE(write_error),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
