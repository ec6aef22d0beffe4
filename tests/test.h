/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal test framework: every check prints one PASS or FAIL line. */
#ifndef EXT4DIST_TESTS_TEST_H
#define EXT4DIST_TESTS_TEST_H

#include <stdio.h>
#include <string.h>

extern int test_failed;
extern int test_passed;

/*
 * The source tree, so fixtures and golden files are found from any working
 * directory: TEST_FIXTURES "kallsyms_core.txt".
 */
#ifndef TEST_SRCDIR
#error "TEST_SRCDIR: the source tree's absolute path, as the Makefile passes it"
#endif
#define TEST_FIXTURES TEST_SRCDIR "/tests/unit/fixtures/"
#define TEST_GOLDEN TEST_SRCDIR "/tests/unit/golden/"

/*
 * Reports a named check.  Returns cond so callers can stop early.  Exactly
 * two arguments: anything more is a compile error, not silently dropped.
 */
#define CHECK(cond, name) \
	test_report(!!(cond), __FILE__, __LINE__, name, #cond)

int test_report(int ok, const char *file, int line, const char *name,
		const char *expr);
/* Exact comparisons: print both sides on failure. */
int check_int(const char *name, long long got, long long want);
int check_str(const char *name, const char *got, const char *want);
int check_mem(const char *name, const void *got, size_t got_len,
	      const void *want, size_t want_len);
/* Compare got with the whole content of a golden file. */
int check_golden(const char *name, const char *got, size_t got_len,
		 const char *golden_path);
/* Read a whole file into a malloc'ed NUL-terminated buffer (NULL on error). */
char *test_read_file(const char *path, size_t *len);
/* A gzip file, decompressed whole into a malloc'ed buffer (NULL on error). */
unsigned char *test_read_gz(const char *path, size_t *len);
/* Writes len bytes to path (created 0600, truncated): 0 or -1. */
int test_write_file(const char *path, const void *data, size_t len);
/*
 * A fresh directory <$TMPDIR or /tmp>/<tag>.XXXXXX for this test, NULL on
 * failure; test_tmp_path() names a file in it (4 rotating buffers).
 */
const char *test_tmpdir(const char *tag);
const char *test_tmp_path(const char *name);
/* Prints the summary line and returns the exit code for main(). */
int test_done(void);

/* A test case, run by name: TEST_CASE(foo) runs test_foo() as "foo". */
struct test_case {
	const char *name;
	void (*fn)(void);
};
#define TEST_CASE(name) { #name, test_##name }

/*
 * main() of a test file: runs the cases named in argv (every case when
 * there is none), in the order of cases[], which ends with { NULL, NULL }.
 * Returns the exit code for main(): test_done()'s, or 2 when a name is not
 * a case (the cases are listed on stderr, none is run).
 */
int test_main(int argc, char **argv, const struct test_case *cases);

#endif
