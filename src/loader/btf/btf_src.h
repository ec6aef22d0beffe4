/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a BTF blob's bytes come from: a file, read with pread() at the
 * offset asked (sysfs bin files take offsets), or a buffer in memory
 * (tests, the fuzzer).  Nothing is held but the caller's buffer: the
 * reader over it asks for a window's worth at a time.  It counts what it
 * hands out, so tests can hold the reader to the bytes it needs.
 */
#ifndef EXT4DIST_LOADER_BTF_BTF_SRC_H
#define EXT4DIST_LOADER_BTF_BTF_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "loader/util/errbuf.h"

#define BTF_WINDOW	(64u << 10)	/* bytes a pass reads at a time */

struct btf_src {
	int fd;				/* -1: the buffer at mem */
	const unsigned char *mem;
	uint64_t size;			/* fstat()'s, or the buffer's */
	const char *name;		/* for messages: the path */
	size_t window;			/* BTF_WINDOW; tests shrink it */
	uint64_t bytes;			/* handed out so far */
	uint64_t reads;			/* pread() calls, or copies */
};

/* Opens path and takes its size from fstat(): 0 or -errno, saying why. */
int btf_src_open(struct btf_src *s, const char *path, struct errbuf *eb);
/* The size bytes at data (not copied: they must outlive s), called name. */
void btf_src_mem(struct btf_src *s, const void *data, size_t size,
		 const char *name);
void btf_src_close(struct btf_src *s);

/*
 * Exactly len bytes at off into buf: 0, or -errno saying why (-EIO past
 * the size, or when the file ends before the size it said).
 */
int btf_src_read(struct btf_src *s, uint64_t off, void *buf, size_t len,
		 struct errbuf *eb);

#endif
