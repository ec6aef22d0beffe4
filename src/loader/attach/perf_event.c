// SPDX-License-Identifier: GPL-2.0
#include "loader/attach/perf_event.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader/util/kcall.h"

/* type and config as strace prints them: tracepoint ids in decimal. */
static void narrate_open(const struct perf_event_attr *a, long ret)
{
	char type[32], config[32];

	if (a->type == PERF_TYPE_TRACEPOINT) {
		snprintf(type, sizeof(type), "PERF_TYPE_TRACEPOINT");
		snprintf(config, sizeof(config), "%llu",
			 (unsigned long long)a->config);
	} else {
		snprintf(type, sizeof(type), "%#x", a->type);
		snprintf(config, sizeof(config), "%#llx",
			 (unsigned long long)a->config);
	}
	kcall_log(1, ret, "perf_event_open({type=%s, config=%s, sample_period=%llu, wakeup_events=%u, config1=%#llx, config2=%#llx}, -1, 0, -1, PERF_FLAG_FD_CLOEXEC)",
		  type, config, (unsigned long long)a->sample_period,
		  a->wakeup_events, (unsigned long long)a->config1,
		  (unsigned long long)a->config2);
}

int perf_event_open_fd(struct perf_event_attr *attr)
{
	/* pid -1, cpu 0: a kprobe event fires on every CPU whatever cpu says. */
	long fd = syscall(__NR_perf_event_open, attr, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);
	int ret = fd < 0 ? -errno : (int)fd;

	narrate_open(attr, ret);
	return ret;
}

int perf_set_bpf_and_enable(int perf_fd, int prog_fd, const char *what,
			    struct errbuf *eb)
{
	int err;

	kcall_why("%s: program fd %d runs at each hit of perf event fd %d (the event holds the program from now on)",
		  what, prog_fd, perf_fd);
	err = ioctl(perf_fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ? -errno : 0;
	kcall_log(1, err, "ioctl(%d, PERF_EVENT_IOC_SET_BPF, %d)", perf_fd,
		  prog_fd);
	if (err)
		return errbuf_set(eb, err,
				  "attaching the BPF program to %s failed (PERF_EVENT_IOC_SET_BPF): %s",
				  what, strerror(-err));
	kcall_why("%s: the event counts, and runs its program, from now on",
		  what);
	err = ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
	kcall_log(1, err, "ioctl(%d, PERF_EVENT_IOC_ENABLE, 0)", perf_fd);
	if (err)
		return errbuf_set(eb, err, "enabling %s failed: %s", what,
				  strerror(-err));
	return 0;
}
