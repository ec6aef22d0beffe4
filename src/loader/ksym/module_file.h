/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel module file as a symbol lookup reads it: modules ship as .ko,
 * .ko.gz, .ko.xz (Debian 6.12) or .ko.zst.
 *
 * Functions that take eb (may be NULL) leave a one-line human message in
 * eb->msg on failure.
 */
#ifndef EXT4DIST_LOADER_KSYM_MODULE_FILE_H
#define EXT4DIST_LOADER_KSYM_MODULE_FILE_H

#include <stddef.h>

#include "loader/util/errbuf.h"

/* Largest module file, compressed or inflated, that we read. */
#define MODSYM_MAX_SIZE		(256u << 20)

/* The file's content, as it is (mapped) or inflated as far as needed. */
struct module_image {
	unsigned char *data;
	size_t len;
	/* 1: the file mapped; 2: an inflated image (MODSYM_MAX_SIZE mapped) */
	int mapped;
};

/*
 * Finds the module file for base (".../ext4.ko"): base itself, else base
 * with ".xz", ".zst" or ".gz" appended.  Writes the path found to buf.
 * Returns 0, -ENOENT, or -ENAMETOOLONG.
 */
int modsym_ko_path(const char *base, char *buf, size_t len);

/*
 * Reads path into *out: a raw file mapped as it is; one compressed with
 * gzip (always), xz or zstd (when built with EXT4DIST_WITH_XZ /
 * EXT4DIST_WITH_ZSTD; told by the magic bytes) inflated in a stream of
 * which only what a symbol lookup reads is kept: the ELF header, the
 * section headers, the symbol tables and their strings, the section
 * names and the notes (out->len is the inflated size; the rest reads as
 * zeros).  The whole stream is read, so that its check covers what is
 * kept; memory stays a few MiB whatever it inflates to.  Release with
 * module_file_free(); on failure *out is empty.  Returns 0, or:
 *   -EINVAL   not a regular file, not a relocatable ELF file once
 *             inflated, or a corrupted or truncated stream
 *   -ENOTSUP  compressed with a format this build cannot read
 *   -EFBIG    file or inflated data larger than MODSYM_MAX_SIZE (said
 *             at once by an ELF header whose section headers lie past it)
 *   -E2BIG    a stream that needs more than 16 MiB to inflate (its xz
 *             dictionary or zstd window): the kernel makes none such
 *   -ENOMEM
 *   -errno    from reading the file (-ENOENT: no such file)
 */
int module_file_load(const char *path, struct module_image *out,
		     struct errbuf *eb);

/* Frees img's data and empties it; img may be NULL. */
void module_file_free(struct module_image *img);

#endif
