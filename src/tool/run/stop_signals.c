// SPDX-License-Identifier: GPL-2.0
#include "tool/run/stop_signals.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

static void on_stop_signal(int sig)
{
	(void)sig;	/* never runs: the signals stay blocked */
}

/*
 * Every signal whose default action ends the process stops the run
 * through its normal path instead (last report, probes removed): killed
 * by one, ext4dist would leave its tracefs events behind.  INT, TERM and
 * HUP are the ways to stop it (exit status 0); the others end it with
 * 128 + their number, as a shell reports a process they killed.
 * Left out: the synchronous faults (SEGV, BUS, ILL, FPE, TRAP), which
 * the kernel forces through any block (force_sig_info() unblocks them)
 * and after which there is no sane state to stop from; KILL and STOP,
 * which cannot be caught; PIPE, ignored instead (a write fails with
 * EPIPE).  ABRT and SYS are in: abort() unblocks SIGABRT before raising
 * it and seccomp forces SIGSYS, so only a kill(1) of them waits here.
 */
static const struct {
	int sig;
	const char *name;
} stop_list[] = {
	{ SIGINT, "INT" }, { SIGTERM, "TERM" }, { SIGHUP, "HUP" },
	{ SIGQUIT, "QUIT" }, { SIGABRT, "ABRT" }, { SIGUSR1, "USR1" },
	{ SIGUSR2, "USR2" }, { SIGALRM, "ALRM" }, { SIGVTALRM, "VTALRM" },
	{ SIGPROF, "PROF" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
	{ SIGIO, "IO" }, { SIGPWR, "PWR" }, { SIGSYS, "SYS" },
#ifdef SIGSTKFLT
	{ SIGSTKFLT, "STKFLT" },
#endif
};

/* The listed signals and the real-time ones (default action: end). */
sigset_t stop_set(void)
{
	sigset_t set;
	unsigned int i;
	int sig;

	sigemptyset(&set);
	for (i = 0; i < sizeof(stop_list) / sizeof(stop_list[0]); i++)
		sigaddset(&set, stop_list[i].sig);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&set, sig);
	return set;
}

int stop_signals_setup(void)
{
	struct sigaction sa;
	sigset_t set = stop_set();
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * A real-time signal refused with EINVAL is one the system keeps
	 * for itself (valgrind keeps the last): it cannot come to stop us.
	 */
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&set, sig) == 1 && sigaction(sig, &sa, NULL) &&
		    !(errno == EINVAL && sig >= SIGRTMIN))
			return -errno;
	/*
	 * A closed pipe must not kill us with tracefs events still defined:
	 * the write fails with EPIPE instead and the run stops cleanly.
	 */
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, NULL))
		return -errno;
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	return 0;
}

/*
 * A write past RLIMIT_FSIZE fails with EFBIG and makes the kernel send
 * SIGXFSZ to the writer (send_sig() in generic_write_check_limits(), so
 * SI_USER from our own pid).  The failed write has its own report; the
 * signal is no request to stop.
 */
int stop_own_xfsz(int signo, int code, int pid)
{
	return signo == SIGXFSZ && code == SI_USER && pid == getpid();
}

int stop_take(void)
{
	sigset_t set = stop_set();
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	int sig;

	for (;;) {
		sig = sigtimedwait(&set, &si, &zero);
		if (sig <= 0)
			return 0;
		if (!stop_own_xfsz(si.si_signo, si.si_code, si.si_pid))
			return sig;
	}
}

const char *stop_signal_name(int sig)
{
	static char rt[24];
	unsigned int i;

	for (i = 0; i < sizeof(stop_list) / sizeof(stop_list[0]); i++)
		if (stop_list[i].sig == sig)
			return stop_list[i].name;
	snprintf(rt, sizeof(rt), "RTMIN+%d", sig - SIGRTMIN);
	return rt;
}

int stop_fd_open(void)
{
	sigset_t set = stop_set();
	int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);

	return fd < 0 ? -errno : fd;
}

int stop_fd_read(int fd)
{
	struct signalfd_siginfo si;

	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		if (!stop_own_xfsz((int)si.ssi_signo, si.ssi_code,
				       (int)si.ssi_pid))
			return (int)si.ssi_signo;
	return 0;
}
