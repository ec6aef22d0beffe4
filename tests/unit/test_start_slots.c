// SPDX-License-Identifier: GPL-2.0
/*
 * How many start records a run keeps (tool/engine/start_slots.h), and
 * the reader of the memory figures --check and -v print: memlock of a
 * BPF fd's fdinfo and the process's VmHWM (loader/kernel/proc_field.h),
 * on copies of what kernels show.
 */
#include <errno.h>

#include "loader/kernel/proc_field.h"
#include "test.h"
#include "tool/engine/start_slots.h"

#define FIXTURE(name) TEST_SRCDIR "/tests/unit/fixtures/fdinfo/" name

static void test_rule(void)
{
	/* What a machine of that size shows as MemTotal, roughly. */
	check_int("24 GiB: the most", start_slots_for(24ULL << 30), 32768);
	check_int("512 MiB exactly: the most", start_slots_for(512ULL << 20),
		  32768);
	check_int("just under 512 MiB: half", start_slots_for((512ULL << 20) - 1),
		  16384);
	check_int("a 256 MB device (240 MiB)", start_slots_for(240ULL << 20),
		  8192);
	check_int("a 128 MB device (117 MiB)", start_slots_for(117ULL << 20),
		  4096);
	check_int("a 64 MB device (57 MiB): the least",
		  start_slots_for(57ULL << 20), 4096);
	check_int("nothing: the least", start_slots_for(0), 4096);
	/* The 128 MB device's records: 160 KiB, within its 512 KiB. */
	check_int("a 128 MB device's start records in bytes",
		  (long long)start_slots_for(117ULL << 20) * 40, 163840);
	check_int("shift of 4096", start_slots_shift(4096), 12);
	check_int("shift of 32768", start_slots_shift(32768), 15);
	check_int("the tag's shift with 4096 slots", start_tag_shift(4096), 43);
	check_int("the tag's shift with 32768 slots", start_tag_shift(32768), 46);
	/* The record's tag: pid_max's 22 bits less the slot's fit above bit 54. */
	check_int("tag bits at the least slots fit the record",
		  22 - (long long)start_slots_shift(START_SLOTS_MIN) <= 64 - 54,
		  1);
}

/*
 * record_tag() as the programs compute it, from the whole pid_tgid word
 * (tgid above), against its definition: the bits of the thread id above
 * the slot's, over a live bit.  Every thread id pid_max allows (2^22),
 * at every table size.
 */
static void test_tag(void)
{
	unsigned int slots, tid, bad = 0, n = 0;

	for (slots = START_SLOTS_MIN; slots <= START_SLOTS_MAX; slots <<= 1) {
		unsigned int s = start_slots_shift(slots);
		unsigned int t = start_tag_shift(slots);

		for (tid = 0; tid < 1u << 22; tid++) {
			unsigned long long id = 0x12345ULL << 32 | tid;
			unsigned long long prog = id << 32 >> t | 1;

			bad += prog != ((unsigned long long)(tid >> s) << 1 | 1);
			n++;
		}
	}
	check_int("thread ids and table sizes tried", n, 4 << 22);
	check_int("tags unlike their definition", bad, 0);
}

static void test_fdinfo(void)
{
	unsigned long long v = 0;

	check_int("6.18 map: memlock read",
		  proc_field(FIXTURE("map_6.18.txt"), "memlock", &v), 0);
	check_int("6.18 map: its value", (long long)v, 164152);
	check_int("6.18 map: max_entries read",
		  proc_field(FIXTURE("map_6.18.txt"), "max_entries", &v), 0);
	check_int("6.18 map: 4096 entries", (long long)v, 4096);
	check_int("a kernel without the line: -ENODATA",
		  proc_field(FIXTURE("map_no_memlock.txt"), "memlock", &v),
		  -ENODATA);
	check_int("map_flags is hex: not a number here",
		  proc_field(FIXTURE("map_no_memlock.txt"), "map_flags", &v),
		  -EINVAL);
	check_int("VmHWM read, in kB",
		  proc_field(FIXTURE("status.txt"), "VmHWM", &v), 0);
	check_int("VmHWM's value", (long long)v, 1432);
	check_int("VmHWM in kB",
		  proc_field_unit(FIXTURE("status.txt"), "VmHWM", "kB", &v), 0);
	check_int("VmHWM is not in MB",
		  proc_field_unit(FIXTURE("status.txt"), "VmHWM", "MB", &v),
		  -EINVAL);
	check_int("a key is matched whole: no \"Vm\"",
		  proc_field(FIXTURE("status.txt"), "Vm", &v), -ENODATA);
	check_int("no such file", proc_field("/nonexistent/fdinfo", "memlock", &v),
		  -ENOENT);
	check_int("a bad fd: its fdinfo is not there",
		  proc_fd_memlock(-5, &v), -ENOENT);
}

static const struct test_case test_cases[] = {
	TEST_CASE(rule),
	TEST_CASE(tag),
	TEST_CASE(fdinfo),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
