/* SPDX-License-Identifier: GPL-2.0 */
/* What the process may do: capabilities for BPF, and locked memory. */
#ifndef EXT4DIST_LOADER_KERNEL_PRIVILEGES_H
#define EXT4DIST_LOADER_KERNEL_PRIVILEGES_H

/*
 * 0 when the effective set has CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON
 * (5.8+); -EPERM otherwise.
 */
int privileges_check(void);

/*
 * Kernels before 5.11 charge BPF maps and programs to RLIMIT_MEMLOCK,
 * whose default (64 KiB) is too small: lift it.  Harmless on newer ones.
 */
void privileges_raise_memlock(void);

/*
 * The soft RLIMIT_NOFILE up to the hard one, which needs no privilege: a
 * run holds a descriptor per map, program and probe (and per CPU in slow
 * mode).  The hard limit itself is the user's to raise.
 */
void privileges_raise_nofile(void);

#endif
