// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: kallsyms_lookup() on the input as a kallsyms file,
 * for a few names, stopping early and with KSYM_SCAN_ALL.  The input is
 * written to a memfd and read back through /proc/self/fd/N, so the
 * reader's real open()/read() path runs.  The names live in exact-size
 * heap blocks so that ASan sees any read past their NUL.
 */
#include "loader/ksym/kallsyms.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_memfd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const wanted[] = {
	"ext4_file_operations", "_text", "ext4_file_read_iter",
	"generic_file_read_iter", "e",
};
#define NR_WANTED (sizeof(wanted) / sizeof(wanted[0]))

static int memfd = -1;
static char path[64];
static const char *names[NR_WANTED];

static void setup(void)
{
	size_t i;

	memfd = fuzz_memfd_open("fuzz_kallsyms", path, sizeof(path));
	for (i = 0; i < NR_WANTED; i++) {
		names[i] = strdup(wanted[i]);
		if (!names[i])
			abort();
	}
}

static void check(int ret, const struct ksym_result *out, size_t n,
		  const struct ksym_stats *st)
{
	size_t i;

	if (ret > (int)n)
		abort();
	for (i = 0; i < n && ret >= 0; i++) {
		if (out[i].module[KSYM_MODULE_LEN - 1] != '\0')
			abort();
		if (!out[i].found && (out[i].addr || out[i].dups))
			abort();
		if (out[i].dups_elsewhere > out[i].dups)
			abort();
	}
	if (st)
		(void)kallsyms_stats_have_data(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksym_result out[NR_WANTED];
	struct ksym_stats st;
	int ret;

	if (memfd < 0)
		setup();
	fuzz_memfd_put(memfd, data, size);

	/* One name, stopping at the first match (the fops lookup). */
	ret = kallsyms_lookup(path, names, 1, 0, out, NULL);
	check(ret, out, 1, NULL);

	/* Several names, early stop, with stats. */
	ret = kallsyms_lookup(path, names, NR_WANTED, 0, out, &st);
	check(ret, out, NR_WANTED, ret >= 0 ? &st : NULL);

	/* Several names, whole file (what --check does). */
	ret = kallsyms_lookup(path, names, NR_WANTED, KSYM_SCAN_ALL, out, &st);
	check(ret, out, NR_WANTED, ret >= 0 ? &st : NULL);

	/* No names: a pure scan for the stats. */
	ret = kallsyms_lookup(path, NULL, 0, KSYM_SCAN_ALL, NULL, &st);
	check(ret, NULL, 0, ret >= 0 ? &st : NULL);
	return 0;
}
