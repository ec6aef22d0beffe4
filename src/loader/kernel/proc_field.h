/* SPDX-License-Identifier: GPL-2.0 */
/* One number of a /proc file of "key: value" lines. */
#ifndef EXT4DIST_LOADER_KERNEL_PROC_FIELD_H
#define EXT4DIST_LOADER_KERNEL_PROC_FIELD_H

/*
 * The number after "KEY:" and blanks on a line of path (fdinfo's
 * "memlock:\t4096", status's "VmHWM:\t    1400 kB"), into *v.  0;
 * -ENODATA when no line has KEY (a kernel that does not show it);
 * -EINVAL when its value is not a number; -errno of the open.
 */
int proc_field(const char *path, const char *key, unsigned long long *v);

/* proc_field, the number followed by blanks and unit alone ("kB"), else -EINVAL. */
int proc_field_unit(const char *path, const char *key, const char *unit,
		    unsigned long long *v);

/* memlock of /proc/self/fdinfo/FD: a BPF map's or program's, as the kernel counts it. */
int proc_fd_memlock(int fd, unsigned long long *bytes);

#endif
