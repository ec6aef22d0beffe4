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
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	tool_name_set("xfsslower");
	check_str("set", tool_name(), "xfsslower");
	memset(&r, 0, sizeof(r));
	r.fs_name = "xfs";
	r.ops_mask = 1u << OP_READ;
	r.flow[OP_READ].missed = 2;
	memset(&v, 0, sizeof(v));
	v.slots[1] = 5;
	f = open_memstream(&text, &len);
	if (!CHECK(f, "memstream"))
		return;
	check_int("warnings: returns 0", report_warnings(f, &r, "why"), 0);
	check_int("SIGQUIT: 128 + 3", run_loop_stopped_by(SIGQUIT, f),
		  128 + SIGQUIT);
	check_int("--dump-maps: returns 0",
		  dump_maps_hist(f, 2, &v, 1, 1, "usecs"), 0);
	fclose(f);
	check_str("each message under the name run as", text,
		  "xfsslower: warning: 2 read calls were not timed: the return probe never ran (why)\n"
		  "xfsslower: stopped by SIGQUIT (probes removed)\n"
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
