/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Addresses of module symbols that /proc/kallsyms does not list (data
 * symbols on kernels built without CONFIG_KALLSYMS_ALL): the symbol's
 * section and offset in the module's .ko file plus the section address
 * the running kernel shows in /sys/module/<mod>/sections/.
 *
 * Functions that take eb (may be NULL) leave a one-line human message in
 * eb->msg on failure.
 */
#ifndef EXT4DIST_LOADER_KSYM_MODSYM_H
#define EXT4DIST_LOADER_KSYM_MODSYM_H

#include <stddef.h>

#include "loader/util/errbuf.h"

/*
 * Section name and offset in that section of the defined symbol sym in
 * the relocatable ELF file ko_path, which may be compressed with gzip
 * (always), xz or zstd (when built with EXT4DIST_WITH_XZ /
 * EXT4DIST_WITH_ZSTD); the format is told by the file's magic bytes
 * (loader/ksym/module_file.h).
 * Returns 0, or:
 *   -ENOENT   no defined symbol of that name (or no such file)
 *   -EINVAL   not a relocatable ELF file, corrupted file or stream, or a
 *             symbol outside any section
 *   -ENOTSUP  compressed with a format this build cannot read
 *   -EFBIG    file or decompressed data larger than MODSYM_MAX_SIZE
 *   -ERANGE   section name longer than section_len - 1
 *   -errno    from reading the file
 */
int modsym_find(const char *ko_path, const char *sym, char *section,
		size_t section_len, unsigned long long *offset,
		struct errbuf *eb);

/*
 * Load address of a section of a loaded module, read from
 * <sections_dir>/<section> ("/sys/module/ext4/sections/.rodata" holds
 * "0xffffffffc0600000\n").  Returns 0, -EPERM when the kernel shows the
 * address as 0 (reader without CAP_SYSLOG), -EINVAL for a bad section
 * name or file content, or -errno from reading (-ENOENT: module not
 * loaded or no such section; -EACCES: not root).
 */
int modsym_section_addr(const char *sections_dir, const char *section,
			unsigned long long *addr);

/* Where a symbol is in a module file: its section and offset there. */
struct modsym_place {
	char section[64];
	unsigned long long offset;
};

/*
 * modsym_find() for several names in one read of the file: found[i] tells
 * whether names[i] is defined there, place[i] where.  Returns how many
 * were found, or -errno as modsym_find() (never -ENOENT).
 */
int modsym_find_many(const char *ko_path, const char *const *names, size_t n,
		     struct modsym_place *place, int *found, struct errbuf *eb);

#define MODSYM_MANY_MAX 16

/*
 * Run-time addresses of up to MODSYM_MANY_MAX names of a loaded module:
 * addrs[i] for every found[i].  Returns how many were found, or -errno as
 * modsym_resolve().
 */
int modsym_resolve_many(const char *ko_path, const char *sections_dir,
			const char *const *names, size_t n,
			unsigned long long *addrs, int *found,
			struct errbuf *eb);

/*
 * The same for a module the kernel has loaded, from the file only if it
 * is the very build the kernel loaded: module_dir is /sys/module/<name>,
 * whose notes/.note.gnu.build-id must equal the file's.  -ESTALE when
 * it does not (the module was updated on disk since it was loaded),
 * -ENOENT when either has no build id.
 */
int modsym_resolve_loaded(const char *ko_path, const char *module_dir,
			  const char *const *names, size_t n,
			  unsigned long long *addrs, int *found,
			  struct errbuf *eb);

/* modsym_find() then modsym_section_addr(); same errors. */
int modsym_resolve(const char *ko_path, const char *sections_dir,
		   const char *sym, unsigned long long *addr,
		   struct errbuf *eb);

#endif
