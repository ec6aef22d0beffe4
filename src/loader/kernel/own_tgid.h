/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This process's tgid as BPF programs see it (bpf_get_current_pid_tgid()
 * >> 32): its PID in the initial PID namespace, which getpid() is not
 * inside a child namespace.
 */
#ifndef EXT4DIST_LOADER_KERNEL_OWN_TGID_H
#define EXT4DIST_LOADER_KERNEL_OWN_TGID_H

#include "loader/util/errbuf.h"

/*
 * Asks the kernel itself: a raw tracepoint program of the loader's own
 * (3 instructions: r0 = bpf_get_current_pid_tgid() >> 32), run once on
 * demand in this task (BPF_PROG_TEST_RUN of raw tracepoint programs,
 * 5.10+; they load from 4.17) and closed.  0 with *tgid, or -errno with
 * the reason in eb.
 */
int own_tgid_bpf(unsigned int *tgid, struct errbuf *eb);

#endif
