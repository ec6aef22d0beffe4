// SPDX-License-Identifier: GPL-2.0
#include "loader/util/text_pages.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Unmaps the pages of the binary's own read-only segments (code, rodata)
 * from this process; they stay in the page cache and come back on the
 * next touch.  A fault on a file page maps the 64 KiB around it that the
 * page cache holds (fault-around, fault_around_bytes), so after a few
 * phases most of a static binary's text is counted in the RSS although a
 * phase runs a fraction of it: dropped between phases, the next phase
 * maps what it runs.  Written segments (data, RELRO) are left alone.
 */
static int text_holds(const ElfW(Phdr) *ph, size_t n, uintptr_t addr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && addr >= ph[i].p_vaddr &&
		    addr - ph[i].p_vaddr < ph[i].p_filesz)
			return 1;
	return 0;
}

void text_pages_drop(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t n = getauxval(AT_PHNUM), i;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), bias = 0;

	if (!ph || !n)
		return;
	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (uintptr_t)ph - ph[i].p_vaddr;
	/* No PT_PHDR: a static ET_EXEC, loaded where it was linked. */
	if (!bias && !text_holds(ph, n, (uintptr_t)ph))
		return;
	for (i = 0; i < n; i++) {
		uintptr_t lo, hi;

		if (ph[i].p_type != PT_LOAD || (ph[i].p_flags & PF_W))
			continue;
		lo = (bias + ph[i].p_vaddr) & ~(page - 1);
		hi = (bias + ph[i].p_vaddr + ph[i].p_filesz) & ~(page - 1);
		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_DONTNEED);
	}
}
