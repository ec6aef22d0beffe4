// SPDX-License-Identifier: GPL-2.0
/* ext4: what ext4dist traces, as BCC's ext4dist does. */
#include "tool/fs/fs.h"

#include <stddef.h>

static const char *const mount_types[] = { "ext4", "ext3", "ext2", NULL };

const struct fs_table fs_ext4 = {
	.name = "ext4",
	.tool = "ext4dist",
	.slower_tool = "ext4slower",
	.title = "Summarize ext4 operation latency",
	.slower_title = "Print each ext4 read, write, open and fsync that takes longer than a\n"
			"threshold",
	.label = "ext4",
	.module = "ext4",
	.module_file = "kernel/fs/ext4/ext4.ko",
	.mount_types = mount_types,
	.banner = "Tracing ext4 operation latency... Hit Ctrl-C to end.",
	.metric = "ext4dist",
	.default_ops = (1u << OP_READ) | (1u << OP_WRITE) | (1u << OP_OPEN) |
		       (1u << OP_FSYNC),
	.ops = {
		[OP_READ] = { "ext4_file_read_iter", "4.10" },
		[OP_WRITE] = { "ext4_file_write_iter", "4.1" },
		[OP_OPEN] = { "ext4_file_open", "2.6.28" },
		[OP_FSYNC] = { "ext4_sync_file", "2.6.28" },
		/* statx (4.11) gave regular files a getattr of their own. */
		[OP_GETATTR] = { "ext4_file_getattr", "4.11" },
	},
	.generic_read = "generic_file_read_iter",
	.fops_symbol = "ext4_file_operations",
	.dir_release = "ext4_release_dir",
	.dir_fops_symbol = "ext4_dir_operations",
	/*
	 * ext4_sync_file() fires them around its work on every call but
	 * one on a file system that is shut down (refused before either).
	 */
	.fsync_tp = { "ext4", "ext4_sync_file_enter", "ext4_sync_file_exit",
		      "ret" },
};
