/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Addresses of core-kernel symbols that /proc/kallsyms does not list:
 * data symbols on kernels built without CONFIG_KALLSYMS_ALL, read from
 * the kernel's System.map.  (Module symbols: loader/ksym/modsym.h.)
 *
 * Functions that take eb (may be NULL) leave a one-line human message in
 * eb->msg on failure.
 */
#ifndef EXT4DIST_LOADER_KSYM_SYSMAP_H
#define EXT4DIST_LOADER_KSYM_SYSMAP_H

#include <stddef.h>

#include "loader/util/errbuf.h"

/*
 * Link-time address and type of sym in a System.map file (map_path NULL
 * means /boot/System.map-$(uname -r)).  type may be NULL.
 * Returns 0, -ENOENT (no such symbol), or -errno from reading the file.
 */
int sysmap_lookup(const char *map_path, const char *sym,
		  unsigned long long *addr, char *type);

/*
 * Run-time address of sym: its System.map address moved by the KASLR
 * offset (see sysmap_resolve_many()).  The map must belong to the running
 * kernel.  Returns 0, -ENOENT (sym missing, or the map is another
 * kernel's), -EPERM (kallsyms shows only zero addresses), or -errno.
 */
int sysmap_resolve(const char *map_path, const char *kallsyms_path,
		   const char *sym, unsigned long long *addr,
		   struct errbuf *eb);

#define SYSMAP_MANY_MAX 16

/*
 * sysmap_resolve() for several names with one read of each file: found[i]
 * tells whether names[i] is in the map, addrs[i] its run-time address.
 * The offset comes from the first text symbol kallsyms lists, so no one
 * symbol has to be listed there.  Returns how many were found, or -errno
 * (-ENOENT: the map lacks that first symbol, so it is not this kernel's).
 */
int sysmap_resolve_many(const char *map_path, const char *kallsyms_path,
			const char *const *names, size_t n,
			unsigned long long *addrs, int *found,
			struct errbuf *eb);

#endif
