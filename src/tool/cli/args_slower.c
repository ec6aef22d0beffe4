// SPDX-License-Identifier: GPL-2.0
/*
 * Command line of ext4slower: BCC ext4slower's usage line, options and
 * positional (min_ms, default 10, 0 for every operation), plus the
 * options of ext4dist that make sense for events.  The handlers of the
 * shared options are args.c's.
 */
#include <string.h>

#include "tool/cli/args_priv.h"

#ifndef EXT4DIST_VERSION
#define EXT4DIST_VERSION "unknown"
#endif

static const char usage_line[] =
	"usage: ext4slower [-h] [-j] [-p PID] [min_ms]\n";

/* In parts, as args.c's: the generic read path's only where there is one. */
static const char help_head[] =
	"\n"
	"Print each ext4 read, write, open and fsync that takes longer than a\n"
	"threshold\n"
	"\n"
	"positional arguments:\n"
	"  min_ms                the threshold in milliseconds (default 10; 0\n"
	"                        prints every operation)\n"
	"\n"
	"optional arguments:\n"
	"  -h, --help            show this help message and exit\n"
	"  -j, --csv             print comma-separated fields instead of columns\n"
	"  -p PID, --pid PID     trace this process only\n"
	"  -t TYPE, --type TYPE  the file system to trace: ext4, xfs, btrfs or\n"
	"                        f2fs (default: the one the name run as says,\n"
	"                        as xfsdist and xfsslower say xfs; else ext4)\n"
	"  -v, --verbose         explain each load and attach step (repeat "
	"for more)\n"
	"  --json                print each event as one line of JSON\n"
	"  --ops LIST            operations to trace, comma separated, from\n"
	"                        read, write, open, fsync (default: all four)\n"
	"  --ring-pages N        event ring pages per CPU, a power of two\n"
	"                        (default 64)\n"
	"  --heatmap FILE.svg    at the end, draw the events as a latency\n"
	"                        heatmap, a column per second\n"
	"  --attach {auto,pmu,tracefs,multi}\n"
	"                        how to create probes, as ext4dist --attach\n";
static const char help_read_path[] =
	"  --read-path {auto,generic}\n"
	"                        generic: probe generic_file_read_iter, as on\n"
	"                        kernels < 4.10 (default: auto)\n";
static const char help_maxactive[] =
	"  --maxactive N         kretprobe instances per probe, 1 to 4096\n";
static const char help_fops_addr[] =
	"  --fops-addr ADDR      address of ext4_file_operations\n";
static const char help_tail[] =
	"  --pretend LIST        behave as if the kernel lacked features (as\n"
	"                        ext4dist --pretend)\n"
	"  --version             show program's version number and exit\n"
	"\n"
	"examples:\n"
	"    ./ext4slower          # operations slower than 10 ms\n"
	"    ./ext4slower 1        # slower than 1 ms\n"
	"    ./ext4slower -j 1     # slower than 1 ms, as CSV\n"
	"    ./ext4slower 0        # every operation (a lot of output)\n"
	"    ./ext4slower -p 185   # process 185 only\n"
	"    ./ext4slower --json 5 # slower than 5 ms, as JSON lines\n"
	"    ./ext4slower --heatmap slow.svg 0\n"
	"                          # every call, then drawn as a heatmap\n";

static const struct argparse_opt opt_defs[] = {
	{ 'h', "help", "-h/--help", 0, OPT_HELP },
	{ 'j', "csv", "-j/--csv", 0, OPT_CSV },
	{ 'p', "pid", "-p/--pid", 1, OPT_PID },
	{ 't', "type", "-t/--type", 1, OPT_TYPE },
	{ 'v', "verbose", "-v/--verbose", 0, OPT_VERBOSE },
	{ 0, "json", "--json", 0, OPT_JSON_LONG },
	{ 0, "ops", "--ops", 1, OPT_OPS },
	{ 0, "ring-pages", "--ring-pages", 1, OPT_RING_PAGES },
	{ 0, "heatmap", "--heatmap", 1, OPT_HEATMAP },
	{ 0, "attach", "--attach", 1, OPT_ATTACH },
	{ 0, "read-path", "--read-path", 1, OPT_READ_PATH },
	{ 0, "maxactive", "--maxactive", 1, OPT_MAXACTIVE },
	{ 0, "fops-addr", "--fops-addr", 1, OPT_FOPS_ADDR },
	{ 0, "pretend", "--pretend", 1, OPT_PRETEND },
	{ 0, "version", "--version", 0, OPT_VERSION },
};

static int flag(struct argparse *ap, const struct argparse_opt *o)
{
	struct args_ctx *c = argparse_ctx(ap);

	switch (o->id) {
	case OPT_HELP:
		return args_help(c, usage_line, (const char *const[]){
			help_head, help_read_path, help_maxactive,
			help_fops_addr, help_tail });
	case OPT_VERSION:
		return args_served(c, "ext4slower " EXT4DIST_VERSION, "\n");
	case OPT_CSV:
		c->a->csv = 1;
		return 0;
	case OPT_JSON_LONG:
		c->a->json = 1;
		return 0;
	default:
		return args_flag(ap, o);
	}
}

static int positional(struct argparse *ap, unsigned int index,
		      const char *s)
{
	struct args_ctx *c = argparse_ctx(ap);

	(void)index;	/* max_positionals is 1 */
	return args_min_ms(ap, "min_ms", s, &c->a->min_ms);
}

static const struct argparse_spec spec = {
	.prog = "ext4slower",
	.usage = usage_line,
	.opts = opt_defs,
	.nr_opts = sizeof(opt_defs) / sizeof(opt_defs[0]),
	.max_positionals = 1,
	.flag = flag,
	.value = args_value,
	.positional = positional,
};

int args_parse_slower(int argc, char **argv, struct ext4dist_args *a,
		      FILE *out, FILE *err)
{
	struct args_ctx c = { .a = a, .out = out };
	struct argparse_spec named = spec;
	char usage[128];
	int ret;

	args_defaults(a);
	a->slower = 1;
	args_fs_from_name(&c, argc, argv);
	args_named(usage, sizeof(usage), usage_line, c.named);
	named.prog = c.named->slower_tool;
	named.usage = usage;
	ret = argparse_parse(&named, argc, argv, &c, err);
	if (ret == ARGPARSE_ERR_USAGE)
		return ARGS_ERR_USAGE;
	if (ret)
		return ret;
	ret = args_finish_fs(&c, usage, err);
	if (ret)
		return ret;
	if (a->csv && a->json) {
		fputs(usage, err);
		args_put_named(err, "ext4slower: error: argument --json: not allowed with argument -j/--csv\n",
			       c.named);
		return ARGS_ERR_USAGE;
	}
	return 0;
}

int args_invoked_as_slower(const char *argv0)
{
	int slower;

	return fs_by_tool(argv0, &slower) && slower;
}
