// SPDX-License-Identifier: GPL-2.0
#include "tool/run/run_loop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loader/util/text_pages.h"
#include "output/report.h"
#include "output/tool_name.h"
#include "tool/run/exporter.h"
#include "tool/run/outq.h"
#include "tool/run/stop_signals.h"

/*
 * Waits until deadline (CLOCK_MONOTONIC) or a stop signal: returns the
 * signal's number, or 0 at the deadline.
 */
static int wait_until(const struct timespec *deadline, int forever)
{
	sigset_t set = stop_set();

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
		if (sig > 0 && !stop_own_xfsz(si.si_signo, si.si_code, si.si_pid))
			return sig;
		if (sig < 0 && errno == EAGAIN)
			return 0;
		/* EINTR from another signal (SIGCONT...): wait on. */
	}
}

int run_loop_stopped_by(int sig, FILE *err)
{
	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig <= 0)
		return 0;
	fprintf(err, "%s: stopped by SIG%s (probes removed)\n", tool_name(),
		stop_signal_name(sig));
	return 128 + sig;
}

/*
 * Renders one report into memory, then queues it for stdout (outq.h), so
 * that a failure says what really failed (stdio keeps only "an error
 * happened").
 */
static int put_report(const struct run_print *pr, FILE *out,
		      const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem)
		return -errno;
	err = pr->json ? report_json(mem, r) : report_text(mem, r);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	if (err) {
		free(text);
		return err;
	}
	fflush(out);
	err = outq_write(1, text, len);
	free(text);
	return err;
}

/*
 * An output: every tracer drained (and at the end given time for the
 * calls in flight), the files written, each file system's report.
 */
static int emit(struct fleet *fl, const struct run_print *pr, FILE *out,
		int final)
{
	unsigned int i;
	int err = fleet_drain(fl);

	if (!err && final)
		err = fleet_settle(fl);
	if (err)
		return err;
	fleet_output(fl, pr, time(NULL));
	for (i = 0; i < fl->n && !err; i++) {
		err = put_report(pr, out, &fl->interval[i]);
		report_warnings(stderr, &fl->interval[i],
				tracer_missed_reason(fl->t[i]));
	}
	fleet_next(fl);
	return err;
}

int run_loop(struct fleet *fl, struct exporter *x,
	     const struct run_print *pr, FILE *out)
{
	struct timespec deadline;
	unsigned long left = pr->count;
	unsigned int i;
	int err;

	/* JSON keeps stdout parseable: the banner goes to stderr there. */
	for (i = 0; i < fl->n; i++)
		fprintf(pr->json ? stderr : out, "%s\n",
			tracer_fs(fl->t[i])->banner);
	fflush(out);
	/* Start-up's text, done with (text_pages.c). */
	text_pages_drop();
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (;;) {
		int stopped, last;

		deadline.tv_sec += (time_t)pr->interval;
		/* Taken while the output waited for room, else waited for. */
		stopped = outq_stop_signal();
		if (!stopped)
			stopped = x ? exporter_wait(x, &deadline,
						    pr->interval == 0) :
				      wait_until(&deadline, pr->interval == 0);
		if (stopped < 0)
			return stopped;
		last = stopped || pr->interval == 0 || left == 1;
		/* The last report waits for no reader: the probes go first. */
		if (last)
			outq_stopping();
		err = emit(fl, pr, out, last);
		if (err)
			return err;
		if (last)
			return stopped;
		left--;
	}
}
