// SPDX-License-Identifier: GPL-2.0
#include "tool/run/stop_fd.h"

#include <errno.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "tool/run/run_loop.h"

int stop_fd_open(void)
{
	sigset_t set = run_loop_stop_set();
	int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);

	return fd < 0 ? -errno : fd;
}

int stop_fd_read(int fd)
{
	struct signalfd_siginfo si;

	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (!run_loop_own_xfsz((int)si.ssi_signo, si.ssi_code,
				       (int)si.ssi_pid))
			return (int)si.ssi_signo;
	return 0;
}
