// SPDX-License-Identifier: GPL-2.0
#include "tool/dump/lessons.h"

#include <ctype.h>
#include <string.h>

const struct lesson lessons[] = {
	{
		.name = "past_end",
		.wrong = "a store one word past the end of a map value (ctl's is 8 bytes)",
		.why = "invalid access to map value, value_size=8 off=8 size=8\n",
	},
	{
		.name = "null_hash",
		.wrong = "a hash map's value read without checking the lookup found one",
		.why = "R%u invalid mem access 'map_value_or_null'\n",
	},
	{
		.name = "null_array",
		.wrong = "the same on an array map with a constant key",
		.why = "R%u invalid mem access 'map_value_or_null'\n",
		.accepted = "from 6.14 the verifier knows an array lookup with a constant key below max_entries cannot fail, and drops the NULL from the value's type",
	},
	{
		.name = "unchecked_index",
		.wrong = "a map value indexed with a number nothing bounds",
		.why = "R%u unbounded memory access, make sure to bounds check any such access\n",
	},
	{
		.name = "off_by_one",
		.wrong = "an index checked with <= where < was meant: w[4] of 4 words",
		.why = "invalid access to map value, value_size=32 off=32 size=8\n"
		       "R%u max value is outside of the allowed memory range\n",
	},
	{
		.name = "endless_loop",
		.wrong = "a jump back to itself while a register stays 0: a loop that never ends",
		.why = "infinite loop detected at insn %u\n",
		.why_before = "back-edge from insn %u to %u\n",
		.since = "5.3",
	},
	{
		.name = "no_return",
		.wrong = "an exit with nothing in r0, the return value",
		.why = "R0 !read_ok\n",
	},
	{
		.name = "gpl_helper",
		.wrong = "bpf_probe_read, a GPL-only helper, under a licence that is not GPL",
		.license = "Proprietary",
		.why = "cannot call GPL-restricted function from non-GPL compatible program\n",
	},
	{
		.name = "wrong_map",
		.wrong = "a plain array where bpf_perf_event_output needs a perf event array",
		.why = "cannot pass map_type 2 into func bpf_perf_event_output#25\n",
	},
};

const size_t nr_lessons = sizeof(lessons) / sizeof(lessons[0]);

const struct lesson *lesson_find(const char *name)
{
	size_t i;

	for (i = 0; i < nr_lessons; i++)
		if (strcmp(lessons[i].name, name) == 0)
			return &lessons[i];
	return NULL;
}

/* 1 when the line at s (ending at '\n' or NUL) is the pattern p (len n). */
static int line_is(const char *s, const char *p, size_t n)
{
	const char *end = p + n;

	while (p < end) {
		if (p + 1 < end && p[0] == '%' && p[1] == 'u') {
			if (!isdigit((unsigned char)*s))
				return 0;
			while (isdigit((unsigned char)*s))
				s++;
			p += 2;
		} else if (*s == *p) {
			s++;
			p++;
		} else {
			return 0;
		}
	}
	return *s == '\n' || *s == '\0';
}

/* The first line of log that is the pattern p (len n), or NULL. */
static const char *find_line(const char *log, const char *p, size_t n)
{
	const char *s = log;

	while (s && *s) {
		if (line_is(s, p, n))
			return s;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return NULL;
}

int lesson_log_says(const char *log, const char *want,
		    const char *lines[LESSON_MAX_LINES])
{
	const char *p = want;
	size_t i = 0;

	if (!log || !want)
		return 0;
	while (*p && i < LESSON_MAX_LINES) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		lines[i] = find_line(log, p, n);
		if (!lines[i++])
			return 0;
		p += n + (nl != NULL);
	}
	while (i < LESSON_MAX_LINES)
		lines[i++] = NULL;
	return 1;
}
