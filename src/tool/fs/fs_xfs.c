// SPDX-License-Identifier: GPL-2.0
/* xfs: what xfsdist traces, as BCC's xfsdist does. */
#include "tool/fs/fs.h"

#include <stddef.h>

static const char *const mount_types[] = { "xfs", NULL };

const struct fs_table fs_xfs = {
	.name = "xfs",
	.tool = "xfsdist",
	.slower_tool = "xfsslower",
	.title = "Summarize XFS operation latency",
	.slower_title = "Trace common XFS file operations slower than a threshold",
	.label = "XFS",
	.module = "xfs",
	.module_file = "kernel/fs/xfs/xfs.ko",
	.mount_types = mount_types,
	.banner = "Tracing XFS operation latency... Hit Ctrl-C to end.",
	.metric = "xfsdist",
	.default_ops = (1u << OP_READ) | (1u << OP_WRITE) | (1u << OP_OPEN) |
		       (1u << OP_FSYNC),
	/*
	 * xfs had its own read_iter and write_iter from the start of the
	 * iter interface (3.16): no generic read path.  Its getattr,
	 * xfs_vn_getattr, serves directories and symbolic links too: not
	 * traced (BCC's xfsdist has none).
	 */
	.ops = {
		[OP_READ] = { "xfs_file_read_iter", "3.16" },
		[OP_WRITE] = { "xfs_file_write_iter", "3.16" },
		[OP_OPEN] = { "xfs_file_open", "2.6.37" },
		[OP_FSYNC] = { "xfs_file_fsync", "2.6.37" },
	},
	.fops_symbol = "xfs_file_operations",
};
