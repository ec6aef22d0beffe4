/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where fentry and fexit can trace a file system: each traced function's
 * BTF id in the kernel's BTF (vmlinux's, or the module's split BTF when
 * the file system is a module, 5.11+) and its number of arguments (the
 * fexit programs find the return value in the word after them).  Read
 * from files only: the kernel is asked nothing here.
 */
#ifndef EXT4DIST_TOOL_FENTRY_H
#define EXT4DIST_TOOL_FENTRY_H

#include <stdint.h>

#include "loader/util/errbuf.h"
#include "tool/fs/fs.h"

struct fentry_ids {
	uint32_t id[NR_OPS];		/* 0: not asked */
	unsigned int nargs[NR_OPS];
	uint32_t generic_id;		/* fs->generic_read's, 0: not asked */
	unsigned int generic_nargs;
	int in_module;			/* the ops' functions: module's BTF */
	char source[300];		/* where the ids came from, for -v */
};

/*
 * The ids of the functions of ops_mask (with generic: the shared read
 * function for reads, always vmlinux's), from btf_dir (NULL:
 * /sys/kernel/btf; sys_module NULL: /sys/module, to tell a module from
 * built-in code).  0, or -errno with why saying what is missing.
 */
int fentry_resolve(const struct fs_table *fs, unsigned int ops_mask,
		   int generic, const char *btf_dir, const char *sys_module,
		   struct fentry_ids *ids, struct errbuf *why);

#endif
