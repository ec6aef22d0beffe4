// SPDX-License-Identifier: GPL-2.0
/* Tests for src/loader/sysmap.c, with System.map and kallsyms fixtures. */
#include "test.h"
#include "loader/sysmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures/"
#endif

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
	return p;
}

static int write_bytes(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, data, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}
/* ---- System.map ------------------------------------------------------ */

static void test_sysmap(void)
{
	unsigned long long addr = 0;
	char type = 0, err[256];

	check_int("map: lookup", sysmap_lookup(FIXTURES "sysmap_excerpt.txt",
		  "ext4_file_operations", &addr, &type), 0);
	check_int("map: link address", addr, (long long)0xffffffff81e10040ULL);
	check_int("map: type", type, 'R');
	check_int("map: missing symbol", sysmap_lookup(FIXTURES
		  "sysmap_excerpt.txt", "no_such_sym", &addr, NULL), -ENOENT);
	check_int("map: missing file", sysmap_lookup(FIXTURES "nope.map",
		  "ext4_file_operations", &addr, NULL), -ENOENT);

	check_int("map: resolve, no KASLR", sysmap_resolve(FIXTURES
		  "sysmap_excerpt.txt", FIXTURES "kallsyms_core.txt",
		  "ext4_file_operations", &addr, err, sizeof(err)), 0);
	check_int("map: no KASLR address", addr,
		  (long long)0xffffffff81e10040ULL);
	check_int("map: resolve, KASLR", sysmap_resolve(FIXTURES
		  "sysmap_excerpt.txt", FIXTURES "kallsyms_kaslr.txt",
		  "ext4_file_operations", &addr, err, sizeof(err)), 0);
	/* _text moved from ffffffff81000000 to ffffffff9a200000 */
	check_int("map: KASLR address", addr,
		  (long long)0xffffffff9b010040ULL);
	check_int("map: resolve, hidden kallsyms", sysmap_resolve(FIXTURES
		  "sysmap_excerpt.txt", FIXTURES "kallsyms_zero.txt",
		  "ext4_file_operations", &addr, err, sizeof(err)), -EPERM);
	check_int("map: resolve, missing symbol", sysmap_resolve(FIXTURES
		  "sysmap_excerpt.txt", FIXTURES "kallsyms_core.txt",
		  "no_such_sym", &addr, err, sizeof(err)), -ENOENT);
	check_str("map: missing symbol message", err,
		  "System.map has no no_such_sym");
	write_bytes(tmp_path("notext"), "ffffffff81000040 T x86_verw_sel\n",
		    32);
	check_int("map: resolve, kallsyms without _text", sysmap_resolve(
		  FIXTURES "sysmap_excerpt.txt", tmp_path("notext"),
		  "ext4_file_operations", &addr, err, sizeof(err)), -ENOENT);
	check_str("map: no _text message", err, "kallsyms has no _text");
	unlink(tmp_path("notext"));
}
int main(void)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !dir[0])
		dir = "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_sysmap.XXXXXX", dir);
	if (!CHECK(mkdtemp(tmpdir), "temporary directory"))
		return test_done();

	test_sysmap();

	rmdir(tmpdir);
	return test_done();
}
