// SPDX-License-Identifier: GPL-2.0
#include "loader/attach/perf_event.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int perf_event_open_fd(struct perf_event_attr *attr)
{
	/* pid -1, cpu 0: a kprobe event fires on every CPU whatever cpu says. */
	long fd = syscall(__NR_perf_event_open, attr, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

int perf_set_bpf_and_enable(int perf_fd, int prog_fd, const char *what,
			    struct errbuf *eb)
{
	if (ioctl(perf_fd, PERF_EVENT_IOC_SET_BPF, prog_fd))
		return errbuf_set(eb, -errno,
				  "attaching the BPF program to %s failed (PERF_EVENT_IOC_SET_BPF): %s",
				  what, strerror(errno));
	if (ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0))
		return errbuf_set(eb, -errno, "enabling %s failed: %s", what,
				  strerror(errno));
	return 0;
}
