// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs: BCC has no f2fsdist; f2fsdist follows ext4dist's conventions
 * (its banner, operation names and text).
 */
#include "tool/fs/fs.h"

#include <stddef.h>

static const char *const mount_types[] = { "f2fs", NULL };

const struct fs_table fs_f2fs = {
	.name = "f2fs",
	.tool = "f2fsdist",
	.slower_tool = "f2fsslower",
	.title = "Summarize f2fs operation latency",
	.slower_title = "Print each f2fs read, write, open and fsync that takes longer than a\n"
			"threshold",
	.label = "f2fs",
	.module = "f2fs",
	.module_file = "kernel/fs/f2fs/f2fs.ko",
	.mount_types = mount_types,
	.banner = "Tracing f2fs operation latency... Hit Ctrl-C to end.",
	.metric = "f2fsdist",
	.default_ops = (1u << OP_READ) | (1u << OP_WRITE) | (1u << OP_OPEN) |
		       (1u << OP_FSYNC),
	/*
	 * f2fs_getattr serves every kind of inode: no getattr.  Kernels
	 * whose f2fs read through generic_file_read_iter (before
	 * f2fs_file_read_iter) are not traced: its directories have no
	 * ->release for the f_op discovery's probe.
	 */
	.ops = {
		[OP_READ] = { "f2fs_file_read_iter", "5.6" },
		[OP_WRITE] = { "f2fs_file_write_iter", "4.1" },
		[OP_OPEN] = { "f2fs_file_open", "3.8" },
		[OP_FSYNC] = { "f2fs_sync_file", "3.8" },
	},
	.fops_symbol = "f2fs_file_operations",
};
