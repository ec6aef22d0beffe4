#include "tool/ext4_ops.h"

#include <stddef.h>

static const struct ext4_op ext4_ops[NR_OPS] = {
	{ OP_READ, "read", "ext4_file_read_iter" },	/* 4.10+ */
	{ OP_WRITE, "write", "ext4_file_write_iter" },
	{ OP_OPEN, "open", "ext4_file_open" },
	{ OP_FSYNC, "fsync", "ext4_sync_file" },
	{ OP_GETATTR, "getattr", "ext4_file_getattr" },
};

const struct ext4_op *ext4_op_get(enum ext4dist_op op)
{
	return (unsigned int)op < NR_OPS ? &ext4_ops[op] : NULL;
}
