// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/grace.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "loader/kernel/cpus.h"

/* MEMBARRIER_CMD_GLOBAL, called MEMBARRIER_CMD_SHARED before 4.16. */
#define CMD_GLOBAL 1

static int membarrier_global(void)
{
#ifdef __NR_membarrier
	return syscall(__NR_membarrier, CMD_GLOBAL, 0) == 0 ? 0 : -errno;
#else
	return -ENOSYS;
#endif
}

/* Runs this thread once on each online CPU; 0 when every one was reached. */
static int visit_every_cpu(void)
{
	struct cpu_list online;
	cpu_set_t saved, one;
	unsigned int i;
	int err = 0;

	if (cpus_online(&online) || sched_getaffinity(0, sizeof(saved), &saved))
		return -ENOENT;
	for (i = 0; i < online.n && !err; i++) {
		if (online.ids[i] >= CPU_SETSIZE) {
			err = -ERANGE;
			break;
		}
		CPU_ZERO(&one);
		CPU_SET(online.ids[i], &one);
		/* Returns once we run there: the scheduler moved us at once. */
		if (sched_setaffinity(0, sizeof(one), &one))
			err = -errno;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	return err;
}

enum grace_how bpf_grace_period(void)
{
	struct timespec ts = { 0, 10L * 1000 * 1000 };

	if (membarrier_global() == 0)
		return GRACE_MEMBARRIER;
	if (visit_every_cpu() == 0)
		return GRACE_MIGRATION;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	return GRACE_SLEEP;
}
