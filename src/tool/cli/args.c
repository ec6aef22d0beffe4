// SPDX-License-Identifier: GPL-2.0
/*
 * Command line of ext4dist: BCC ext4dist's usage line, options and
 * messages, plus this tool's own options.  The walk of argv, argparse's
 * rules and messages are the engine's (argparse.c); this file says which
 * options there are and what each one sets.  Nothing taken from argv is
 * kept except validated numbers, enums and flags, and the --prometheus
 * path (and the test build's --test-* paths).
 */
#include <string.h>

#include "ext4dist_abi.h"
#include "serve/listen.h"
#include "tool/cli/argparse.h"
#include "tool/cli/args.h"
#include "tool/cli/args_priv.h"

#ifndef EXT4DIST_VERSION
#define EXT4DIST_VERSION "unknown"
#endif

/* Which command has an option: ext4dist (D), ext4slower (S), both. */
#define D 1
#define S 2
#define B (D | S)

/*
 * The options of both commands, each command's in its own order (that
 * of argparse's messages): -j is ext4dist's --json, ext4slower's --csv.
 */
static const struct opt_row {
	struct argparse_opt o;
	unsigned int in;
} opt_rows[] = {
	{ { 'h', "help", "-h/--help", 0, OPT_HELP }, B },
	{ { 'T', "notimestamp", "-T/--notimestamp", 0, OPT_NOTIMESTAMP }, D },
	{ { 'm', "milliseconds", "-m/--milliseconds", 0, OPT_MILLISECONDS }, D },
	{ { 'j', "csv", "-j/--csv", 0, OPT_CSV }, S },
	{ { 'p', "pid", "-p/--pid", 1, OPT_PID }, B },
	{ { 't', "type", "-t/--type", 1, OPT_TYPE }, B },
	{ { 'v', "verbose", "-v/--verbose", 0, OPT_VERBOSE }, B },
	{ { 'j', "json", "-j/--json", 0, OPT_JSON }, D },
	{ { 'e', "extended", "-e/--extended", 0, OPT_EXTENDED }, D },
	{ { 0, "json", "--json", 0, OPT_JSON_LONG }, S },
	{ { 0, "ops", "--ops", 1, OPT_OPS }, B },
	{ { 0, "ring-pages", "--ring-pages", 1, OPT_RING_PAGES }, S },
	{ { 0, "prometheus", "--prometheus", 1, OPT_PROMETHEUS }, D },
	{ { 0, "listen", "--listen", 1, OPT_LISTEN }, D },
	{ { 0, "heatmap", "--heatmap", 1, OPT_HEATMAP }, B },
	{ { 0, "attach", "--attach", 1, OPT_ATTACH }, B },
	{ { 0, "read-path", "--read-path", 1, OPT_READ_PATH }, B },
	{ { 0, "maxactive", "--maxactive", 1, OPT_MAXACTIVE }, B },
	{ { 0, "fops-addr", "--fops-addr", 1, OPT_FOPS_ADDR }, B },
	{ { 0, "pretend", "--pretend", 1, OPT_PRETEND }, B },
	{ { 0, "check", "--check", 0, OPT_CHECK }, D },
	{ { 0, "dump-bpf", "--dump-bpf", ARGPARSE_OPTIONAL, OPT_DUMP_BPF }, D },
	{ { 0, "verifier-log", "--verifier-log", ARGPARSE_OPTIONAL,
	    OPT_VERIFIER_LOG }, D },
	{ { 0, "prog", "--prog", 1, OPT_PROG }, D },
	{ { 0, "dump-maps", "--dump-maps", 0, OPT_DUMP_MAPS }, D },
	{ { 0, "version", "--version", 0, OPT_VERSION }, B },
	{ { 0, "slower", "--slower", 1, OPT_SLOWER }, D },
	{ { 0, "ring-pages", "--ring-pages", 1, OPT_RING_PAGES }, D },
	{ { 0, "start-slots", "--start-slots", 1, OPT_START_SLOTS }, B },
#ifdef EXT4DIST_TEST_HOOKS
	/*
	 * The test build's fixture paths, not in the help text (docs/testing.md, "The
	 * test build"); the shipped binary treats them as any unknown option.
	 */
	{ { 0, "test-kallsyms", "--test-kallsyms", 1, OPT_TEST_KALLSYMS }, D },
	{ { 0, "test-sysfs-kprobe", "--test-sysfs-kprobe", 1,
	    OPT_TEST_SYSFS_KPROBE }, D },
	{ { 0, "test-tracing-dir", "--test-tracing-dir", 1, OPT_TEST_TRACING },
	  D },
	{ { 0, "test-debugfs-dir", "--test-debugfs-dir", 1, OPT_TEST_DEBUGFS },
	  D },
	{ { 0, "test-sys-module", "--test-sys-module", 1, OPT_TEST_SYS_MODULE },
	  D },
	{ { 0, "test-meminfo", "--test-meminfo", 1, OPT_TEST_MEMINFO }, D },
#endif
};

#define NR_OPT_ROWS (sizeof(opt_rows) / sizeof(opt_rows[0]))

static const char *const attach_choices[] = {
	[ATTACH_AUTO] = "auto",
	[ATTACH_PMU] = "pmu",
	[ATTACH_TRACEFS] = "tracefs",
	[ATTACH_MULTI] = "multi",
	[ATTACH_FENTRY] = "fentry",
	[ATTACH_TRACEPOINT] = "tracepoint",
};

static const char *const read_path_choices[] = {
	[READ_PATH_AUTO] = "auto",
	[READ_PATH_GENERIC] = "generic",
};

/* --dump-bpf=WHAT: index + 1 is the enum dump_bpf_mode. */
static const char *const dump_choices[] = {
	[DUMP_BPF_TEXT - 1] = "text",
	[DUMP_BPF_XLATED - 1] = "xlated",
	[DUMP_BPF_ELF - 1] = "elf",
	[DUMP_BPF_REFUSED - 1] = "refused",
	[DUMP_BPF_JITED - 1] = "jited",
};

/* --verifier-log=LEVEL: the kernel's log_level values. */
static const char *const log_level_choices[] = { "1", "2", "4" };

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
	[PRETEND_NO_FENTRY] = "no-fentry",
	[PRETEND_NO_MAXACTIVE] = "no-maxactive",
	[PRETEND_NO_READ_ITER] = "no-read-iter",
	[PRETEND_NO_GETATTR] = "no-getattr",
	[PRETEND_NO_MAP_VALUE] = "no-map-value",
};

#define NR_CHOICES(c) ((unsigned int)(sizeof(c) / sizeof((c)[0])))


static struct ext4dist_args *args_of(struct argparse *ap)
{
	return ((struct args_ctx *)argparse_ctx(ap))->a;
}

/*
 * The file system argv[0] names (xfsdist, xfsslower), else ext4: the
 * parse's c->named and a->fs until -t says otherwise; a->prog the
 * command's name for it (xfsslower), every message's prefix.
 */
static void fs_from_name(struct args_ctx *c, int argc, char **argv)
{
	int slower = 0;

	c->named = argc > 0 && argv ? fs_by_tool(argv[0], &slower) : NULL;
	if (!c->named)
		c->named = &fs_ext4;
	c->a->fs = c->named;
	c->a->fs_list[0] = c->named;
	c->a->nr_fs = 1;
	c->a->prog = c->slower ? c->named->slower_tool : c->named->tool;
}

/*
 * Settles what --ops and -t left: the file system's default operations;
 * an operation or read path the file system lacks is argparse's usage
 * error (ARGS_ERR_USAGE, usage and message on err).
 */
static int finish_fs(struct args_ctx *c, FILE *err)
{
	struct ext4dist_args *a = c->a;
	struct errbuf eb = { "" };
	unsigned int i;

	if (!c->ops_given)
		a->ops_mask = a->fs->default_ops;
	if (a->fops_addr && a->nr_fs > 1)
		errbuf_set(&eb, -EINVAL,
			   "argument --fops-addr: the address of one file system's file operations, and -t names %u of them: trace each in a run of its own",
			   a->nr_fs);
	else if (a->fops_addr && !a->fs->generic_read)
		errbuf_set(&eb, -EINVAL,
			   "argument --fops-addr: %s has no generic read path",
			   a->fs->name);
	for (i = 0; i < a->nr_fs && !eb.msg[0]; i++)
		fs_check_wanted(a->fs_list[i], a->ops_mask,
				a->read_path == READ_PATH_GENERIC, &eb);
	if (!eb.msg[0])
		return 0;
	fputs(c->usage, err);
	fprintf(err, "%s: error: %s\n", a->prog, eb.msg);
	return ARGS_ERR_USAGE;
}

/*
 * -t TYPE[,TYPE...]: names of tables in fs_all[], kept in fs_all[]'s
 * order; only one in the slow mode.
 */
static int get_types(struct argparse *ap, const char *opt, const char *s,
		     struct ext4dist_args *a)
{
	const char *names[8];
	unsigned int n = 0, mask, i;
	int err;

	while (n < sizeof(names) / sizeof(names[0]) && fs_all[n]) {
		names[n] = fs_all[n]->name;
		n++;
	}
	err = argparse_choice_list(ap, opt, "file system", s, names, n, &mask);
	if (err)
		return err;
	a->nr_fs = 0;
	for (i = 0; i < n && a->nr_fs < ARGS_MAX_FS; i++)
		if (mask & (1u << i))
			a->fs_list[a->nr_fs++] = fs_all[i];
	if (a->slower && a->nr_fs > 1)
		return argparse_error(ap, "argument %s: the slow mode traces one file system at a time\n",
				      opt);
	a->fs = a->fs_list[0];
	return 0;
}

int args_min_ms(struct argparse *ap, const char *opt, const char *s,
		unsigned long *v)
{
	unsigned long long n;
	int err;

	/* 0 is allowed: every call. */
	if (argparse_unsigned(s, 10, &n) == 0 && n == 0) {
		*v = 0;
		return 0;
	}
	err = argparse_uint(ap, opt, s, 1, ARGS_MIN_MS_MAX, &n);
	if (!err)
		*v = (unsigned long)n;
	return err;
}

/* --fops-addr: 0x... or decimal, not 0 (0 means "look it up"). */
static int get_address(struct argparse *ap, const char *opt, const char *s,
		       unsigned long long *v)
{
	int err;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		err = argparse_unsigned(s + 2, 16, v);
	else
		err = argparse_unsigned(s, 10, v);
	if (err == -EINVAL)
		return argparse_value_error(ap, opt, "invalid address value:",
					    s, strlen(s), "");
	if (err)
		return argparse_value_error(ap, opt, "value out of range:", s,
					    strlen(s),
					    " (expected at most 64 bits)");
	if (!*v)
		return argparse_value_error(ap, opt, "value out of range:", s,
					    strlen(s),
					    " (expected a non-zero address)");
	return 0;
}

/* A choice as its index: the choices tables are indexed by their enum. */
static int get_enum(struct argparse *ap, const char *opt, const char *s,
		    const char *const *choices, unsigned int n, int *v)
{
	int i = argparse_choice(ap, opt, s, choices, n);

	if (i < 0)
		return i;
	*v = i;
	return 0;
}

static int get_u32(struct argparse *ap, const char *opt, const char *s,
		   unsigned long long max, unsigned int *v)
{
	unsigned long long n;
	int err = argparse_uint(ap, opt, s, 1, max, &n);

	if (!err)
		*v = (unsigned int)n;
	return err;
}

#ifdef EXT4DIST_TEST_HOOKS
/* A path for a test hook: absolute, so no working directory matters. */
static int test_path(struct argparse *ap, const char *opt, const char *val,
		     const char **out)
{
	if (val[0] != '/' || strlen(val) > 200)
		return argparse_value_error(ap, opt,
					    "expected an absolute path", val,
					    strlen(val), "");
	*out = val;
	return 0;
}

static int test_hook(struct argparse *ap, const struct argparse_opt *o,
		     const char *val)
{
	struct ext4dist_args *a = args_of(ap);

	switch (o->id) {
	case OPT_TEST_KALLSYMS:
		return test_path(ap, o->shown, val, &a->test_kallsyms);
	case OPT_TEST_SYSFS_KPROBE:
		return test_path(ap, o->shown, val, &a->test_sysfs_kprobe);
	case OPT_TEST_TRACING:
		return test_path(ap, o->shown, val, &a->test_tracing);
	case OPT_TEST_DEBUGFS:
		return test_path(ap, o->shown, val, &a->test_debugfs);
	case OPT_TEST_SYS_MODULE:
		return test_path(ap, o->shown, val, &a->test_sys_module);
	case OPT_TEST_MEMINFO:
		return test_path(ap, o->shown, val, &a->test_meminfo);
	default:
		return -EINVAL;	/* not reached: table and switch agree */
	}
}
#endif

/* The engine's value callback: an option that takes a value. */
int args_value(struct argparse *ap, const struct argparse_opt *o,
	       const char *val)
{
	struct ext4dist_args *a = args_of(ap);
	unsigned long long n;
	int v, err;

	switch (o->id) {
	case OPT_PID:
		return get_u32(ap, o->shown, val, ARGS_PID_MAX, &a->pid);
	case OPT_TYPE:
		return get_types(ap, o->shown, val, a);
	case OPT_OPS:
		((struct args_ctx *)argparse_ctx(ap))->ops_given = 1;
		return argparse_choice_list(ap, o->shown, "operation", val,
					    op_choices, NR_OPS, &a->ops_mask);
	case OPT_PROMETHEUS:
		((struct args_ctx *)argparse_ctx(ap))->hist_only = 1;
		if (!*val)
			return argparse_error(ap, "argument %s: expected a "
					      "file name\n", o->shown);
		a->prometheus = val;
		return 0;
	case OPT_LISTEN: {
		struct errbuf eb = { "" };
		struct listen_spec ls;
		const char *c;

		((struct args_ctx *)argparse_ctx(ap))->hist_only = 1;
		/* listen_parse()'s messages quote val as it is. */
		for (c = val; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				return argparse_value_error(ap, o->shown,
							    "invalid address:",
							    val, strlen(val),
							    "");
		if (listen_parse(val, &ls, &eb))
			return argparse_error(ap, "argument %s: %s\n", o->shown,
					      eb.msg);
		a->listen = val;
		return 0;
	}
	case OPT_HEATMAP:
		if (!*val)
			return argparse_error(ap, "argument %s: expected a "
					      "file name\n", o->shown);
		a->heatmap = val;
		return 0;
	case OPT_ATTACH:
		err = get_enum(ap, o->shown, val, attach_choices,
			       NR_CHOICES(attach_choices), &v);
		if (!err)
			a->attach = (enum attach_mode)v;
		return err;
	case OPT_READ_PATH:
		err = get_enum(ap, o->shown, val, read_path_choices,
			       NR_CHOICES(read_path_choices), &v);
		if (!err)
			a->read_path = (enum read_path_mode)v;
		return err;
	case OPT_MAXACTIVE:
		return get_u32(ap, o->shown, val, ARGS_MAXACTIVE_MAX,
			       &a->maxactive);
	case OPT_FOPS_ADDR:
		return get_address(ap, o->shown, val, &a->fops_addr);
	case OPT_PRETEND:
		return argparse_choice_list(ap, o->shown, "feature", val,
					    pretend_choices, NR_PRETEND,
					    &a->pretend);
	case OPT_SLOWER:
		a->slower = 1;
		return args_min_ms(ap, o->shown, val, &a->min_ms);
	case OPT_RING_PAGES:
		err = get_u32(ap, o->shown, val, ARGS_RING_PAGES_MAX,
			      &a->ring_pages);
		if (!err && (a->ring_pages & (a->ring_pages - 1)))
			return argparse_value_error(ap, o->shown,
						    "not a power of two:", val,
						    strlen(val), "");
		return err;
	case OPT_START_SLOTS:
		err = argparse_uint(ap, o->shown, val, START_SLOTS_MIN,
				    START_SLOTS_MAX, &n);
		if (!err && (n & (n - 1)))
			return argparse_value_error(ap, o->shown,
						    "not a power of two:", val,
						    strlen(val), "");
		if (!err)
			a->start_slots = (unsigned int)n;
		return err;
	case OPT_DUMP_BPF:
		err = get_enum(ap, o->shown, val, dump_choices,
			       NR_CHOICES(dump_choices), &v);
		if (!err)
			a->dump_bpf = (enum dump_bpf_mode)(v + 1);
		return err;
	case OPT_VERIFIER_LOG:
		err = get_enum(ap, o->shown, val, log_level_choices,
			       NR_CHOICES(log_level_choices), &v);
		if (!err)
			a->verifier_log = 1 << v;
		return err;
	case OPT_PROG:
		if (!*val)
			return argparse_error(ap, "argument %s: expected a "
					      "pattern\n", o->shown);
		a->prog_glob = val;
		return 0;
	default:
#ifdef EXT4DIST_TEST_HOOKS
		return test_hook(ap, o, val);
#else
		return -EINVAL;	/* not reached: table and switch agree */
#endif
	}
}

/* The engine's flag callback. */
int args_flag(struct argparse *ap, const struct argparse_opt *o)
{
	struct args_ctx *c = argparse_ctx(ap);
	struct ext4dist_args *a = c->a;

	switch (o->id) {
	case OPT_HELP:
		return args_help(c);
	case OPT_VERSION:
		return args_served(c, c->slower ? "ext4slower " EXT4DIST_VERSION :
				   "ext4dist " EXT4DIST_VERSION, "\n");
	case OPT_CSV:
		a->csv = 1;
		break;
	case OPT_JSON_LONG:
		a->json = 1;
		break;
	case OPT_NOTIMESTAMP:
		a->notimestamp = 1;
		c->hist_only = 1;
		break;
	case OPT_MILLISECONDS:
		a->milliseconds = 1;
		c->hist_only = 1;
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
		c->hist_only = 1;
		break;
	case OPT_CHECK:
		a->check = 1;
		break;
	case OPT_DUMP_BPF:
		a->dump_bpf = DUMP_BPF_TEXT;
		break;
	case OPT_DUMP_MAPS:
		a->dump_maps = 1;
		break;
	case OPT_VERIFIER_LOG:
		a->verifier_log = 2;
		break;
	default:
		return -EINVAL;	/* not reached */
	}
	return 0;
}

/* The engine's positional callback: [interval] [count]. */
static int positional(struct argparse *ap, unsigned int index,
		      const char *s)
{
	struct args_ctx *c = argparse_ctx(ap);
	struct ext4dist_args *a = c->a;
	unsigned long long v;
	int err;

	c->hist_only = 1;
	if (index == 1) {
		err = argparse_uint(ap, "count", s, 1, ARGS_COUNT_MAX, &v);
		if (!err)
			a->count = (unsigned long)v;
		return err;
	}
	/* 0 is an error only once everything parsed, as in BCC */
	if (argparse_unsigned(s, 10, &v) == 0 && v == 0) {
		c->interval_zero = 1;
		a->interval = 0;
		return 0;
	}
	err = argparse_uint(ap, "interval", s, 1, ARGS_INTERVAL_MAX, &v);
	if (!err)
		a->interval = (unsigned long)v;
	return err;
}

/* Every field of *a at its default. */
static void defaults(struct ext4dist_args *a)
{
	memset(a, 0, sizeof(*a));
	a->count = ARGS_DEFAULT_COUNT;
	a->fs = &fs_ext4;
	a->fs_list[0] = &fs_ext4;
	a->nr_fs = 1;
	a->prog = fs_ext4.tool;
	a->ops_mask = fs_ext4.default_ops;
	a->attach = ATTACH_AUTO;
	a->read_path = READ_PATH_AUTO;
	a->min_ms = ARGS_DEFAULT_MIN_MS;
	a->ring_pages = ARGS_DEFAULT_RING_PAGES;
}

int args_walk(struct args_ctx *c, int argc, char **argv, FILE *err,
	      int (*positional)(struct argparse *ap, unsigned int index,
				const char *s),
	      unsigned int max_positionals)
{
	struct argparse_opt opts[NR_OPT_ROWS];
	struct argparse_spec spec = {
		.usage = c->usage,
		.opts = opts,
		.max_positionals = max_positionals,
		.flag = args_flag,
		.value = args_value,
		.positional = positional,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < NR_OPT_ROWS; i++)
		if (opt_rows[i].in & (c->slower ? S : D))
			opts[spec.nr_opts++] = opt_rows[i].o;
	defaults(c->a);
	c->a->slower = c->slower;
	fs_from_name(c, argc, argv);
	args_named(c->usage, sizeof(c->usage),
		   c->slower ? args_usage_slower : args_usage_dist, c->named);
	spec.prog = c->a->prog;
	ret = argparse_parse(&spec, argc, argv, c, err);
	/* args.h promises its own constant, whatever the engine's is */
	if (ret == ARGPARSE_ERR_USAGE)
		return ARGS_ERR_USAGE;
	return ret ? ret : finish_fs(c, err);
}

int args_usage_error(struct args_ctx *c, FILE *err, const char *text)
{
	fputs(c->usage, err);
	args_put_named(err, text, c->named);
	return ARGS_ERR_USAGE;
}

int args_parse(int argc, char **argv, struct ext4dist_args *a, FILE *out,
	       FILE *err)
{
	struct args_ctx c = { .a = a, .out = out };
	int ret = args_walk(&c, argc, argv, err, positional, 2);

	if (ret)
		return ret;
	a->ops_given = c.ops_given;
	if (a->prog_glob && !a->dump_bpf && !a->verifier_log)
		return args_usage_error(&c, err, "ext4dist: error: argument --prog: only with --dump-bpf or --verifier-log (it picks the programs they show)\n");
	if (a->slower && c.hist_only)
		return args_usage_error(&c, err, "ext4dist: error: argument --slower: not allowed with -T, -m, -e, --prometheus, --listen, interval or count (the histogram mode's)\n");
	if (a->slower && a->nr_fs > 1)
		return args_usage_error(&c, err, "ext4dist: error: argument --slower: the slow mode traces one file system at a time\n");
	/* A heatmap of intervals needs intervals; the slow mode's is of events. */
	if (a->heatmap && !a->slower && !a->interval && !c.interval_zero)
		return args_usage_error(&c, err, "ext4dist: error: argument --heatmap: needs an interval, its columns (ext4dist --heatmap FILE.svg 5: a column per 5 s)\n");
	/* BCC checks the interval after argparse accepted the line */
	if (c.interval_zero) {
		fputs("ERROR: interval 0. Exiting.\n", err);
		return ARGS_ERR_INTERVAL0;
	}
	return 0;
}

int args_exit_code(int parse_result)
{
	if (parse_result == 0 || parse_result == ARGS_EXIT_OK)
		return 0;
	if (parse_result == ARGS_ERR_USAGE)
		return 2;
	return 1;
}
