#include "tool/run_loop.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/report.h"

#define BANNER "Tracing ext4 operation latency... Hit Ctrl-C to end.\n"

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
static sigset_t stop_signals(void)
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

int run_loop_signals_setup(void)
{
	struct sigaction sa;
	sigset_t set = stop_signals();
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&set, sig) == 1 && sigaction(sig, &sa, NULL))
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
static int own_xfsz(const siginfo_t *si)
{
	return si->si_signo == SIGXFSZ && si->si_code == SI_USER &&
	       si->si_pid == getpid();
}

/*
 * Waits until deadline (CLOCK_MONOTONIC) or a stop signal: returns the
 * signal's number, or 0 at the deadline.
 */
static int wait_until(const struct timespec *deadline, int forever)
{
	sigset_t set = stop_signals();

	for (;;) {
		struct timespec now, left;
		siginfo_t si;
		int sig;

		if (forever) {
			sig = sigwaitinfo(&set, &si);
		} else {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = deadline->tv_sec - now.tv_sec;
			left.tv_nsec = deadline->tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_nsec += 1000000000L;
				left.tv_sec--;
			}
			if (left.tv_sec < 0)
				return 0;
			sig = sigtimedwait(&set, &si, &left);
		}
		if (sig > 0 && !own_xfsz(&si))
			return sig;
		if (sig < 0 && errno == EAGAIN)
			return 0;
		/* EINTR from another signal (SIGCONT...): wait on. */
	}
}

int run_loop_stopped_by(int sig, FILE *err)
{
	unsigned int i;

	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig <= 0)
		return 0;
	for (i = 0; i < sizeof(stop_list) / sizeof(stop_list[0]); i++)
		if (stop_list[i].sig == sig)
			break;
	if (i < sizeof(stop_list) / sizeof(stop_list[0]))
		fprintf(err, "ext4dist: stopped by SIG%s (probes removed)\n",
			stop_list[i].name);
	else
		fprintf(err, "ext4dist: stopped by SIGRTMIN+%d (probes removed)\n",
			sig - SIGRTMIN);
	return 128 + sig;
}

/* This interval = running totals now minus those at the last report. */
static void interval_delta(struct op_hist *cur, const struct op_hist *prev,
			   struct op_hist *out)
{
	unsigned int op, s;

	for (op = 0; op < NR_OPS; op++) {
		for (s = 0; s < NR_SLOTS; s++)
			out[op].slots[s] = cur[op].slots[s] - prev[op].slots[s];
		out[op].sum_ns = cur[op].sum_ns - prev[op].sum_ns;
		out[op].lost = cur[op].lost - prev[op].lost;
		/*
		 * A maximum cannot be subtracted: it is the largest since
		 * tracing began, and 0 for an interval without events.
		 */
		out[op].max_ns = out[op].sum_ns || report_op_has_events(&out[op]) ?
				 cur[op].max_ns : 0;
	}
}

/*
 * Calls that the histograms above do not hold: say so, with the numbers.
 * missed: the kernel's count for our probes (tracefs, kprobe_multi 6.7+);
 * lost: calls whose start record was overwritten before their return.
 */
static void warn_losses(struct tracer *t, const struct op_hist *interval,
			unsigned long long *prev_missed)
{
	unsigned long long missed = tracer_missed(t), dm, lost = 0;
	unsigned int op;

	for (op = 0; op < NR_OPS; op++)
		lost += interval[op].lost;
	dm = missed - *prev_missed;
	*prev_missed = missed;
	if (!dm && !lost)
		return;
	fprintf(stderr, "ext4dist: warning: in this interval the kernel missed %llu probe hit%s (%s) and %llu call%s lost %s start record before returning; the histograms above do not count them\n",
		dm, dm == 1 ? "" : "s", tracer_missed_reason(t),
		lost, lost == 1 ? "" : "s",
		lost == 1 ? "its" : "their");
}

static int emit(struct tracer *t, const struct ext4dist_args *a, FILE *out,
		struct op_hist *prev, unsigned long long *prev_missed)
{
	struct op_hist cur[NR_OPS];
	struct report r;
	int err;

	err = tracer_read(t, cur);
	if (err)
		return err;
	memset(&r, 0, sizeof(r));
	r.milliseconds = a->milliseconds;
	r.show_time = a->interval && !a->notimestamp;
	r.extended = a->extended;
	r.when = time(NULL);
	r.ops_mask = a->ops_mask;
	if (a->prometheus) {
		memcpy(r.ops, cur, sizeof(cur));
		err = report_prom_write_file(a->prometheus, &r);
		if (err)
			fprintf(stderr, "ext4dist: cannot write %s: %s\n",
				a->prometheus, strerror(-err));
	}
	interval_delta(cur, prev, r.ops);
	memcpy(prev, cur, sizeof(cur));
	err = a->json ? report_json(out, &r) : report_text(out, &r);
	if (fflush(out) && !err)
		err = -errno;
	warn_losses(t, r.ops, prev_missed);
	return err;
}

int run_loop(struct tracer *t, const struct ext4dist_args *a, FILE *out)
{
	struct op_hist prev[NR_OPS];
	unsigned long long missed = 0;
	struct timespec deadline;
	unsigned long left = a->count;
	int err;

	memset(prev, 0, sizeof(prev));
	/* JSON keeps stdout parseable: the banner goes to stderr there. */
	fputs(BANNER, a->json ? stderr : out);
	fflush(out);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (;;) {
		int stopped;

		deadline.tv_sec += (time_t)a->interval;
		stopped = wait_until(&deadline, a->interval == 0);
		err = emit(t, a, out, prev, &missed);
		if (err)
			return err;
		if (stopped)
			return stopped;
		if (a->interval == 0 || --left == 0)
			return 0;
	}
}
