/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Addresses of symbols that /proc/kallsyms does not list: data symbols on
 * kernels built without CONFIG_KALLSYMS_ALL.  Two sources: the kernel's
 * System.map (core kernel) and a module's .ko file plus the section
 * addresses the running kernel shows in /sys/module/<mod>/sections/.
 *
 * Functions that take errbuf (may be NULL) leave a one-line human message
 * there on failure.
 */
#ifndef EXT4DIST_LOADER_SYSMAP_H
#define EXT4DIST_LOADER_SYSMAP_H

#include <stddef.h>

/* Largest module file, compressed or not, that we read into memory. */
#define MODSYM_MAX_SIZE		(256u << 20)

/*
 * Link-time address and type of sym in a System.map file (map_path NULL
 * means /boot/System.map-$(uname -r)).  type may be NULL.
 * Returns 0, -ENOENT (no such symbol), or -errno from reading the file.
 */
int sysmap_lookup(const char *map_path, const char *sym,
		  unsigned long long *addr, char *type);

/*
 * Run-time address of sym: its System.map address moved by the KASLR
 * offset, which is the distance between "_text" in kallsyms_path (NULL
 * means /proc/kallsyms) and in the map.  The map must belong to the
 * running kernel.  Returns 0, -ENOENT (sym or _text missing), -EPERM
 * (kallsyms shows only zero addresses), or -errno.
 */
int sysmap_resolve(const char *map_path, const char *kallsyms_path,
		   const char *sym, unsigned long long *addr,
		   char *errbuf, size_t errlen);

/*
 * Finds the module file for base (".../ext4.ko"): base itself, else base
 * with ".xz", ".zst" or ".gz" appended.  Writes the path found to buf.
 * Returns 0, -ENOENT, or -ENAMETOOLONG.
 */
int modsym_ko_path(const char *base, char *buf, size_t len);

/*
 * Section name and offset in that section of the defined symbol sym in
 * the relocatable ELF file ko_path, which may be compressed with gzip
 * (always), xz or zstd (when built with EXT4DIST_WITH_XZ /
 * EXT4DIST_WITH_ZSTD); the format is told by the file's magic bytes.
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
		char *errbuf, size_t errlen);

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

/* modsym_find() then modsym_section_addr(); same errors. */
int modsym_resolve(const char *ko_path, const char *sections_dir,
		   const char *sym, unsigned long long *addr,
		   char *errbuf, size_t errlen);

#endif
