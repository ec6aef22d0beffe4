// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/tool/engine/settle.c: the stop's one rule.  Entries go first,
 * then drains until no call is in flight, the number has not moved for
 * SETTLE_QUIET_MS, SETTLE_MAX_MS have passed, or a drain fails.
 */
#include "test.h"
#include "tool/engine/tracer_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* A scripted drain: in flight per call, the last value repeated. */
struct script {
	struct tracer *t;
	const long long *in_flight;
	int n;		/* values in in_flight[] */
	int calls;	/* drains so far */
	int entries_on;	/* drains that found the entry link still open */
	long long step;	/* 0: in_flight[]; else start at in_flight[0] and add it */
};

static long long drain(void *ctx)
{
	struct script *s = ctx;
	long long v;

	if (s->t->links[1].perf_fd >= 0)
		s->entries_on++;
	if (s->step)
		v = s->in_flight[0] + s->step * s->calls;
	else
		v = s->in_flight[s->calls < s->n ? s->calls : s->n - 1];
	s->calls++;
	return v;
}

/* Runs tracer_settle over values; returns its result, *calls the drains. */
static int settle_with(const long long *values, int n, long long step,
		       int *calls)
{
	struct tracer *t = tracer_new();
	struct script s = { t, values, n, 0, 0, step };
	int fd, rc;

	if (!t)
		return -ENOMEM;
	/*
	 * A kprobe_multi entry link stand-in, after its return link's
	 * place: tracer_settle must close it first.
	 */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	t->links[1] = (struct probe_link){ &attach_multi_ops, fd, "entry" };
	t->links[0].perf_fd = -1;
	t->nr_links = 2;
	rc = tracer_settle(t, drain, &s);
	check_int("no drain before the entries are off", s.entries_on, 0);
	check_int("the entry link closed", fcntl(fd, F_GETFD) < 0 && errno == EBADF, 1);
	tracer_free(t);
	*calls = s.calls;
	return rc;
}

static void test_none_in_flight(void)
{
	static const long long v[] = { 0 };
	int calls;

	check_int("none in flight: result", settle_with(v, 1, 0, &calls), 0);
	check_int("none in flight: one drain, no wait", calls, 1);
}

static void test_all_return(void)
{
	static const long long v[] = { 3, 2, 2, 1, 0 };
	int calls;

	check_int("all return: result", settle_with(v, 5, 0, &calls), 0);
	check_int("all return: drains until none is left", calls, 5);
}

static void test_quiet(void)
{
	static const long long v[] = { 5, 4, 4 };
	int calls, quiet = SETTLE_QUIET_MS / SETTLE_STEP_MS;

	check_int("stuck: result", settle_with(v, 3, 0, &calls), 0);
	/* 5, then 4, then as many more 4s as make the quiet span. */
	check_int("stuck: drains until the number stops moving", calls,
		  2 + quiet);
}

static void test_at_most(void)
{
	static const long long v[] = { 1000 };
	int calls;

	/* One fewer each drain: never quiet, never none. */
	check_int("always moving: result", settle_with(v, 1, -1, &calls), 0);
	check_int("always moving: drains for SETTLE_MAX_MS", calls,
		  1 + SETTLE_MAX_MS / SETTLE_STEP_MS);
}

static void test_errors(void)
{
	static const long long first[] = { -EIO };
	static const long long third[] = { 2, 1, -EBADF };
	int calls;

	check_int("failing first drain: its error",
		  settle_with(first, 1, 0, &calls), -EIO);
	check_int("failing first drain: no other", calls, 1);
	check_int("failing third drain: its error",
		  settle_with(third, 3, 0, &calls), -EBADF);
	check_int("failing third drain: no fourth", calls, 3);
}

static const struct test_case test_cases[] = {
	TEST_CASE(none_in_flight),
	TEST_CASE(all_return),
	TEST_CASE(quiet),
	TEST_CASE(at_most),
	TEST_CASE(errors),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
