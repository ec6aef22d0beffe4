// SPDX-License-Identifier: GPL-2.0
/*
 * The lessons (tool/dump/lessons.c): each program of the object broken on
 * purpose has its lesson and each lesson its program, and a log says a
 * lesson's reason only when it holds each of its lines whole.
 */
#include <string.h>

#include "loader/loader.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"
#include "tool/dump/lessons.h"
#include "tool/plan/prog_select.h"

static void test_table(void)
{
	struct errbuf eb = { "" };
	struct bpf_blob blob;
	struct bpf_obj obj;
	char name[256];
	size_t i, progs = 0;

	check_int("the object", bpf_blob_for(bpf_blob_own_arch(), &blob), 0);
	if (!check_int("it parses", bpf_obj_parse(blob.data, blob.size, &obj, &eb), 0))
		return;
	for (i = 0; i < obj.nr_progs; i++) {
		if (!prog_is_lesson(&obj.progs[i]))
			continue;
		progs++;
		snprintf(name, sizeof(name), "%s has its lesson",
			 obj.progs[i].section);
		CHECK(lesson_find(obj.progs[i].variant), name);
	}
	for (i = 0; i < nr_lessons; i++) {
		snprintf(name, sizeof(name), "lesson %s has its program",
			 lessons[i].name);
		CHECK(bpf_obj_find_prog(&obj, PROBE_ENTRY, LESSON_TARGET,
					lessons[i].name), name);
		snprintf(name, sizeof(name), "lesson %s: a reason of whole lines",
			 lessons[i].name);
		CHECK(lessons[i].why[0] &&
		      lessons[i].why[strlen(lessons[i].why) - 1] == '\n', name);
	}
	check_int("nine lessons", (int)nr_lessons, 9);
	check_int("nine programs broken on purpose", (int)progs, 9);
	CHECK(lesson_find("null_array") && lesson_find("null_array")->accepted,
	      "null_array: accepted by some kernels, which it says");
	CHECK(lesson_find("gpl_helper") &&
	      !strcmp(lesson_find("gpl_helper")->license, "Proprietary"),
	      "gpl_helper: under another licence");
	bpf_obj_free(&obj);
}

static void test_log_says(void)
{
	const char log[] =
		"9: (85) call bpf_perf_event_output#25\n"
		"cannot pass map_type 2 into func bpf_perf_event_output#25\n"
		"16: (7b) *(u64 *)(r0 +0) = r1\n"
		"invalid access to map value, value_size=32 off=32 size=8\n"
		"R0 max value is outside of the allowed memory range\n"
		"processed 17 insns (limit 1000000) max_states_per_insn 0\n";
	const char *lines[LESSON_MAX_LINES];

	CHECK(lesson_log_says(log, "cannot pass map_type 2 into func bpf_perf_event_output#25\n",
			      lines) && lines[0] == log + 38 && !lines[1],
	      "a whole line, '#' itself");
	CHECK(lesson_log_says(log, "invalid access to map value, value_size=32 off=32 size=8\n"
			      "R%u max value is outside of the allowed memory range\n",
			      lines) && lines[1] && !strncmp(lines[1], "R0 max", 6),
	      "two lines, %u a register's number");
	CHECK(!lesson_log_says(log, "R%u max value is outside\n", lines),
	      "not part of a line");
	CHECK(!lesson_log_says(log, "invalid access to map value, value_size=8 off=8 size=8\n",
			       lines), "not other numbers");
	CHECK(!lesson_log_says(log, "R%u !read_ok\n", lines), "not a line missing");
	CHECK(!lesson_log_says(log, "processed %u insns\n", lines),
	      "%u is digits, not the rest of the line");
	CHECK(lesson_log_says("infinite loop detected at insn 1", "infinite loop detected at insn %u\n",
			      lines), "a last line without its newline");
	CHECK(!lesson_log_says("R insn", "R%u insn\n", lines), "%u needs a digit");
	CHECK(!lesson_log_says(NULL, "R0 !read_ok\n", lines), "no log");
}

static const struct test_case test_cases[] = {
	TEST_CASE(table),
	TEST_CASE(log_says),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
