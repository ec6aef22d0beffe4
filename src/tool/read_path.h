/*
 * The generic read path (kernels before 4.10, or --read-path=generic):
 * generic_file_read_iter filtered on file->f_op == &ext4_file_operations.
 * Needs two numbers the kernel does not export plainly: the address of
 * ext4_file_operations and the offset of f_op inside struct file.
 */
#ifndef EXT4DIST_READ_PATH_H
#define EXT4DIST_READ_PATH_H

#include "tool/tracer.h"

/*
 * Finds both numbers and patches them into the generic read programs.
 * Needs t's attach context and loaded maps (the offset is discovered with
 * a short-lived probe on ext4_file_open).
 */
int read_path_prepare_generic(struct tracer *t,
			      const struct tracer_config *cfg,
			      const struct obj_load_opts *lo,
			      struct errbuf *eb);

/*
 * Where in words[0..n-1] (a copy of a struct file) the value fops sits:
 * the byte offset, or -ENOENT.  Word 0 is skipped in no layout: any match
 * counts, the first one wins.
 */
int read_path_find_fop_offset(const unsigned long long *words, unsigned int n,
			      unsigned long long fops);

/*
 * Address of ext4_file_operations: --fops-addr, else kallsyms, else
 * System.map, else the ext4 module file plus its section address.
 */
int read_path_fops_addr(const struct tracer_config *cfg,
			unsigned long long *addr, struct errbuf *eb);

#endif
