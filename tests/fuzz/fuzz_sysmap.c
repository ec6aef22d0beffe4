// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the input as a System.map (sysmap_lookup,
 * sysmap_resolve with the same file as kallsyms), as a module file
 * (modsym_find: raw, gzip, xz or zstd ELF, told by its magic bytes) and
 * as a /sys/module/<mod>/sections/<name> file (modsym_section_addr).
 * The input is written to a memfd, opened by path as /proc/self/fd/N.
 */
#include "loader/ksym/modsym.h"
#include "loader/ksym/sysmap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_memfd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;
static char path[64];
static char fdname[16];
static char *sym_fops, *sym_text;

static void setup(void)
{
	memfd = fuzz_memfd_open("fuzz_sysmap", path, sizeof(path));
	snprintf(fdname, sizeof(fdname), "%d", memfd);
	/* Exact-size heap copies: ASan sees reads past the NUL. */
	sym_fops = strdup("ext4_file_operations");
	sym_text = strdup("_text");
	if (!sym_fops || !sym_text)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long addr, off;
	char type, section[64], small[8];
	struct errbuf eb;
	int ret;

	if (memfd < 0)
		setup();
	fuzz_memfd_put(memfd, data, size);

	ret = sysmap_lookup(path, sym_fops, &addr, &type);
	if (ret > 0)
		abort();
	ret = sysmap_lookup(path, sym_text, &addr, NULL);
	if (ret > 0)
		abort();
	ret = sysmap_resolve(path, path, sym_fops, &addr, &eb);
	if (ret > 0 || (ret && !memchr(eb.msg, '\0', sizeof(eb.msg))))
		abort();

	eb.msg[0] = '\0';
	ret = modsym_find(path, sym_fops, section, sizeof(section), &off, &eb);
	if (ret > 0 || (ret == 0 && !memchr(section, '\0', sizeof(section))))
		abort();
	/* A section buffer too small for most names: -ERANGE. */
	ret = modsym_find(path, sym_fops, small, sizeof(small), &off, NULL);
	if (ret > 0 || (ret == 0 && !memchr(small, '\0', sizeof(small))))
		abort();

	/* The input as the content of sections/<name>. */
	ret = modsym_section_addr("/proc/self/fd", fdname, &addr);
	if (ret > 0 || (ret == 0 && !addr))
		abort();
	return 0;
}
