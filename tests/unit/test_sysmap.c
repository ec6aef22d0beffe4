// SPDX-License-Identifier: GPL-2.0
/* Tests for src/loader/sysmap.c, with System.map and kallsyms fixtures. */
#include "test.h"
#include "loader/ksym/sysmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static const char *tmpdir;
/* ---- System.map ------------------------------------------------------ */

static void test_sysmap(void)
{
	unsigned long long addr = 0;
	char type = 0;
	struct errbuf eb;

	check_int("map: lookup", sysmap_lookup(TEST_FIXTURES "sysmap_excerpt.txt",
		  "ext4_file_operations", &addr, &type), 0);
	check_int("map: link address", addr, (long long)0xffffffff81e10040ULL);
	check_int("map: type", type, 'R');
	check_int("map: missing symbol", sysmap_lookup(TEST_FIXTURES
		  "sysmap_excerpt.txt", "no_such_sym", &addr, NULL), -ENOENT);
	check_int("map: missing file", sysmap_lookup(TEST_FIXTURES "nope.map",
		  "ext4_file_operations", &addr, NULL), -ENOENT);

	check_int("map: resolve, no KASLR", sysmap_resolve(TEST_FIXTURES
		  "sysmap_excerpt.txt", TEST_FIXTURES "kallsyms_core.txt",
		  "ext4_file_operations", &addr, &eb), 0);
	check_int("map: no KASLR address", addr,
		  (long long)0xffffffff81e10040ULL);
	check_int("map: resolve, KASLR", sysmap_resolve(TEST_FIXTURES
		  "sysmap_excerpt.txt", TEST_FIXTURES "kallsyms_kaslr.txt",
		  "ext4_file_operations", &addr, &eb), 0);
	/* _text moved from ffffffff81000000 to ffffffff9a200000 */
	check_int("map: KASLR address", addr,
		  (long long)0xffffffff9b010040ULL);
	check_int("map: resolve, hidden kallsyms", sysmap_resolve(TEST_FIXTURES
		  "sysmap_excerpt.txt", TEST_FIXTURES "kallsyms_zero.txt",
		  "ext4_file_operations", &addr, &eb), -EPERM);
	check_int("map: resolve, missing symbol", sysmap_resolve(TEST_FIXTURES
		  "sysmap_excerpt.txt", TEST_FIXTURES "kallsyms_core.txt",
		  "no_such_sym", &addr, &eb), -ENOENT);
	check_str("map: missing symbol message", eb.msg,
		  "System.map has no no_such_sym");
	/*
	 * Without CONFIG_KALLSYMS_ALL some architectures (32-bit ARM) list
	 * no _text: any first text symbol gives the offset, here the map's
	 * generic_file_read_iter moved by 0x19200000.  The VM suite's
	 * as-4.9 scenario writes such a map (no _text) for a Debian kernel;
	 * this case is the one that reads a map with KASLR's offset.
	 */
	{
		static const char arm[] =
			"0000000000000000 A __per_cpu_start\n"
			"ffffffff9a4a3b10 T generic_file_read_iter\n";

		test_write_file(test_tmp_path("notext"), arm, strlen(arm));
	}
	check_int("map: resolve, kallsyms without _text", sysmap_resolve(
		  TEST_FIXTURES "sysmap_excerpt.txt", test_tmp_path("notext"),
		  "ext4_file_operations", &addr, &eb), 0);
	check_int("map: offset from the first text symbol", addr,
		  (long long)0xffffffff9b010040ULL);
	/* A first text symbol the map does not have: another kernel's map. */
	test_write_file(test_tmp_path("notext"),
			"ffffffff81000040 T x86_verw_sel\n", 32);
	check_int("map: resolve, map of another kernel", sysmap_resolve(
		  TEST_FIXTURES "sysmap_excerpt.txt", test_tmp_path("notext"),
		  "ext4_file_operations", &addr, &eb), -ENOENT);
	check_str("map: another kernel's map message", eb.msg,
		  "System.map has no x86_verw_sel, the first text symbol of kallsyms: not this kernel's map");
	unlink(test_tmp_path("notext"));
}
static const struct test_case test_cases[] = {
	TEST_CASE(sysmap),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	int ret;

	tmpdir = test_tmpdir("test_sysmap");
	if (!CHECK(tmpdir, "temporary directory"))
		return test_done();
	ret = test_main(argc, argv, test_cases);
	rmdir(tmpdir);
	return ret;
}
