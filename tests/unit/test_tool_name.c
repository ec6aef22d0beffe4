// SPDX-License-Identifier: GPL-2.0
/*
 * tool_name(): "ext4dist" until main() sets the name run as; then the
 * messages written outside main() (the warnings under a report, the
 * stop by a signal, --dump-maps) carry that name, exactly.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "output/report.h"
#include "output/tool_name.h"
#include "tool/dump/dump_maps.h"
#include "tool/run/run_loop.h"

/* What fn wrote into a memory stream, or NULL; its result in *ret. */
static char *written(int (*fn)(FILE *, void *), void *arg, int *ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	*ret = fn(f, arg);
	fclose(f);
	return text;
}

static int warnings(FILE *f, void *arg)
{
	return report_warnings(f, arg, "why");
}

static int stopped(FILE *f, void *arg)
{
	return run_loop_stopped_by(*(int *)arg, f);
}

static int maps(FILE *f, void *arg)
{
	return dump_maps_hist(f, 2, arg, 1, 1, "usecs");
}

static void test_default(void)
{
	check_str("before main() sets it", tool_name(), "ext4dist");
	tool_name_set(NULL);
	check_str("NULL: kept", tool_name(), "ext4dist");
}

static void test_messages(void)
{
	struct report r;
	struct op_hist v;
	int sig = SIGQUIT, ret = -1;
	char *text;

	tool_name_set("xfsslower");
	check_str("set", tool_name(), "xfsslower");

	memset(&r, 0, sizeof(r));
	r.fs_name = "xfs";
	r.ops_mask = 1u << OP_READ;
	r.flow[OP_READ].missed = 2;
	text = written(warnings, &r, &ret);
	check_int("warnings: returns 0", ret, 0);
	check_str("warnings: the name run as", text,
		  "xfsslower: warning: 2 read calls were not timed: the return probe never ran (why)\n");
	free(text);

	text = written(stopped, &sig, &ret);
	check_int("SIGQUIT: 128 + 3", ret, 128 + SIGQUIT);
	check_str("SIGQUIT: the name run as", text,
		  "xfsslower: stopped by SIGQUIT (probes removed)\n");
	free(text);

	memset(&v, 0, sizeof(v));
	v.slots[1] = 5;
	text = written(maps, &v, &ret);
	check_int("--dump-maps: returns 0", ret, 0);
	check_str("--dump-maps: the name run as", text,
		  "xfsslower: map hist, key 2 (open, buffer 0): 1 per-CPU value\n"
		  "xfsslower:   slot 1 (0 -> 1 usecs): cpu0 5 = 5\n");
	free(text);
}

static const struct test_case test_cases[] = {
	TEST_CASE(default),
	TEST_CASE(messages),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
