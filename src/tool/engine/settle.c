// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a run: entry programs off, then the calls in flight given
 * time to return, so that the last output holds them.  What is still in
 * flight afterwards never returned (its return program was missed) or
 * is still running; the warnings say which it may be.
 */
#include <errno.h>
#include <time.h>

#include "tool/engine/tracer.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int tracer_settle(struct tracer *t, long long (*drain)(void *ctx), void *ctx)
{
	long long last, now;
	int waited = 0, quiet = 0;

	tracer_stop_entries(t);
	/*
	 * A first drain right after the stop: a call that entered after
	 * the caller's last drain is counted in flight here.
	 */
	last = drain(ctx);
	while (last > 0 && waited < SETTLE_MAX_MS && quiet < SETTLE_QUIET_MS) {
		sleep_ms(SETTLE_STEP_MS);
		waited += SETTLE_STEP_MS;
		now = drain(ctx);
		if (now < 0)
			return (int)now;
		quiet = now == last ? quiet + SETTLE_STEP_MS : 0;
		last = now;
	}
	return last < 0 ? (int)last : 0;
}
