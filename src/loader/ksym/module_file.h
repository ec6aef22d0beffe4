/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel module file read into memory, decompressed: modules ship as
 * .ko, .ko.gz, .ko.xz (Debian 6.12) or .ko.zst.
 *
 * Functions that take eb (may be NULL) leave a one-line human message in
 * eb->msg on failure.
 */
#ifndef EXT4DIST_LOADER_KSYM_MODULE_FILE_H
#define EXT4DIST_LOADER_KSYM_MODULE_FILE_H

#include <stddef.h>

#include "loader/util/errbuf.h"

/* Largest module file, compressed or not, that we read into memory. */
#define MODSYM_MAX_SIZE		(256u << 20)

/* The file's content, decompressed (malloc()ed), or as it is (mapped). */
struct module_image {
	unsigned char *data;
	size_t len;
	int mapped;		/* data is the file mapped, not malloc()ed */
};

/*
 * Finds the module file for base (".../ext4.ko"): base itself, else base
 * with ".xz", ".zst" or ".gz" appended.  Writes the path found to buf.
 * Returns 0, -ENOENT, or -ENAMETOOLONG.
 */
int modsym_ko_path(const char *base, char *buf, size_t len);

/*
 * Reads path into *out, decompressed with gzip (always), xz or zstd (when
 * built with EXT4DIST_WITH_XZ / EXT4DIST_WITH_ZSTD); the format is told
 * by the file's magic bytes, anything else is taken as it is.  Release
 * with module_file_free(); on failure *out is empty.  Returns 0, or:
 *   -EINVAL   not a regular file, or a corrupted or truncated stream
 *   -ENOTSUP  compressed with a format this build cannot read
 *   -EFBIG    file or decompressed data larger than MODSYM_MAX_SIZE
 *   -ENOMEM
 *   -errno    from reading the file (-ENOENT: no such file)
 */
int module_file_load(const char *path, struct module_image *out,
		     struct errbuf *eb);

/* Frees img's data and empties it; img may be NULL. */
void module_file_free(struct module_image *img);

#endif
