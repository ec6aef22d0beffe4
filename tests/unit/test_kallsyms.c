// SPDX-License-Identifier: GPL-2.0
/* Tests for src/loader/kallsyms.c against the fixtures in fixtures/. */
#include "test.h"
#include "loader/ksym/kallsyms.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>


static const char *const wanted[] = {
	"ext4_file_read_iter",		/* 0 */
	"ext4_file_operations",		/* 1 */
	"generic_file_read_iter",	/* 2 */
	"no_such_symbol",		/* 3 */
};
#define NR_WANTED (sizeof(wanted) / sizeof(wanted[0]))

/* Creates a temporary file with the given content; returns its path. */
static char *tmp_file(const char *content, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (!dir || !dir[0])
		dir = "/tmp";
	if (asprintf(&path, "%s/test_kallsyms.XXXXXX", dir) < 0)
		return NULL;
	fd = mkstemp(path);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	if (write(fd, content, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

/*
 * Without stats the reader skims: lines whose name cannot be wanted are
 * not parsed.  The answers must be those of a full parse, with lines of
 * every shape around them: all zeros first, a malformed line that starts
 * like a wanted name, an address too long, a module column.
 */
static void test_skim(void)
{
	static const char text[] =
		"0000000000000000 A irq_stack_union\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000010 t aaa\n"
		"garbage ext4_file_read_iter\n"
		"ffffffff81000020 T ext4_file_read_iter junk\n"
		"1ffffffff81000030 T generic_file_read_iter\n"
		"ffffffff81301234 t ext4_file_read_iter\n"
		"ffffffff81e10040 R ext4_file_operations\t[ext4]\n"
		"ffffffff812a3b10 T generic_file_read_iter\n"
		"ffffffff812a3b20 T zzz\n";
	struct ksym_result full[NR_WANTED], skim[NR_WANTED];
	struct ksym_stats st;
	char *path = tmp_file(text, sizeof(text) - 1);
	unsigned int i;

	if (!path) {
		check_int("skim: temporary file", 0, 1);
		return;
	}
	check_int("skim: full parse", kallsyms_lookup(path, wanted, NR_WANTED,
		  0, full, &st), 3);
	check_int("skim: three malformed lines", st.malformed, 3);
	check_int("skim: skimmed", kallsyms_lookup(path, wanted, NR_WANTED, 0,
		  skim, NULL), 3);
	for (i = 0; i < NR_WANTED; i++) {
		check_int("skim: found as in a full parse", skim[i].found,
			  full[i].found);
		check_int("skim: address as in a full parse", skim[i].addr,
			  full[i].addr);
	}
	check_int("skim: read_iter", skim[0].addr, 0xffffffff81301234LL);
	check_str("skim: fops module", skim[1].module, "ext4");
	check_int("skim: generic", skim[2].addr, 0xffffffff812a3b10LL);
	unlink(path);
	free(path);
}

static void test_core(void)
{
	struct ksym_result r[NR_WANTED];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", wanted, NR_WANTED,
			      0, r, &st);
	check_int("core: found 3 of 4", ret, 3);
	check_int("core: read_iter found", r[0].found, 1);
	check_int("core: read_iter addr", r[0].addr, 0xffffffff81301234LL);
	check_int("core: read_iter type", r[0].type, 't');
	check_str("core: read_iter no module", r[0].module, "");
	check_int("core: fops addr", r[1].addr, 0xffffffff81e10040LL);
	check_int("core: fops type", r[1].type, 'R');
	check_int("core: generic addr", r[2].addr, 0xffffffff812a3b10LL);
	check_int("core: generic type", r[2].type, 'T');
	check_int("core: missing not found", r[3].found, 0);
	check_int("core: missing addr 0", r[3].addr, 0);
	check_int("core: whole file read (one missing)", st.complete, 1);
	check_int("core: lines", st.lines, 19);
	check_int("core: nonzero", st.nonzero, 17);
	check_int("core: data symbols", st.data, 6);
	check_int("core: malformed", st.malformed, 0);
	check_int("core: has data symbols", kallsyms_stats_have_data(&st), 1);
}

static void test_early_stop_and_dups(void)
{
	const char *const names[] = { "_text", "cleanup_module_helper",
				      "Upper_Hex_Symbol" };
	struct ksym_result r[3];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", names, 1, 0, r,
			      &st);
	check_int("stop: found _text", ret, 1);
	check_int("stop: _text addr", r[0].addr, 0xffffffff81000000LL);
	check_int("stop: stopped at line 4", st.lines, 4);
	check_int("stop: not complete", st.complete, 0);
	check_int("stop: data heuristic needs full scan",
		  kallsyms_stats_have_data(&st), -EAGAIN);

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", names, 2, 0, r,
			      &st);
	check_int("dups: found 2", ret, 2);
	check_int("dups: first definition", r[1].addr, 0xffffffff81400100LL);
	/* Stopped at the first definition: the second not seen yet. */
	check_int("dups: early stop saw no dup", r[1].dups, 0);
	check_int("dups: stopped at line 11", st.lines, 11);

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", names, 3, 0, r,
			      &st);
	check_int("dups: found 3", ret, 3);
	check_int("dups: first definition wins", r[1].addr,
		  0xffffffff81400100LL);
	check_int("dups: dup before the last name seen", r[1].dups, 1);
	check_int("upper hex addr", r[2].addr, 0xffffffff81abcdefLL);

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", names, 3,
			      KSYM_SCAN_ALL, r, &st);
	check_int("scan all: found 3", ret, 3);
	check_int("scan all: complete", st.complete, 1);
	check_int("scan all: first wins", r[1].addr, 0xffffffff81400100LL);
	check_int("scan all: one dup", r[1].dups, 1);
	check_int("scan all: dup in same (core) place", r[1].dups_elsewhere,
		  0);
}

static void test_module(void)
{
	const char *const names[] = { "ext4_file_operations", "shared_name",
				      "ftrace_trampoline",
				      "ext4_file_write_iter" };
	struct ksym_result r[4];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_module.txt", names, 4,
			      KSYM_SCAN_ALL, r, &st);
	check_int("module: found 4", ret, 4);
	check_int("module: fops addr", r[0].addr, 0xffffffffc0603a40LL);
	check_int("module: fops type", r[0].type, 'r');
	check_str("module: fops module", r[0].module, "ext4");
	check_str("module: core first", r[1].module, "");
	check_int("module: core addr wins", r[1].addr, 0xffffffff81400100LL);
	check_int("module: 3 dups", r[1].dups, 3);
	check_int("module: all 3 elsewhere", r[1].dups_elsewhere, 3);
	check_str("module: builtin pseudo module", r[2].module,
		  "__builtin__ftrace");
	check_int("module: write_iter addr", r[3].addr,
		  0xffffffffc0600100LL);
	check_int("module: lines", st.lines, 12);
	check_int("module: malformed", st.malformed, 0);
}

static void test_zero(void)
{
	struct ksym_result r[NR_WANTED];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_zero.txt", wanted, NR_WANTED,
			      0, r, &st);
	check_int("zero: -EPERM", ret, -EPERM);
	check_int("zero: name still found", r[1].found, 1);
	check_int("zero: address 0", r[1].addr, 0);
	check_int("zero: nonzero count", st.nonzero, 0);
	check_int("zero: lines", st.lines, 6);

	/* The leading per-CPU zeros alone, when the names are found there. */
	{
		const char *const pcpu[] = { "fixed_percpu_data" };

		ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", pcpu, 1,
				      0, r, NULL);
		check_int("zero: only a zero prefix read", ret, -EPERM);
		ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", pcpu, 1,
				      KSYM_SCAN_ALL, r, NULL);
		check_int("zero: per-cpu 0 fine in a full scan", ret, 1);
	}
}

static void test_nodata(void)
{
	struct ksym_result r[NR_WANTED];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_nodata.txt", wanted,
			      NR_WANTED, 0, r, &st);
	check_int("nodata: found 2", ret, 2);
	check_int("nodata: no fops", r[1].found, 0);
	check_int("nodata: read_iter in module", r[0].addr,
		  0xffffffffc0600000LL);
	check_str("nodata: module ext4", r[0].module, "ext4");
	check_int("nodata: one stray R", st.data, 1);
	check_int("nodata: lines", st.lines, 64);
	check_int("nodata: no data symbols", kallsyms_stats_have_data(&st), 0);
}

static void test_huge_line(void)
{
	const char *const names[] = { "ext4_file_open", "ext4_file_read_iter",
				      "_text" };
	struct ksym_result r[3];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_hugeline.txt", names, 3, 0, r,
			      &st);
	check_int("huge: found 2", ret, 2);
	check_int("huge: long line not a match", r[0].found, 0);
	check_int("huge: line after it", r[1].addr, 0xffffffff81000200LL);
	check_int("huge: line before it", r[2].addr, 0xffffffff81000000LL);
	check_int("huge: one malformed", st.malformed, 1);
	check_int("huge: two lines", st.lines, 2);
}

static void test_no_newline_and_crlf(void)
{
	struct ksym_result r[NR_WANTED];
	struct ksym_stats st;
	int ret;

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_nonl.txt", wanted, NR_WANTED,
			      0, r, &st);
	check_int("nonl: found 1", ret, 1);
	check_int("nonl: last line parsed", r[1].addr, 0xffffffffc0603a40LL);
	check_str("nonl: module", r[1].module, "ext4");

	ret = kallsyms_lookup(TEST_FIXTURES "kallsyms_crlf.txt", wanted, NR_WANTED,
			      0, r, &st);
	check_int("crlf: found 1", ret, 1);
	check_int("crlf: fops addr", r[1].addr, 0xffffffffc0603a40LL);
	check_str("crlf: module without \\r", r[1].module, "ext4");
	check_int("crlf: good lines", st.lines, 3);
	check_int("crlf: malformed", st.malformed, 12);
}

/* Lines of exactly KALLSYMS_MAX_LINE bytes fit; one more does not. */
static void test_line_limit(void)
{
	size_t head = strlen("ffffffff81000000 T "), len, i;
	const char *names[2];
	struct ksym_result r[2];
	struct ksym_stats st;
	char *text, *path, *fit, *over;
	int ret, nl;

	fit = malloc(KALLSYMS_MAX_LINE + 2);
	over = malloc(KALLSYMS_MAX_LINE + 3);
	text = malloc(2 * KALLSYMS_MAX_LINE + 64);
	if (!CHECK(fit && over && text, "limit: alloc"))
		goto out;
	for (i = 0; i < KALLSYMS_MAX_LINE - head; i++)
		fit[i] = 'a' + i % 26;
	fit[i] = '\0';
	memcpy(over, "b", 1);
	memcpy(over + 1, fit, strlen(fit) + 1);
	names[0] = fit;
	names[1] = over;
	for (nl = 0; nl < 2; nl++) {
		len = sprintf(text, "ffffffff81000000 T %s\n"
			      "ffffffff81000001 T %s%s", over, fit,
			      nl ? "\n" : "");
		path = tmp_file(text, len);
		if (!CHECK(path, "limit: temp file"))
			goto out;
		ret = kallsyms_lookup(path, names, 2, 0, r, &st);
		check_int(nl ? "limit: nl: found 1" : "limit: eof: found 1",
			  ret, 1);
		check_int(nl ? "limit: nl: max line kept" :
			  "limit: eof: max line kept", r[0].addr,
			  0xffffffff81000001LL);
		check_int(nl ? "limit: nl: longer skipped" :
			  "limit: eof: longer skipped", st.malformed, 1);
		unlink(path);
		free(path);
	}
out:
	free(fit);
	free(over);
	free(text);
}

/*
 * A /proc/kallsyms-sized file (100,000 lines of varied length) crosses
 * the buffer boundary everywhere; every sampled symbol must come out.
 */
static void test_big_file(void)
{
	enum { LINES = 100000 };
	static const unsigned int pick[] = { 0, 1, 4095, 31337, 77777,
					     LINES - 1 };
	char names_buf[6][64];
	const char *names[6];
	struct ksym_result r[6];
	struct ksym_stats st;
	char *text, *path;
	size_t len = 0, i;
	int ret, ok = 1;

	text = malloc((size_t)LINES * 80);
	if (!CHECK(text, "big: alloc"))
		return;
	for (i = 0; i < LINES; i++)
		len += sprintf(text + len, "%016llx %c sym_%zu_%.*s%s\n",
			       0xffffffff81000000ULL + i * 16,
			       "tTdDrR"[i % 6], i, (int)(i % 37),
			       "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
			       i % 5 == 0 ? "\t[mod]" : "");
	path = tmp_file(text, len);
	free(text);
	if (!CHECK(path, "big: temp file"))
		return;
	for (i = 0; i < 6; i++) {
		snprintf(names_buf[i], sizeof(names_buf[i]), "sym_%u_%.*s",
			 pick[i], (int)(pick[i] % 37),
			 "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
		names[i] = names_buf[i];
	}
	ret = kallsyms_lookup(path, names, 6, KSYM_SCAN_ALL, r, &st);
	check_int("big: all 6 found", ret, 6);
	for (i = 0; i < 6; i++)
		if (r[i].addr != 0xffffffff81000000ULL + pick[i] * 16ULL ||
		    r[i].type != "tTdDrR"[pick[i] % 6] ||
		    strcmp(r[i].module, pick[i] % 5 == 0 ? "mod" : ""))
			ok = 0;
	CHECK(ok, "big: every address, type and module exact");
	check_int("big: every line well-formed", st.lines, LINES);
	check_int("big: no malformed", st.malformed, 0);
	check_int("big: data heuristic", kallsyms_stats_have_data(&st), 1);
	unlink(path);
	free(path);
}

static void test_errors(void)
{
	const char *const empty[] = { "" };
	const char *const null[] = { NULL };
	struct ksym_result r[1];
	struct ksym_stats st;

	check_int("err: missing file", kallsyms_lookup(TEST_FIXTURES "nope.txt",
		  wanted, 1, 0, r, NULL), -ENOENT);
	check_int("err: empty name", kallsyms_lookup(TEST_FIXTURES
		  "kallsyms_core.txt", empty, 1, 0, r, NULL), -EINVAL);
	check_int("err: NULL name", kallsyms_lookup(TEST_FIXTURES
		  "kallsyms_core.txt", null, 1, 0, r, NULL), -EINVAL);
	check_int("err: NULL out", kallsyms_lookup(TEST_FIXTURES
		  "kallsyms_core.txt", wanted, 1, 0, NULL, NULL), -EINVAL);
	check_int("err: a directory", kallsyms_lookup(TEST_FIXTURES, wanted, 1, 0,
		  r, NULL), -EISDIR);
	check_int("no names: stats only",
		  kallsyms_lookup(TEST_FIXTURES "kallsyms_core.txt", NULL, 0,
				  KSYM_SCAN_ALL, NULL, &st), 0);
	check_int("no names: all lines counted", st.lines, 19);
	check_int("have_data: NULL", kallsyms_stats_have_data(NULL), -EAGAIN);
}

/* The real file: the result depends on the host, but must be sane. */
static void test_proc(void)
{
	const char *const names[] = { "_text" };
	struct ksym_result r[1];
	int ret;

	if (access(KALLSYMS_PATH, R_OK) != 0) {
		printf("SKIP /proc/kallsyms unreadable\n");
		return;
	}
	ret = kallsyms_lookup(NULL, names, 1, 0, r, NULL);
	CHECK(ret == 1 || ret == -EPERM, "proc: _text found or hidden");
	CHECK(ret != 1 || r[0].addr != 0, "proc: _text address nonzero");
}

static const struct test_case test_cases[] = {
	TEST_CASE(core),
	TEST_CASE(skim),
	TEST_CASE(early_stop_and_dups),
	TEST_CASE(module),
	TEST_CASE(zero),
	TEST_CASE(nodata),
	TEST_CASE(huge_line),
	TEST_CASE(no_newline_and_crlf),
	TEST_CASE(line_limit),
	TEST_CASE(big_file),
	TEST_CASE(errors),
	TEST_CASE(proc),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
