// SPDX-License-Identifier: GPL-2.0
/*
 * ext4slower's command line (BCC ext4slower's usage, min_ms, -j, -p, and
 * this tool's options) and ext4dist --slower.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "tool/cli/args.h"
#include "test.h"

#define USAGE "usage: ext4slower [-h] [-j] [-p PID] [min_ms]\n"

struct run {
	int ret;
	struct ext4dist_args a;
	char *out, *err;
	size_t out_len, err_len;
};

/* argv[0] is prog; args NULL-terminated. */
static void run(struct run *r, int slower, const char *const *args)
{
	char *argv[16];
	int argc = 0;
	FILE *out, *err;

	argv[argc++] = (char *)(slower ? "/usr/sbin/ext4slower" : "ext4dist");
	while (*args && argc < 15)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	memset(r, 0, sizeof(*r));
	memset(&r->a, 0x5a, sizeof(r->a));
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	if (!out || !err)
		exit(1);
	r->ret = slower ? args_parse_slower(argc, argv, &r->a, out, err) :
			  args_parse(argc, argv, &r->a, out, err);
	fclose(out);
	fclose(err);
}

static void done(struct run *r)
{
	free(r->out);
	free(r->err);
}

static void test_defaults(void)
{
	static const char *const none[] = { NULL };
	struct run r;

	run(&r, 1, none);
	check_int("no argument: parses", r.ret, 0);
	check_int("slow mode", r.a.slower, 1);
	check_int("min_ms 10 by default, as BCC", (long long)r.a.min_ms, 10);
	check_int("text, not CSV", r.a.csv, 0);
	check_int("not JSON", r.a.json, 0);
	check_int("every process", r.a.pid, 0);
	check_int("64 ring pages, as BCC's page_cnt", r.a.ring_pages, 64);
	CHECK(!r.err_len && !r.out_len, "no argument: nothing printed");
	done(&r);
}

static void test_bcc_options(void)
{
	static const char *const a1[] = { "-j", "-p", "185", "1", NULL };
	static const char *const a2[] = { "0", NULL };
	static const char *const a3[] = { "--csv", "--pid=7", NULL };
	struct run r;

	run(&r, 1, a1);
	check_int("-j -p 185 1: parses", r.ret, 0);
	check_int("-j is CSV", r.a.csv, 1);
	check_int("-p 185", r.a.pid, 185);
	check_int("min_ms 1", (long long)r.a.min_ms, 1);
	done(&r);
	run(&r, 1, a2);
	check_int("0: every call", (long long)r.a.min_ms, 0);
	done(&r);
	run(&r, 1, a3);
	check_int("--csv --pid=7: CSV", r.a.csv, 1);
	check_int("--pid=7", r.a.pid, 7);
	done(&r);
}

static void test_own_options(void)
{
	static const char *const a1[] = { "--json", "--ops", "read,fsync",
					   "--ring-pages", "8", "-vv", "5",
					   NULL };
	struct run r;

	run(&r, 1, a1);
	check_int("--json ...: parses", r.ret, 0);
	check_int("--json", r.a.json, 1);
	check_int("--ops read,fsync", r.a.ops_mask,
		  (1 << OP_READ) | (1 << OP_FSYNC));
	check_int("--ring-pages 8", r.a.ring_pages, 8);
	check_int("-vv", r.a.verbose, 2);
	check_int("min_ms 5", (long long)r.a.min_ms, 5);
	done(&r);
}

static void expect_error(const char *name, int slower,
			 const char *const *args, const char *want)
{
	struct run r;
	char n[160];

	run(&r, slower, args);
	snprintf(n, sizeof(n), "%s: exit status 2", name);
	check_int(n, args_exit_code(r.ret), 2);
	snprintf(n, sizeof(n), "%s: message", name);
	check_str(n, r.err, want);
	done(&r);
}

static void test_errors(void)
{
	static const char *const two[] = { "1", "2", NULL };
	static const char *const neg[] = { "-5", NULL };
	static const char *const both[] = { "-j", "--json", NULL };
	static const char *const interval[] = { "-m", "--slower", "3", NULL };
	static const char *const pages[] = { "--ring-pages", "6", NULL };
	static const char *const hist[] = { "-T", NULL };

	expect_error("two positionals", 1, two,
		     USAGE "ext4slower: error: unrecognized arguments: 2\n");
	/* argparse takes "-5" for a value, and int() would take it; not here. */
	expect_error("a negative min_ms", 1, neg,
		     USAGE "ext4slower: error: argument min_ms: invalid int value: '-5'\n");
	expect_error("-j with --json", 1, both,
		     USAGE "ext4slower: error: argument --json: not allowed with argument -j/--csv\n");
	expect_error("--ring-pages 6", 1, pages,
		     USAGE "ext4slower: error: argument --ring-pages: not a power of two: '6'\n");
	expect_error("-T is ext4dist's", 1, hist,
		     USAGE "ext4slower: error: unrecognized arguments: -T\n");
	expect_error("ext4dist --slower with -m", 0, interval,
		     "usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]\n"
		     "ext4dist: error: argument --slower: not allowed with -T, -m, -e, --prometheus, --listen, interval or count (the histogram mode's)\n");
}

static void test_ext4dist_slower(void)
{
	static const char *const a1[] = { "--slower", "0", "-j", NULL };
	struct run r;

	run(&r, 0, a1);
	check_int("ext4dist --slower 0 -j: parses", r.ret, 0);
	check_int("slow mode", r.a.slower, 1);
	check_int("min_ms 0", (long long)r.a.min_ms, 0);
	check_int("-j is ext4dist's JSON there", r.a.json, 1);
	done(&r);
}

static void test_name(void)
{
	CHECK(args_invoked_as_slower("ext4slower"), "ext4slower");
	CHECK(args_invoked_as_slower("/usr/sbin/ext4slower"), "a path to it");
	CHECK(!args_invoked_as_slower("ext4dist"), "ext4dist is not");
	CHECK(!args_invoked_as_slower("/tmp/ext4slower2"), "another name is not");
	CHECK(!args_invoked_as_slower(NULL), "no argv[0]");
}

static void test_help(void)
{
	static const char *const h[] = { "-h", NULL };
	struct run r;

	run(&r, 1, h);
	check_int("-h: exit 0", args_exit_code(r.ret), 0);
	CHECK(r.out && strncmp(r.out, USAGE "\n", strlen(USAGE) + 1) == 0,
	      "-h: BCC's usage line first, then a blank line");
	CHECK(r.out && strstr(r.out, "\npositional arguments:\n  min_ms "),
	      "-h: min_ms described");
	done(&r);
}

static const struct test_case test_cases[] = {
	TEST_CASE(defaults),
	TEST_CASE(bcc_options),
	TEST_CASE(own_options),
	TEST_CASE(errors),
	TEST_CASE(ext4dist_slower),
	TEST_CASE(name),
	TEST_CASE(help),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
