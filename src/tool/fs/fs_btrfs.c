// SPDX-License-Identifier: GPL-2.0
/* btrfs: what btrfsdist traces, as BCC's btrfsdist does. */
#include "tool/fs/fs.h"

#include <stddef.h>

static const char *const mount_types[] = { "btrfs", NULL };

const struct fs_table fs_btrfs = {
	.name = "btrfs",
	.tool = "btrfsdist",
	.slower_tool = "btrfsslower",
	.title = "Summarize btrfs operation latency",
	.slower_title = "Trace common btrfs file operations slower than a threshold",
	.label = "btrfs",
	.module = "btrfs",
	.module_file = "kernel/fs/btrfs/btrfs.ko",
	.mount_types = mount_types,
	.banner = "Tracing btrfs operation latency... Hit Ctrl-C to end.",
	.metric = "btrfsdist",
	.default_ops = (1u << OP_READ) | (1u << OP_WRITE) | (1u << OP_OPEN) |
		       (1u << OP_FSYNC),
	/*
	 * Reads went through generic_file_read_iter until btrfs split its
	 * direct I/O out (5.8): the generic read path, filtered on
	 * btrfs_file_operations, as BCC's btrfsdist always does.  Opens
	 * have had btrfs_file_open since 4.13 (FMODE_NOWAIT); BCC's
	 * generic_file_open with a filter is not needed on the kernels
	 * this traces.  btrfs_getattr serves every kind of inode: no
	 * getattr.
	 */
	.ops = {
		[OP_READ] = { "btrfs_file_read_iter", "5.8" },
		[OP_WRITE] = { "btrfs_file_write_iter", "4.1" },
		[OP_OPEN] = { "btrfs_file_open", "4.13" },
		[OP_FSYNC] = { "btrfs_sync_file", "2.6.29" },
	},
	.generic_read = "generic_file_read_iter",
	.fops_symbol = "btrfs_file_operations",
	/* btrfs_dir_file_operations' ->release is the files' own. */
	.dir_release = "btrfs_release_file",
	.dir_fops_symbol = "btrfs_dir_file_operations",
};
