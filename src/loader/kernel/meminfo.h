/* SPDX-License-Identifier: GPL-2.0 */
/* How much memory the machine has: MemTotal of /proc/meminfo. */
#ifndef EXT4DIST_LOADER_KERNEL_MEMINFO_H
#define EXT4DIST_LOADER_KERNEL_MEMINFO_H

/*
 * MemTotal of path (NULL: /proc/meminfo), in bytes, into *bytes.  0,
 * -EINVAL when the file has no "MemTotal: N kB" line, or -errno.
 */
int meminfo_total(const char *path, unsigned long long *bytes);

#endif
