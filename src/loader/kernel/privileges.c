// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/privileges.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader/util/vlog.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return !!(d[cap / 32].effective & (1u << (cap % 32)));
}

int privileges_check(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(__NR_capget, &hdr, data))
		return -errno;
	if (has_cap(data, CAP_SYS_ADMIN))
		return 0;
	if (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON))
		return 0;
	return -EPERM;
}

void privileges_raise_nofile(void)
{
	struct rlimit rl;
	unsigned long long from;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	from = rl.rlim_cur;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		vlog(1, "cannot raise RLIMIT_NOFILE from %llu to its hard limit: %s",
		     from, strerror(errno));
	else
		vlog(2, "RLIMIT_NOFILE raised from %llu to its hard limit, %llu",
		     from, (unsigned long long)rl.rlim_max);
}

void privileges_raise_memlock(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct rlimit cur;

	if (getrlimit(RLIMIT_MEMLOCK, &cur) == 0 &&
	    cur.rlim_cur == RLIM_INFINITY)
		return;
	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		vlog(1, "cannot raise RLIMIT_MEMLOCK: %s (only matters before 5.11)",
		     strerror(errno));
	else
		vlog(1, "RLIMIT_MEMLOCK raised to unlimited (kernels before 5.11 charge BPF memory to it)");
}
