/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files replaced whole at every output (--prometheus, --heatmap):
 * written to <name>.tmp.<pid> beside the target, fsync'ed, renamed over
 * it, so that a reader never sees half a file.
 */
#ifndef EXT4DIST_OUTPUT_FILE_REPLACE_H
#define EXT4DIST_OUTPUT_FILE_REPLACE_H

#include <stddef.h>

/*
 * Replaces path with the len bytes of buf: <name>.tmp.<pid> in the same
 * directory (the name cut to fit NAME_MAX), fsync, rename over path.  An
 * existing file's owner and mode are kept; a path that is not a regular
 * file is never replaced (-EISDIR, -ELOOP for a symbolic link, -EPERM
 * for a device node, fifo or socket).  The temporary file is removed on
 * any error.
 */
int file_replace(const char *path, const char *buf, size_t len);
/*
 * The start-up check of such a path, given with option ("--prometheus"):
 * everything file_replace() does but the rename (the temporary file is
 * created with the target's owner and mode, then removed).  0, or -errno
 * with a one-line message in msg ("--prometheus PATH: <why>; <what to
 * do>").
 */
int file_replace_check(const char *option, const char *path, char *msg,
		       size_t size);

#endif
