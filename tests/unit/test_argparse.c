// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the argparse-compatible engine (src/tool/cli/argparse.c) on its own,
 * with the option table of a made-up program, "zipcat", that shares no
 * option, message or positional with ext4dist: whatever passes here is the
 * engine's, not ext4dist's table (tests/unit/test_args.c tests that).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tool/cli/argparse.h"

#define USAGE "usage: zipcat [-a] [-q] [-n N] [-o FILE] [file]\n"
#define ERR(msg) USAGE "zipcat: error: " msg "\n"
#define MAX_ARGS 16
#define LISTED 7	/* --list: served, as argparse's -h */

enum zip_opt { ZIP_ALL, ZIP_QUIET, ZIP_LINES, ZIP_OUTPUT, ZIP_COLOR,
	       ZIP_COLORMAP, ZIP_FIELDS, ZIP_LIST };

static const struct argparse_opt zip_opts[] = {
	{ 'a', "all", "-a/--all", 0, ZIP_ALL },
	{ 'q', NULL, "-q", 0, ZIP_QUIET },	/* short form only */
	{ 'n', "lines", "-n/--lines", 1, ZIP_LINES },
	{ 'o', "output", "-o/--output", 1, ZIP_OUTPUT },
	{ 0, "color", "--color", 1, ZIP_COLOR },
	{ 0, "colormap", "--colormap", 0, ZIP_COLORMAP },
	{ 0, "fields", "--fields", 1, ZIP_FIELDS },
	{ 0, "list", "--list", 0, ZIP_LIST },
};

static const char *const colors[] = { "never", "auto", "always" };
static const char *const fields[] = { "name", "size", "date" };

/* What the callbacks saw, in order: "a q n=5 0:x ". */
struct trace {
	char text[512];
	size_t len;
};

static void trace_add(struct argparse *ap, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void trace_add(struct argparse *ap, const char *fmt, ...)
{
	struct trace *t = argparse_ctx(ap);
	va_list args;

	if (t->len >= sizeof(t->text))
		return;
	va_start(args, fmt);
	t->len += (size_t)vsnprintf(t->text + t->len,
				    sizeof(t->text) - t->len, fmt, args);
	va_end(args);
}

static int zip_flag(struct argparse *ap, const struct argparse_opt *o)
{
	switch (o->id) {
	case ZIP_ALL:
		trace_add(ap, "a ");
		return 0;
	case ZIP_QUIET:
		trace_add(ap, "q ");
		return 0;
	case ZIP_COLORMAP:
		trace_add(ap, "colormap ");
		return 0;
	case ZIP_LIST:
		trace_add(ap, "list ");
		return LISTED;
	default:
		return -EINVAL;
	}
}

static int zip_value(struct argparse *ap, const struct argparse_opt *o,
		     const char *val)
{
	unsigned long long n;
	unsigned int mask;
	int err;

	switch (o->id) {
	case ZIP_LINES:
		err = argparse_uint(ap, o->shown, val, 1, 1000, &n);
		if (!err)
			trace_add(ap, "n=%llu ", n);
		return err;
	case ZIP_OUTPUT:
		trace_add(ap, "o=%s ", val);
		return 0;
	case ZIP_COLOR:
		err = argparse_choice(ap, o->shown, val, colors, 3);
		if (err >= 0)
			trace_add(ap, "color=%d ", err);
		return err < 0 ? err : 0;
	case ZIP_FIELDS:
		err = argparse_choice_list(ap, o->shown, "field", val, fields,
					   3, &mask);
		if (!err)
			trace_add(ap, "fields=%#x ", mask);
		return err;
	default:
		return -EINVAL;
	}
}

static int zip_positional(struct argparse *ap, unsigned int index,
			  const char *val)
{
	if (!*val)
		return argparse_error(ap, "argument file: expected a name\n");
	trace_add(ap, "%u:%s ", index, val);
	return 0;
}

static const struct argparse_spec zip_spec = {
	.prog = "zipcat",
	.usage = USAGE,
	.opts = zip_opts,
	.nr_opts = sizeof(zip_opts) / sizeof(zip_opts[0]),
	.max_positionals = 1,
	.flag = zip_flag,
	.value = zip_value,
	.positional = zip_positional,
};

struct run {
	int ret;
	struct trace trace;
	char *err;
	size_t err_len;
};

/* Walks argv, NULL-terminated, with argv[0] "zipcat", under spec. */
static void run_argv(struct run *r, const struct argparse_spec *spec,
		     char **argv)
{
	FILE *err;
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(r, 0, sizeof(*r));
	err = open_memstream(&r->err, &r->err_len);
	if (!err) {
		printf("FAIL open_memstream\n");
		exit(1);
	}
	r->ret = argparse_parse(spec, argc, argv, &r->trace, err);
	fclose(err);
}

static void run_spec(struct run *r, const struct argparse_spec *spec,
		     const char *first, ...)
{
	char *argv[MAX_ARGS + 2];
	const char *s;
	int argc = 0;
	va_list ap;

	argv[argc++] = (char *)"zipcat";
	va_start(ap, first);
	for (s = first; s && argc <= MAX_ARGS; s = va_arg(ap, const char *))
		argv[argc++] = (char *)s;
	va_end(ap);
	argv[argc] = NULL;
	run_argv(r, spec, argv);
}

/* Expects a walk that ends with ret, the callbacks' trace, err text. */
static void expect(const char *name, struct run *r, int ret,
		   const char *trace, const char *err)
{
	char n[160];

	snprintf(n, sizeof(n), "%s: result", name);
	check_int(n, r->ret, ret);
	snprintf(n, sizeof(n), "%s: callbacks", name);
	check_str(n, r->trace.text, trace);
	snprintf(n, sizeof(n), "%s: message", name);
	check_str(n, r->err, err);
	free(r->err);
}

/* argv after "zipcat", NULL-terminated; ret, trace and err expected. */
#define WALK(name, ret, trace, err, ...) do {				\
	struct run r_;							\
	run_spec(&r_, &zip_spec, __VA_ARGS__, NULL);			\
	expect(name, &r_, ret, trace, err);				\
} while (0)
#define WALK_OK(name, trace, ...) WALK(name, 0, trace, "", __VA_ARGS__)
#define WALK_ERR(name, trace, msg, ...)					\
	WALK(name, ARGPARSE_ERR_USAGE, trace, ERR(msg), __VA_ARGS__)

static void test_forms(void)
{
	WALK_OK("nothing", "", NULL);
	WALK_OK("order kept", "a n=5 q o=x 0:f ", "-a", "-n", "5", "-q",
		"--output", "x", "f");
	WALK_OK("long =", "n=12 o=a=b ", "--lines=12", "--output=a=b");
	WALK_OK("short joined and =", "n=7 n=8 o=-x ", "-n7", "-n=8",
		"-o-x");
	WALK_OK("cluster of flags", "a q a ", "-aqa");
	WALK_OK("cluster ending in a value", "a q n=3 ", "-aqn3");
	WALK_OK("cluster then the next argument", "q n=4 ", "-qn", "4");
	WALK_OK("cluster with = past the first is a value", "a o==y ",
		"-ao=y");
	WALK_OK("value may start with =", "o==z ", "-o==z");
	WALK_OK("positional between options", "a 0:f q ", "-a", "f", "-q");
	WALK_OK("-- ends options", "a 0:-q ", "-a", "--", "-q");
	WALK_OK("-- twice: the second is a positional", "0:-- ", "--",
		"--");
	WALK_OK("- is a positional", "0:- ", "-");
	WALK_OK("negative number is a positional", "0:-3 ", "-3");
	WALK_OK("negative fraction is a positional", "0:-.5 ", "-.5");
	WALK_OK("negative number is a value", "o=-12 ", "-o", "-12");
	WALK_OK("negative fraction is a value", "o=-1.25 ", "-o", "-1.25");
	WALK_OK("empty value", "o= ", "--output=");
	WALK_OK("empty value as its own argument", "o= ", "-o", "");
}

static void test_long_prefixes(void)
{
	WALK_OK("unique prefixes", "a n=2 fields=0x2 ", "--a", "--lin", "2",
		"--fi=size");
	WALK_OK("exact name beats a longer one", "color=2 ", "--color",
		"always");
	WALK_OK("prefix of the longer one alone", "colormap ", "--colorm");
	WALK_ERR("ambiguous between two", "", "ambiguous option: --li could "
		 "match --lines, --list", "--li", "--list");
	WALK_ERR("ambiguous prefix", "",
		 "ambiguous option: --col could match --color, --colormap",
		 "--col");
	WALK_ERR("ambiguous prefix with =", "a ",
		 "ambiguous option: --c=1 could match --color, --colormap",
		 "-a", "--c=1");
	WALK_ERR("ambiguous prefix escaped", "",
		 "ambiguous option: --colo=\\x1b could match --color, "
		 "--colormap", "--colo=\x1b");
	WALK_ERR("short-only option has no long form", "",
		 "unrecognized arguments: --q", "--q");
}

static void test_value_errors(void)
{
	WALK_ERR("missing value", "", "argument -n/--lines: expected one "
		 "argument", "-n");
	WALK_ERR("option where the value should be", "",
		 "argument -o/--output: expected one argument", "-o", "-a");
	WALK_ERR("-- where the value should be", "",
		 "argument --color: expected one argument", "--color", "--");
	WALK_ERR("long flag with a value", "",
		 "argument --list: ignored explicit argument 'x'", "--list=x");
	WALK_ERR("short-only flag with =", "",
		 "argument -q: ignored explicit argument '1'", "-q=1");
	WALK_ERR("cluster with an unknown letter", "a q ",
		 "argument -q: ignored explicit argument 'z1'", "-aqz1");
	WALK_ERR("first error stops the walk", "a ",
		 "argument -n/--lines: invalid int value: 'x'", "-a", "-nx",
		 "--bogus", "-q");
	WALK_ERR("positional error", "", "argument file: expected a name",
		 "");
}

static void test_unrecognized(void)
{
	WALK_ERR("unknown short and long", "a ",
		 "unrecognized arguments: -z --nope", "-z", "-a", "--nope");
	WALK_ERR("extra positional", "0:f a ",
		 "unrecognized arguments: g", "f", "-a", "g");
	WALK_ERR("unknown option with =", "",
		 "unrecognized arguments: --nope=1", "--nope=1");
	WALK_ERR("--= is no option", "", "unrecognized arguments: --=x",
		 "--=x");
	WALK_ERR("unknown first letter of a cluster", "",
		 "unrecognized arguments: -za", "-za");
	WALK_ERR("control and non-ASCII bytes escaped", "0:f ",
		 "unrecognized arguments: \\x07 --\\xc3\\xa9\\x5c",
		 "f", "\a", "--\xc3\xa9\\");
	/* the unknown option drops, its would-be value is a positional */
	WALK_ERR("unknown option's value", "0:v ",
		 "unrecognized arguments: --nope", "--nope", "v");
}

static void test_stops(void)
{
	WALK("served stops the walk", LISTED, "a list ", "", "-a", "--list",
	     "-q");
	WALK("served before reporting unknowns", LISTED, "list ", "",
	     "--nope", "--list");
	WALK("served by a prefix, before a bad value", LISTED, "a list ", "",
	     "-a", "--lis", "-nx");
	WALK_ERR("error before the served one", "",
		 "argument -n/--lines: invalid int value: 'x'", "-nx",
		 "--list");
}

static void test_helpers(void)
{
	WALK_OK("uint bounds", "n=1 n=1000 n=7 ", "-n", "1", "-n", "1000",
		"-n", "007");
	WALK_ERR("uint below", "", "argument -n/--lines: value out of range: "
		 "'0' (expected 1 to 1000)", "-n", "0");
	WALK_ERR("uint above", "", "argument -n/--lines: value out of range: "
		 "'1001' (expected 1 to 1000)", "-n", "1001");
	WALK_ERR("uint overflow", "", "argument -n/--lines: value out of "
		 "range: '18446744073709551616' (expected 1 to 1000)",
		 "-n", "18446744073709551616");
	WALK_ERR("uint sign", "", "argument -n/--lines: invalid int value: "
		 "'+5'", "-n", "+5");
	WALK_ERR("uint negative", "", "argument -n/--lines: invalid int "
		 "value: '-5'", "-n", "-5");
	WALK_ERR("uint hex", "", "argument -n/--lines: invalid int value: "
		 "'0x5'", "-n", "0x5");
	WALK_ERR("uint empty", "", "argument -n/--lines: invalid int value: "
		 "''", "--lines=");
	WALK_ERR("choice", "", "argument --color: invalid choice: 'blue' "
		 "(choose from 'never', 'auto', 'always')", "--color=blue");
	WALK_ERR("choice prefix is no choice", "", "argument --color: invalid "
		 "choice: 'al' (choose from 'never', 'auto', 'always')",
		 "--color", "al");
	WALK_OK("choice list", "fields=0x5 fields=0x2 ", "--fields",
		"date,name,date", "--fields=size");
	WALK_ERR("choice list empty", "", "argument --fields: expected at "
		 "least one field", "--fields=");
	WALK_ERR("choice list empty item", "", "argument --fields: invalid "
		 "choice: '' (choose from 'name', 'size', 'date')",
		 "--fields", "name,,size");
	WALK_ERR("choice list bad item escaped", "", "argument --fields: "
		 "invalid choice: '\\x0a' (choose from 'name', 'size', "
		 "'date')", "--fields", "size,\n");
}

/* The message-free number parser, in both bases. */
static void test_unsigned(void)
{
	unsigned long long v = 0;

	check_int("decimal", argparse_unsigned("4096", 10, &v), 0);
	check_int("decimal value", (long long)v, 4096);
	check_int("hex", argparse_unsigned("fFff", 16, &v), 0);
	check_int("hex value", (long long)v, 0xffff);
	check_int("64 bits", argparse_unsigned("ffffffffffffffff", 16, &v),
		  0);
	CHECK(v == ~0ULL, "64 bits value");
	check_int("65 bits", argparse_unsigned("10000000000000000", 16, &v),
		  -ERANGE);
	check_int("decimal overflow",
		  argparse_unsigned("18446744073709551616", 10, &v), -ERANGE);
	check_int("junk after overflow",
		  argparse_unsigned("18446744073709551616x", 10, &v), -EINVAL);
	check_int("hex digit in decimal", argparse_unsigned("1a", 10, &v),
		  -EINVAL);
	check_int("empty", argparse_unsigned("", 10, &v), -EINVAL);
	check_int("0x prefix is the caller's",
		  argparse_unsigned("0x1", 16, &v), -EINVAL);
}

/* An empty table and no positionals: all is unrecognized; argc 0: nothing. */
static void test_table_limits(void)
{
	static const struct argparse_spec bare = {
		.prog = "bare",
		.usage = "usage: bare\n",
		.flag = zip_flag,
		.value = zip_value,
		.positional = zip_positional,
	};
	struct run r;
	char *argv0[] = { NULL };

	run_spec(&r, &bare, "-a", "--all", "x", "-1", NULL);
	expect("no options, no positionals", &r, ARGPARSE_ERR_USAGE, "",
	       "usage: bare\nbare: error: unrecognized arguments: -a --all "
	       "x -1\n");
	run_argv(&r, &zip_spec, argv0);
	expect("argc 0", &r, 0, "", "");
}

static int wide_value(struct argparse *ap, const struct argparse_opt *o,
		      const char *val)
{
	static const char *const many[33] = { "x" };
	unsigned int mask;

	(void)o;
	return argparse_choice_list(ap, "--many", "item", val, many, 33,
				    &mask);
}

/* More choices than mask bits: the caller's bug, no message. */
static void test_list_too_wide(void)
{
	static const struct argparse_opt many_opt[] = {
		{ 0, "many", "--many", 1, 0 },
	};
	static const struct argparse_spec wide = {
		.prog = "wide",
		.usage = "usage: wide\n",
		.opts = many_opt,
		.nr_opts = 1,
		.value = wide_value,
	};
	struct run r;

	run_spec(&r, &wide, "--many=x", NULL);
	expect("33 choices refused", &r, -EINVAL, "", "");
}

static void test_reentrant(void)
{
	struct run r;
	int i, same = 1;

	for (i = 0; i < 200; i++) {
		run_spec(&r, &zip_spec, "-z", "-an", "9", "f", "g", NULL);
		same &= r.ret == ARGPARSE_ERR_USAGE &&
			!strcmp(r.trace.text, "a n=9 0:f ") &&
			!strcmp(r.err, ERR("unrecognized arguments: -z g"));
		free(r.err);
		run_spec(&r, &zip_spec, "-q", "f", NULL);
		same &= r.ret == 0 && !strcmp(r.trace.text, "q 0:f ") &&
			r.err_len == 0;
		free(r.err);
	}
	CHECK(same, "400 walks in a row give the same results");
}

static const struct test_case test_cases[] = {
	TEST_CASE(forms),
	TEST_CASE(long_prefixes),
	TEST_CASE(value_errors),
	TEST_CASE(unrecognized),
	TEST_CASE(stops),
	TEST_CASE(helpers),
	TEST_CASE(unsigned),
	TEST_CASE(table_limits),
	TEST_CASE(list_too_wide),
	TEST_CASE(reentrant),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
