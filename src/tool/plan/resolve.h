/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the traced functions are: kprobes by address where a symbol table
 * the kernel is known to match says so, by name (the kernel looks each
 * one up) otherwise.
 */
#ifndef EXT4DIST_TOOL_RESOLVE_H
#define EXT4DIST_TOOL_RESOLVE_H

#include <stddef.h>

#include "ext4dist_abi.h"
#include "tool/discover/read_path.h"
#include "tool/fs/fs.h"

#define FN_MAX (NR_OPS + 2 + READ_PATH_NR_SYMS)

/*
 * The traced functions' addresses: names[i] at addrs[i] when found[i].
 * From the module file where it is the build the kernel loaded (trusted
 * at once), or for a built-in file system from System.map, trusted only
 * once the f_op probe of the generic read path has seen what System.map
 * says (until then every probe goes by name, and a name System.map lacks
 * is only a hint).
 */
struct fn_addrs {
	const char *names[FN_MAX];
	unsigned long long addrs[FN_MAX];
	int found[FN_MAX];
	unsigned int nr_fn;		/* 0: every probe by name */
	unsigned int nr_syms;		/* nr_fn plus read_path's data symbols */
	int trusted;
	char source[640];		/* where the addresses came from */
	int sysmap_agrees;		/* read_path: System.map checked out */
	char sysmap_path[300];		/* the map the addresses came from */
};

/*
 * Looks fs's functions up (sys_module, kallsyms_path: NULL for the real
 * ones) and says in said how the kprobes will name them.
 */
void resolve_addresses(struct fn_addrs *a, const struct fs_table *fs,
		       const char *sys_module, const char *kallsyms_path,
		       char *said, size_t said_size);
/* No addresses at all: every probe by name (or by BTF id). */
void resolve_none(struct fn_addrs *a);
/* The f_op probe saw what System.map says: its addresses hold. */
void resolve_trust_sysmap(struct fn_addrs *a, char *said, size_t said_size);
/*
 * func's address, 0 for by name; -ENOENT when a trusted symbol table
 * shows the function is not there (no need to try).
 */
int resolve_addr_of(const struct fn_addrs *a, const char *func,
		    unsigned long long *addr);
/* func's address in System.map, not yet confirmed; unchanged if none. */
void resolve_hint_addr(const struct fn_addrs *a, const char *func,
		       unsigned long long *addr);
/* 1 when System.map, not yet confirmed, lacks func. */
int resolve_hint_lacks(const struct fn_addrs *a, const char *func);

#endif
