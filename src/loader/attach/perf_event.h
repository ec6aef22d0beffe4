/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open() and the two ioctls that the PMU, tracefs and
 * tracepoint paths end with.
 */
#ifndef EXT4DIST_LOADER_ATTACH_PERF_EVENT_H
#define EXT4DIST_LOADER_ATTACH_PERF_EVENT_H

#include <linux/perf_event.h>

#include "loader/util/errbuf.h"

/* Opens attr for all processes on CPU 0; returns the fd or -errno. */
int perf_event_open_fd(struct perf_event_attr *attr);
/* PERF_EVENT_IOC_SET_BPF then PERF_EVENT_IOC_ENABLE; what names the probe. */
int perf_set_bpf_and_enable(int perf_fd, int prog_fd, const char *what,
			    struct errbuf *eb);

#endif
