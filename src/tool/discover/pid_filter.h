/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -p PID: the tgid the BPF programs compare.  PID names a process of
 * ext4dist's own PID namespace, as kill(1) reads it; the programs see
 * bpf_get_current_pid_tgid(), the tgid in the initial PID namespace.
 */
#ifndef EXT4DIST_TOOL_PID_FILTER_H
#define EXT4DIST_TOOL_PID_FILTER_H

#include "loader/loader.h"

/*
 * 0 with *tgid set, or -errno with a one-line reason in eb: no such
 * process (-ESRCH); pid is a thread, not a process (-EINVAL; the filter
 * keeps a whole thread group, so a thread id would match nothing); or
 * ext4dist runs in a child PID namespace where pid cannot be translated
 * exactly (-EOPNOTSUPP).  The translation takes a pidfd (5.3+) and reads
 * its pid from /proc/self/fdinfo, which /proc shows relative to its own
 * namespace: exact when /proc is the initial namespace's.
 */
int pid_filter_resolve(unsigned int pid, unsigned int *tgid,
		       struct errbuf *eb);

/*
 * ext4dist's own tgid as its BPF programs see it, so that they leave its
 * own file operations out and serve its own probes (PATCH_SELF): getpid()
 * in the initial PID namespace; inside a child one, /proc/self where
 * /proc is the initial namespace's, else the kernel asked through BPF
 * (own_tgid_bpf(), 5.10+).  0, or -errno with the reason in eb when
 * neither can tell.
 */
int pid_filter_self(unsigned int *tgid, struct errbuf *eb);

#endif
