/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of small kernel files (sysfs, procfs, tracefs attributes):
 * read whole, NUL-terminated, with the error of the call that failed.
 */
#ifndef EXT4DIST_LOADER_UTIL_SMALL_FILE_H
#define EXT4DIST_LOADER_UTIL_SMALL_FILE_H

#include <stddef.h>

/*
 * Reads path into buf (size bytes, NUL-terminated).  Returns the length,
 * -EFBIG when the file does not fit, or -errno of open()/read().
 */
int small_file_read(const char *path, char *buf, size_t size);
/* The same from an open fd, which it closes. */
int small_file_read_fd(int fd, char *buf, size_t size);

/* The file's first line as a decimal int ("6\n"): 0 or -errno/-EINVAL. */
int small_file_read_int(const char *path, int *out);

#endif
