/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's CPU lists: /sys/devices/system/cpu/{possible,online}. */
#ifndef EXT4DIST_LOADER_KERNEL_CPUS_H
#define EXT4DIST_LOADER_KERNEL_CPUS_H

#define CPU_LIST_MAX 8192	/* NR_CPUS is at most 8192 on x86_64 */

struct cpu_list {
	unsigned int n;
	unsigned int ids[CPU_LIST_MAX];
};

/*
 * Parses the kernel's list format ("0-3", "0", "0-1,4-7\n") into out,
 * ascending as written.  -EINVAL for anything else, -E2BIG past
 * CPU_LIST_MAX entries.
 */
int cpus_parse_list(const char *text, struct cpu_list *out);

/* The online CPUs.  0 or -errno. */
int cpus_online(struct cpu_list *out);

/*
 * Number of possible CPUs as per-CPU map values count them: the highest
 * possible id plus one.  -errno when it cannot be read.
 */
int cpus_possible(void);

#endif
