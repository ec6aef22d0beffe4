/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the kernel keeps a file's name, for slow mode's events:
 * file->f_path.dentry and dentry->d_name.name move with the kernel's
 * version and configuration, and without BTF nothing says where.  They
 * are found on a file whose name ext4dist chose: copies of kernel memory
 * (the peek program, bpf/ext4dist.bpf.c) are searched here for the words
 * that lead from that file to that name.  Pure logic on copies: the unit
 * tests feed it memory images.
 */
#ifndef EXT4DIST_TOOL_NAME_OFFSETS_H
#define EXT4DIST_TOOL_NAME_OFFSETS_H

#include <stddef.h>

#include "loader/kernel/karch.h"

/* One pointer-sized word of struct file that may be f_path.dentry. */
struct name_cand {
	unsigned int off;		/* byte offset in struct file */
	unsigned long long addr;	/* its value */
};

/*
 * The words of a copy of struct file (len bytes of the object at
 * file_ptr, for a kernel of architecture k) that could point to a
 * dentry: kernel addresses (kmem_kernel_ptr), not into the file itself.
 * Fills at most max; returns how many there are (more than max when some
 * did not fit).
 */
unsigned int name_dentry_candidates(const unsigned char *file, size_t len,
				    unsigned long long file_ptr,
				    const struct karch *k, struct name_cand *out,
				    unsigned int max);

/*
 * In a copy of len bytes of memory at addr of k's kernel, taken as a
 * struct dentry:
 * the offset of d_name.name when some word points into the copy at name
 * (NUL-terminated there) and d_name's len, the upper half of the 64-bit
 * hash_len before it (in either byte order), is strlen(name).
 * -ENOENT when no word does, -EEXIST when several do.
 */
int name_find_dname(const unsigned char *mem, size_t len,
		    unsigned long long addr, const struct karch *k,
		    const char *name);

/* A word of struct file that led to a dentry with the name. */
struct name_hit {
	unsigned int file_off;		/* the word's offset in struct file */
	unsigned long long addr;	/* its value: the copy's address */
	int dname_off;			/* name_find_dname() of that copy */
};

/*
 * Add hit h to what the search found so far (*best, *nr of them).  A
 * word that points into memory before the dentry (another object in
 * the same slab page) can reach the same d_name through a 256-byte
 * copy, at a larger offset: both name the same word of kernel memory
 * (addr + dname_off), and the one at the smaller offset is the dentry
 * itself.  Two different words, two dentries: -EEXIST, no guess.
 */
int name_hit_add(struct name_hit *best, unsigned int *nr,
		 const struct name_hit *h);

#endif
