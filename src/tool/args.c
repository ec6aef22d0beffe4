// SPDX-License-Identifier: GPL-2.0
/*
 * Command line of ext4dist, parsed by hand to behave like BCC's argparse
 * parser: same usage line, same "ext4dist: error: ..." messages, exit
 * status 2 on errors.  Differences from argparse, on purpose:
 *  - every value is validated strictly (digits only: no sign, no blanks,
 *    no "_"), since -p text once went straight into BPF C source (bcc #5464);
 *  - positionals may be interleaved with options ("1 -m 5" is interval 1,
 *    count 5; argparse would reject the 5).
 * Nothing taken from argv is kept except validated numbers, enums and
 * flags, and the --prometheus path (and the test build's --test-* paths).
 * Text from argv is echoed in error messages only, with control bytes
 * escaped.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "tool/args.h"

#ifndef EXT4DIST_VERSION
#define EXT4DIST_VERSION "unknown"
#endif

#define DEFAULT_OPS ((1u << OP_READ) | (1u << OP_WRITE) | (1u << OP_OPEN) | \
		     (1u << OP_FSYNC))

static const char usage_line[] =
	"usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]\n";

static const char help_text[] =
	"\n"
	"Summarize ext4 operation latency\n"
	"\n"
	"positional arguments:\n"
	"  interval              output interval, in seconds\n"
	"  count                 number of outputs\n"
	"\n"
	"optional arguments:\n"
	"  -h, --help            show this help message and exit\n"
	"  -T, --notimestamp     don't include timestamp on interval output\n"
	"  -m, --milliseconds    output in milliseconds\n"
	"  -p PID, --pid PID     trace this PID only\n"
	"  -v, --verbose         explain each load and attach step (repeat "
	"for more)\n"
	"  -j, --json            print each output as one line of JSON\n"
	"  -e, --extended        print count, mean, max and percentiles after\n"
	"                        each histogram\n"
	"  --ops LIST            operations to trace, comma separated, from\n"
	"                        read, write, open, fsync, getattr (default:\n"
	"                        read,write,open,fsync)\n"
	"  --prometheus FILE     also keep FILE up to date in Prometheus text\n"
	"                        format (replaced atomically at each output)\n"
	"  --attach {auto,pmu,tracefs,multi}\n"
	"                        how to create probes: perf kprobe PMU,\n"
	"                        tracefs kprobe_events or kprobe_multi links\n"
	"                        (5.18+) (default: auto, kprobe_multi links\n"
	"                        where the kernel makes them, else the PMU,\n"
	"                        else tracefs)\n"
	"  --read-path {auto,generic}\n"
	"                        generic: probe generic_file_read_iter filtered\n"
	"                        on ext4_file_operations, as on kernels < 4.10\n"
	"                        (default: auto)\n"
	"  --maxactive N         kretprobe instances per probe, 1 to 4096\n"
	"                        (default: the kernel's)\n"
	"  --fops-addr ADDR      address of ext4_file_operations (0x... or\n"
	"                        decimal) instead of reading /proc/kallsyms\n"
	"  --pretend LIST        behave as if the kernel lacked features, to see\n"
	"                        the fallbacks of older kernels; comma separated,\n"
	"                        from no-pmu, no-multi, no-percpu, no-names,\n"
	"                        no-kallsyms-data, no-tracefs, no-ext4\n"
	"  --check               report what this kernel supports, then exit\n"
	"  --dump-bpf            print the embedded BPF programs, then exit\n"
	"  --version             show program's version number and exit\n"
	"\n"
	"examples:\n"
	"    ./ext4dist            # latency histograms, printed at Ctrl-C\n"
	"    ./ext4dist -p 181     # only process 181\n"
	"    ./ext4dist 1 10       # ten summaries, one per second\n"
	"    ./ext4dist -m 5       # a summary every 5 s, in milliseconds\n"
	"    ./ext4dist -e -j 1    # JSON with count, mean and max, every second\n"
	"    ./ext4dist --ops read,getattr     # only reads and getattr\n"
	"    ./ext4dist --prometheus /run/ext4dist.prom 10\n"
	"                          # keep a Prometheus textfile up to date\n"
	"    ./ext4dist --check    # can this kernel run ext4dist?\n"
	"    ./ext4dist -v --pretend=no-multi,no-percpu\n"
	"                          # kprobes and a plain array, as before 4.6\n";

enum opt_id {
	OPT_HELP,
	OPT_NOTIMESTAMP,
	OPT_MILLISECONDS,
	OPT_PID,
	OPT_VERBOSE,
	OPT_JSON,
	OPT_EXTENDED,
	OPT_OPS,
	OPT_PROMETHEUS,
	OPT_ATTACH,
	OPT_READ_PATH,
	OPT_MAXACTIVE,
	OPT_FOPS_ADDR,
	OPT_PRETEND,
	OPT_CHECK,
	OPT_DUMP_BPF,
	OPT_VERSION,
#ifdef EXT4DIST_TEST_HOOKS
	OPT_TEST_KALLSYMS,
	OPT_TEST_SYSFS_KPROBE,
	OPT_TEST_TRACING,
	OPT_TEST_DEBUGFS,
#endif
};

struct opt_def {
	char short_name;	/* 0: long form only */
	const char *long_name;
	const char *shown;	/* name in messages, as argparse joins them */
	int takes_value;
	enum opt_id id;
};

static const struct opt_def opt_defs[] = {
	{ 'h', "help", "-h/--help", 0, OPT_HELP },
	{ 'T', "notimestamp", "-T/--notimestamp", 0, OPT_NOTIMESTAMP },
	{ 'm', "milliseconds", "-m/--milliseconds", 0, OPT_MILLISECONDS },
	{ 'p', "pid", "-p/--pid", 1, OPT_PID },
	{ 'v', "verbose", "-v/--verbose", 0, OPT_VERBOSE },
	{ 'j', "json", "-j/--json", 0, OPT_JSON },
	{ 'e', "extended", "-e/--extended", 0, OPT_EXTENDED },
	{ 0, "ops", "--ops", 1, OPT_OPS },
	{ 0, "prometheus", "--prometheus", 1, OPT_PROMETHEUS },
	{ 0, "attach", "--attach", 1, OPT_ATTACH },
	{ 0, "read-path", "--read-path", 1, OPT_READ_PATH },
	{ 0, "maxactive", "--maxactive", 1, OPT_MAXACTIVE },
	{ 0, "fops-addr", "--fops-addr", 1, OPT_FOPS_ADDR },
	{ 0, "pretend", "--pretend", 1, OPT_PRETEND },
	{ 0, "check", "--check", 0, OPT_CHECK },
	{ 0, "dump-bpf", "--dump-bpf", 0, OPT_DUMP_BPF },
	{ 0, "version", "--version", 0, OPT_VERSION },
#ifdef EXT4DIST_TEST_HOOKS
	/*
	 * The test build's fixture paths, not in the help text (README, "The
	 * test build"); the shipped binary treats them as any unknown option.
	 */
	{ 0, "test-kallsyms", "--test-kallsyms", 1, OPT_TEST_KALLSYMS },
	{ 0, "test-sysfs-kprobe", "--test-sysfs-kprobe", 1,
	  OPT_TEST_SYSFS_KPROBE },
	{ 0, "test-tracing-dir", "--test-tracing-dir", 1, OPT_TEST_TRACING },
	{ 0, "test-debugfs-dir", "--test-debugfs-dir", 1, OPT_TEST_DEBUGFS },
#endif
};

#define NR_OPT_DEFS (sizeof(opt_defs) / sizeof(opt_defs[0]))

static const char *const op_choices[NR_OPS] = {
	[OP_READ] = "read",
	[OP_WRITE] = "write",
	[OP_OPEN] = "open",
	[OP_FSYNC] = "fsync",
	[OP_GETATTR] = "getattr",
};

static const char *const pretend_choices[NR_PRETEND] = {
	[PRETEND_NO_PMU] = "no-pmu",
	[PRETEND_NO_MULTI] = "no-multi",
	[PRETEND_NO_PERCPU] = "no-percpu",
	[PRETEND_NO_NAMES] = "no-names",
	[PRETEND_NO_KALLSYMS_DATA] = "no-kallsyms-data",
	[PRETEND_NO_TRACEFS] = "no-tracefs",
	[PRETEND_NO_EXT4] = "no-ext4",
};

struct parser {
	struct ext4dist_args *a;
	FILE *out;
	FILE *err;
	int argc;
	char **argv;
	int next;		/* index of the next argv entry to read */
	int npos;		/* positionals seen */
	int interval_zero;	/* "0" given: BCC's message once parsed */
	int *unrec;		/* argv indexes argparse calls unrecognized */
	int nunrec;
};

/* Writes n bytes of user text, control and non-ASCII bytes as \xNN. */
static void put_escaped(FILE *f, const char *s, size_t n)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
}

/* argparse's error(): usage line, then "ext4dist: error: " and fmt. */
static int usage_error(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	fputs(usage_line, p->err);
	fputs("ext4dist: error: ", p->err);
	va_start(ap, fmt);
	vfprintf(p->err, fmt, ap);
	va_end(ap);
	return ARGS_ERR_USAGE;
}

/* "argument OPT: WHAT 'VALUE'TAIL" with VALUE escaped. */
static int value_error(struct parser *p, const char *opt, const char *what,
		       const char *val, size_t len, const char *tail)
{
	usage_error(p, "argument %s: %s '", opt, what);
	put_escaped(p->err, val, len);
	fprintf(p->err, "'%s\n", tail);
	return ARGS_ERR_USAGE;
}

static int invalid_int(struct parser *p, const char *opt, const char *s)
{
	return value_error(p, opt, "invalid int value:", s, strlen(s), "");
}

static int out_of_range(struct parser *p, const char *opt, const char *s,
			unsigned long long min, unsigned long long max)
{
	char tail[64];

	snprintf(tail, sizeof(tail), " (expected %llu to %llu)", min, max);
	return value_error(p, opt, "value out of range:", s, strlen(s), tail);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Strict unsigned number in base 10 or 16: at least one digit and nothing
 * else.  -EINVAL for junk (even past an overflow), -ERANGE for overflow.
 */
static int parse_unsigned(const char *s, unsigned int base,
			  unsigned long long *v)
{
	unsigned long long n = 0;
	int overflow = 0, d;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		d = hex_digit(*s);
		if (d < 0 || (unsigned int)d >= base)
			return -EINVAL;
		if (n > (ULLONG_MAX - (unsigned int)d) / base)
			overflow = 1;
		n = n * base + (unsigned int)d;
	}
	*v = n;
	return overflow ? -ERANGE : 0;
}

/* A decimal in [min, max] or an argparse-style error. */
static int get_number(struct parser *p, const char *opt, const char *s,
		      unsigned long long min, unsigned long long max,
		      unsigned long long *v)
{
	int err = parse_unsigned(s, 10, v);

	if (err == -EINVAL)
		return invalid_int(p, opt, s);
	if (err || *v < min || *v > max)
		return out_of_range(p, opt, s, min, max);
	return 0;
}

static int get_address(struct parser *p, const char *s,
		       unsigned long long *v)
{
	const char *opt = "--fops-addr";
	int err;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		err = parse_unsigned(s + 2, 16, v);
	else
		err = parse_unsigned(s, 10, v);
	if (err == -EINVAL)
		return value_error(p, opt, "invalid address value:", s,
				   strlen(s), "");
	if (err)
		return value_error(p, opt, "value out of range:", s, strlen(s),
				   " (expected at most 64 bits)");
	if (!*v)
		return value_error(p, opt, "value out of range:", s, strlen(s),
				   " (expected a non-zero address)");
	return 0;
}

/* Index of s in choices[n] or an "invalid choice" error. */
static int get_choice(struct parser *p, const char *opt, const char *s,
		      size_t len, const char *const *choices, unsigned int n)
{
	char tail[128];
	size_t used;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strlen(choices[i]) == len && !strncmp(s, choices[i], len))
			return (int)i;
	used = (size_t)snprintf(tail, sizeof(tail), " (choose from ");
	for (i = 0; i < n && used < sizeof(tail); i++)
		used += (size_t)snprintf(tail + used, sizeof(tail) - used,
					 "%s'%s'", i ? ", " : "", choices[i]);
	if (used < sizeof(tail))
		snprintf(tail + used, sizeof(tail) - used, ")");
	return value_error(p, opt, "invalid choice:", s, len, tail);
}

/*
 * --ops read,write,... and --pretend no-pmu,...: every name one of
 * choices[n], at least one; *mask gets bit i for choices[i].
 */
static int get_list(struct parser *p, const char *opt, const char *what,
		    const char *s, const char *const *choices, unsigned int n,
		    unsigned int *mask)
{
	const char *end;
	size_t len;
	int i;

	if (!*s)
		return usage_error(p, "argument %s: expected at least one %s\n",
				   opt, what);
	*mask = 0;
	for (;;) {
		end = strchr(s, ',');
		len = end ? (size_t)(end - s) : strlen(s);
		i = get_choice(p, opt, s, len, choices, n);
		if (i < 0)
			return i;
		*mask |= 1u << i;
		if (!end)
			return 0;
		s = end + 1;
	}
}

static int set_pid(struct parser *p, const char *opt, const char *s)
{
	unsigned long long v;
	int err = get_number(p, opt, s, 1, ARGS_PID_MAX, &v);

	if (!err)
		p->a->pid = (unsigned int)v;
	return err;
}

#ifdef EXT4DIST_TEST_HOOKS
/* A path for a test hook: absolute, so no working directory matters. */
static int test_path(struct parser *p, const struct opt_def *o,
		     const char *val, const char **out)
{
	if (val[0] != '/' || strlen(val) > 200)
		return value_error(p, o->shown, "expected an absolute path",
				   val, strlen(val), "");
	*out = val;
	return 0;
}
#endif

static int with_value(struct parser *p, const struct opt_def *o,
		      const char *val)
{
	static const char *const attach[] = { "auto", "pmu", "tracefs",
					      "multi" };
	static const char *const read_path[] = { "auto", "generic" };
	struct ext4dist_args *a = p->a;
	unsigned long long v;
	int err;

	switch (o->id) {
	case OPT_PID:
		return set_pid(p, o->shown, val);
	case OPT_OPS:
		return get_list(p, o->shown, "operation", val, op_choices,
				NR_OPS, &a->ops_mask);
	case OPT_PROMETHEUS:
		if (!*val)
			return usage_error(p, "argument --prometheus: "
					   "expected a file name\n");
		a->prometheus = val;
		return 0;
	case OPT_ATTACH:
		err = get_choice(p, o->shown, val, strlen(val), attach, 4);
		if (err < 0)
			return err;
		a->attach = err == 1 ? ATTACH_PMU :
			    err == 2 ? ATTACH_TRACEFS :
			    err == 3 ? ATTACH_MULTI : ATTACH_AUTO;
		return 0;
	case OPT_READ_PATH:
		err = get_choice(p, o->shown, val, strlen(val), read_path, 2);
		if (err < 0)
			return err;
		a->read_path = err ? READ_PATH_GENERIC : READ_PATH_AUTO;
		return 0;
	case OPT_MAXACTIVE:
		err = get_number(p, o->shown, val, 1, ARGS_MAXACTIVE_MAX, &v);
		if (!err)
			a->maxactive = (unsigned int)v;
		return err;
	case OPT_FOPS_ADDR:
		return get_address(p, val, &a->fops_addr);
	case OPT_PRETEND:
		return get_list(p, o->shown, "feature", val, pretend_choices,
				NR_PRETEND, &a->pretend);
#ifdef EXT4DIST_TEST_HOOKS
	case OPT_TEST_KALLSYMS:
		return test_path(p, o, val, &a->test_kallsyms);
	case OPT_TEST_SYSFS_KPROBE:
		return test_path(p, o, val, &a->test_sysfs_kprobe);
	case OPT_TEST_TRACING:
		return test_path(p, o, val, &a->test_tracing);
	case OPT_TEST_DEBUGFS:
		return test_path(p, o, val, &a->test_debugfs);
#endif
	default:
		return -EINVAL;	/* not reached: table and switch agree */
	}
}

static int served(struct parser *p, const char *text1, const char *text2)
{
	fputs(text1, p->out);
	fputs(text2, p->out);
	return ferror(p->out) ? -EIO : ARGS_EXIT_OK;
}

static int flag(struct parser *p, const struct opt_def *o)
{
	struct ext4dist_args *a = p->a;

	switch (o->id) {
	case OPT_HELP:
		return served(p, usage_line, help_text);
	case OPT_VERSION:
		return served(p, "ext4dist " EXT4DIST_VERSION, "\n");
	case OPT_NOTIMESTAMP:
		a->notimestamp = 1;
		break;
	case OPT_MILLISECONDS:
		a->milliseconds = 1;
		break;
	case OPT_VERBOSE:
		if (a->verbose < 100)
			a->verbose++;
		break;
	case OPT_JSON:
		a->json = 1;
		break;
	case OPT_EXTENDED:
		a->extended = 1;
		break;
	case OPT_CHECK:
		a->check = 1;
		break;
	case OPT_DUMP_BPF:
		a->dump_bpf = 1;
		break;
	default:
		return -EINVAL;	/* not reached */
	}
	return 0;
}

/* argparse: a negative number is a value, not an option. */
static int is_negative_number(const char *s)
{
	const char *d = s + 1;

	if (s[0] != '-')
		return 0;
	while (is_digit(*d))
		d++;
	if (*d == '.' && is_digit(d[1])) {
		d++;
		while (is_digit(*d))
			d++;
	} else if (d == s + 1) {
		return 0;
	}
	return *d == '\0';
}

static int looks_like_option(const char *s)
{
	return s[0] == '-' && s[1] != '\0' && !is_negative_number(s);
}

/*
 * Applies option o.  explicit is the text after "=" (or the rest of a
 * short cluster), NULL when none was attached: then an option that takes
 * a value consumes the next argument, unless that one is an option.
 */
static int apply(struct parser *p, const struct opt_def *o,
		 const char *explicit)
{
	const char *val;

	if (!o->takes_value) {
		if (explicit)
			return value_error(p, o->shown,
					   "ignored explicit argument",
					   explicit, strlen(explicit), "");
		return flag(p, o);
	}
	if (explicit)
		return with_value(p, o, explicit);
	if (p->next >= p->argc || looks_like_option(p->argv[p->next]) ||
	    !strcmp(p->argv[p->next], "--"))
		return usage_error(p, "argument %s: expected one argument\n",
				   o->shown);
	val = p->argv[p->next++];
	return with_value(p, o, val);
}

static const struct opt_def *find_short(char c)
{
	unsigned int i;

	for (i = 0; i < NR_OPT_DEFS; i++)
		if (opt_defs[i].short_name && opt_defs[i].short_name == c)
			return &opt_defs[i];
	return NULL;
}

static void unrecognized(struct parser *p)
{
	p->unrec[p->nunrec++] = p->next - 1;
}

/* -T, -Tm, -p181, -p=181, -mp 181, -vvv */
static int parse_short(struct parser *p, const char *arg)
{
	const char *c = arg + 1;
	const struct opt_def *o = find_short(*c);
	const struct opt_def *next;
	int err;

	if (!o) {
		unrecognized(p);
		return 0;
	}
	for (;;) {
		if (c == arg + 1 && c[1] == '=')
			return apply(p, o, c + 2);
		if (o->takes_value)
			return apply(p, o, c[1] ? c + 1 : NULL);
		err = apply(p, o, NULL);
		if (err)
			return err;
		if (!*++c)
			return 0;
		next = find_short(*c);
		if (!next)
			return value_error(p, o->shown,
					   "ignored explicit argument", c,
					   strlen(c), "");
		o = next;
	}
}

/* --name, --name=value, --name value; unique prefixes as argparse. */
static int parse_long(struct parser *p, const char *arg)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt_def *found = NULL;
	unsigned int i, matches = 0;

	for (i = 0; i < NR_OPT_DEFS; i++) {
		if (strncmp(opt_defs[i].long_name, name, len))
			continue;
		if (opt_defs[i].long_name[len] == '\0') {
			found = &opt_defs[i];
			matches = 1;
			break;
		}
		found = &opt_defs[i];
		matches++;
	}
	if (!matches || !len) {
		unrecognized(p);
		return 0;
	}
	if (matches > 1) {
		usage_error(p, "ambiguous option: ");
		put_escaped(p->err, arg, strlen(arg));
		fputs(" could match", p->err);
		for (i = 0, matches = 0; i < NR_OPT_DEFS; i++)
			if (!strncmp(opt_defs[i].long_name, name, len))
				fprintf(p->err, "%s --%s", matches++ ? "," : "",
					opt_defs[i].long_name);
		fputc('\n', p->err);
		return ARGS_ERR_USAGE;
	}
	return apply(p, found, eq ? eq + 1 : NULL);
}

static int positional(struct parser *p, const char *s)
{
	struct ext4dist_args *a = p->a;
	unsigned long long v;
	int err;

	switch (p->npos) {
	case 0:
		/* 0 is an error only once everything parsed, as in BCC */
		if (parse_unsigned(s, 10, &v) == 0 && v == 0) {
			p->interval_zero = 1;
			a->interval = 0;
			break;
		}
		p->interval_zero = 0;
		err = get_number(p, "interval", s, 1, ARGS_INTERVAL_MAX, &v);
		if (err)
			return err;
		a->interval = (unsigned long)v;
		break;
	case 1:
		err = get_number(p, "count", s, 1, ARGS_COUNT_MAX, &v);
		if (err)
			return err;
		a->count = (unsigned long)v;
		break;
	default:
		unrecognized(p);
		return 0;
	}
	p->npos++;
	return 0;
}

static void defaults(struct ext4dist_args *a)
{
	memset(a, 0, sizeof(*a));
	a->count = ARGS_DEFAULT_COUNT;
	a->ops_mask = DEFAULT_OPS;
	a->attach = ATTACH_AUTO;
	a->read_path = READ_PATH_AUTO;
}

static int report_unrecognized(struct parser *p)
{
	int i;

	usage_error(p, "unrecognized arguments:");
	for (i = 0; i < p->nunrec; i++) {
		const char *s = p->argv[p->unrec[i]];

		fputc(' ', p->err);
		put_escaped(p->err, s, strlen(s));
	}
	fputc('\n', p->err);
	return ARGS_ERR_USAGE;
}

int args_parse(int argc, char **argv, struct ext4dist_args *a, FILE *out,
	       FILE *err)
{
	struct parser p = {
		.a = a, .out = out, .err = err, .argc = argc, .argv = argv,
		.next = 1,
	};
	int dashdash = 0, ret = 0;
	const char *arg;

	defaults(a);
	p.unrec = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*p.unrec));
	if (!p.unrec)
		return -ENOMEM;
	while (p.next < argc) {
		arg = argv[p.next++];
		if (!dashdash && !strcmp(arg, "--"))
			dashdash = 1;
		else if (dashdash || !looks_like_option(arg))
			ret = positional(&p, arg);
		else if (arg[1] == '-')
			ret = parse_long(&p, arg);
		else
			ret = parse_short(&p, arg);
		if (ret)
			goto out;
	}
	if (p.nunrec) {
		ret = report_unrecognized(&p);
	} else if (p.interval_zero) {
		fputs("ERROR: interval 0. Exiting.\n", err);
		ret = ARGS_ERR_INTERVAL0;
	}
out:
	free(p.unrec);
	return ret;
}

int args_exit_code(int parse_result)
{
	if (parse_result == 0 || parse_result == ARGS_EXIT_OK)
		return 0;
	if (parse_result == ARGS_ERR_USAGE)
		return 2;
	return 1;
}
