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
#include "loader/util/errbuf.h"

struct fs_op {
	const char *func;	/* "ext4_file_read_iter"; NULL: not traceable */
	const char *since;	/* the kernel that added func, for messages */
};

/*
 * A file system's own tracepoints around fsync (--attach=tracepoint):
 * group:enter and group:exit, the exit event's field with the return
 * value.  group NULL: none.
 */
struct fs_tracepoints {
	const char *group;		/* "ext4" */
	const char *enter;		/* "ext4_sync_file_enter" */
	const char *exit;		/* "ext4_sync_file_exit" */
	const char *ret_field;		/* "ret" */
};

struct fs_table {
	const char *name;		/* "ext4", as /proc/filesystems says */
	const char *tool;		/* "ext4dist": the name it answers to */
	const char *slower_tool;	/* "ext4slower": its slow mode's name */
	const char *title;		/* BCC's description: "Summarize ..." */
	const char *slower_title;	/* the slow mode's */
	const char *label;		/* "ext4" ("XFS"): the slow mode's banner */
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
	 * source.  generic_read NULL: no such path (the file system always
	 * had its own read function).
	 */
	const char *generic_read;
	const char *fops_symbol;
	const char *dir_release;
	const char *dir_fops_symbol;
	struct fs_tracepoints fsync_tp;
};

extern const struct fs_table fs_ext4, fs_xfs, fs_btrfs, fs_f2fs;

/* Every table, ext4's first; NULL-ended. */
extern const struct fs_table *const fs_all[];

/* The table of a file system ("xfs"), NULL if there is none. */
const struct fs_table *fs_by_name(const char *name);

/*
 * The table whose tool or slow mode argv0's last component names
 * ("xfsdist", "/usr/sbin/xfsslower"), NULL if none; *slower 1 for the
 * slow mode's name.
 */
const struct fs_table *fs_by_tool(const char *argv0, int *slower);

/*
 * The embedded object's programs are named by operation ("kprobe/read"):
 * the target of func's, func a function of fs ("xfs_file_fsync":
 * "fsync"), its generic read path (PROG_GENERIC_READ) or its directories'
 * ->release (PROG_DIR_RELEASE); NULL when fs's table does not name func.
 */
const char *fs_prog_target(const struct fs_table *fs, const char *func);
/* The first table with fsync tracepoints, for messages; NULL if none. */
const struct fs_table *fs_with_tracepoints(void);

/*
 * 0 when fs has a function for every operation in ops_mask (and a
 * generic read path, if generic asks for it); else -EINVAL, saying why.
 */
int fs_check_wanted(const struct fs_table *fs, unsigned int ops_mask,
		    int generic, struct errbuf *eb);

/*
 * 1 when /proc/filesystems (path NULL) lists fs->name, 0 if not, -errno.
 */
int fs_registered(const struct fs_table *fs, const char *path);

#endif
