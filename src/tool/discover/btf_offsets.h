/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The offsets the generic read path and slow mode's names patch in, read
 * from the running kernel's BTF instead of discovered under a kprobe:
 * for the fentry path on kernels that refuse entry kprobes (riscv64).
 */
#ifndef EXT4DIST_TOOL_BTF_OFFSETS_H
#define EXT4DIST_TOOL_BTF_OFFSETS_H

#include "loader/util/errbuf.h"

struct file_offsets {
	int fop;		/* offsetof(struct file, f_op) */
	int dentry;		/* offsetof(struct file, f_path.dentry) */
	int dname;		/* offsetof(struct dentry, d_name.name) */
	char source[64];	/* the BTF read, for messages */
};

/*
 * From btf_dir's vmlinux (NULL: /sys/kernel/btf): 0, or -errno with why
 * naming what is missing.
 */
int btf_file_offsets(const char *btf_dir, struct file_offsets *o,
		     struct errbuf *why);

#endif
