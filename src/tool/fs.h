/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ext4dist traces, in one table per file system: the kernel function
 * of each operation, the shared read path of old kernels and what filters
 * it, and the words the tool prints.  Nothing else in the tool names a
 * file system's functions.
 */
#ifndef EXT4DIST_TOOL_FS_H
#define EXT4DIST_TOOL_FS_H

#include "ext4dist_abi.h"

struct fs_op {
	const char *func;	/* "ext4_file_read_iter"; NULL: not traceable */
	const char *since;	/* the kernel that added func, for messages */
};

struct fs_table {
	const char *name;		/* "ext4", as /proc/filesystems says */
	const char *module;		/* its module, for /sys/module/NAME */
	const char *module_file;	/* under /lib/modules/$(uname -r)/ */
	/* Mount types it serves (ext4 also mounts ext2 and ext3), NULL-ended */
	const char *const *mount_types;
	const char *banner;		/* first line of output */
	const char *metric;		/* Prometheus metric name prefix */
	unsigned int default_ops;	/* bit per enum ext4dist_op */
	struct fs_op ops[NR_OPS];
	/*
	 * Before the file system had a read_iter of its own, reads went
	 * through this shared function; the f_op filter keeps the files
	 * whose file->f_op is fops_symbol.  dir_release is its directories'
	 * ->release, where the f_op offset is discovered, and
	 * dir_fops_symbol the f_op that shows there: it checks the symbol
	 * source.
	 */
	const char *generic_read;
	const char *fops_symbol;
	const char *dir_release;
	const char *dir_fops_symbol;
};

extern const struct fs_table fs_ext4;

/*
 * 1 when /proc/filesystems (path NULL) lists fs->name, 0 if not, -errno.
 */
int fs_registered(const struct fs_table *fs, const char *path);

#endif
