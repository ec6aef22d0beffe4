/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic read path (kernels before 4.10, or --read-path=generic):
 * generic_file_read_iter filtered on file->f_op == &ext4_file_operations.
 * Needs two numbers the kernel does not export plainly: where struct file
 * keeps f_op, and the address of ext4_file_operations.
 */
#ifndef EXT4DIST_TOOL_READ_PATH_H
#define EXT4DIST_TOOL_READ_PATH_H

#include <stddef.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "tool/fs/fs.h"

/*
 * Symbols already read from System.map (one read serves the tracer and
 * this): names[i] at addrs[i] when found[i].
 */
struct sym_set {
	const char *path;
	const char *const *names;
	const unsigned long long *addrs;
	const int *found;
	unsigned int n;
};

/* What the generic read path needs from the tracer. */
struct read_path_env {
	const struct fs_table *fs;
	struct bpf_obj *obj;		/* its maps created, programs patched */
	/* Loads and attaches the "scan_release" program on func ... */
	int (*attach_scan)(void *arg, const char *func,
			   struct probe_link *link, struct errbuf *eb);
	/* ... and detaches and unloads it again. */
	void (*detach_scan)(void *arg, struct probe_link *link);
	void *arg;
	unsigned long long fops_addr;	/* --fops-addr, 0 = look it up */
	const char *kallsyms_path;	/* NULL = /proc/kallsyms */
	const char *sys_module;		/* NULL = /sys/module */
	int kallsyms_no_data;		/* --pretend=no-kallsyms-data */
	const char *sysmap_path;	/* NULL = /boot/System.map-$(uname -r) */
	const struct sym_set *sysmap;	/* NULL: read sysmap_path here */
	const char *mounts_path;	/* NULL = /proc/self/mounts */
	int tracing_fd;			/* the tracing dir held, -1 if none */
	const char *tracing_dir;	/* its name, for messages */
	int *sysmap_agrees;		/* set to 1 when System.map checks out */
};

/*
 * Finds both numbers and patches them into the programs.  The offset comes
 * from opening and closing, under a probe on the file system's directory
 * ->release, the root directory of a mounted file system of that type:
 * nothing is created or changed on it, and any mount will do (empty,
 * read-only, deep in the tree).  With none mounted, a directory of tracefs
 * or debugfs under a probe on libfs's dcache_dir_close serves instead.  The address comes from --fops-addr, System.map, kallsyms
 * or the module file, each checked against what the probe saw.  what gets
 * one line saying where each came from.
 */
int read_path_prepare_generic(const struct read_path_env *env, char *what,
			      size_t what_len, struct errbuf *eb);

/* The data symbols a symbol source may be asked for: fills names. */
#define READ_PATH_NR_SYMS 3
void read_path_symbols(const struct fs_table *fs,
		       const char *names[READ_PATH_NR_SYMS]);

/*
 * The words of a scan taken in ->release(inode, file) that could be f_op:
 * kernel addresses (not pointing into either object) that the inode holds
 * too, as inode->i_fop, each value once, at its first offset; ka is the
 * kernel's architecture (its word size, 8 or 4, and address range).
 * Returns how many (at most FOP_MAX_CANDIDATES), or -EINVAL.
 */
#define FOP_MAX_CANDIDATES 4
struct fop_candidates {
	unsigned int n;
	int off[FOP_MAX_CANDIDATES];			/* byte offsets */
	unsigned long long val[FOP_MAX_CANDIDATES];	/* their values */
};
int read_path_fop_candidates(const struct open_scan *scan,
			     const struct karch *ka, struct fop_candidates *c);

/*
 * From a scan taken in ->release(inode, file), the offset of f_op in struct
 * file: of the words of the file, the one kernel address (not pointing
 * into either object) that the inode holds too, as inode->i_fop, for a
 * kernel of architecture ka.  Returns the byte offset with *fop
 * set to that word, -ENOENT when no word qualifies, -EEXIST when several
 * do (why lists them).
 */
int read_path_find_fop_offset(const struct open_scan *scan,
			      const struct karch *ka, unsigned long long *fop,
			      struct errbuf *why);

#endif
