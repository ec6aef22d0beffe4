/* Which kernel functions ext4dist probes for each operation. */
#ifndef EXT4DIST_EXT4_OPS_H
#define EXT4DIST_EXT4_OPS_H

#include "ext4dist_abi.h"

struct ext4_op {
	enum ext4dist_op op;
	const char *name;	/* "read" */
	const char *func;	/* "ext4_file_read_iter" */
};

/* Before 4.10 ext4 reads go through this one, shared by many file systems. */
#define GENERIC_READ_FUNC "generic_file_read_iter"
#define FOPS_SYMBOL "ext4_file_operations"

const struct ext4_op *ext4_op_get(enum ext4dist_op op);

/* 1 when /proc/filesystems (path NULL) lists ext4, 0 if not, -errno. */
int ext4_fs_registered(const char *path);

#endif
