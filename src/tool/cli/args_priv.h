/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What args.c (ext4dist's command line), args_slower.c (ext4slower's) and
 * args_help.c (their texts) share: the option ids, one parse's context,
 * and the handlers of the options both have.
 */
#ifndef EXT4DIST_TOOL_ARGS_PRIV_H
#define EXT4DIST_TOOL_ARGS_PRIV_H

#include <stdio.h>

#include "tool/cli/argparse.h"
#include "tool/cli/args.h"
#include "tool/fs/fs.h"

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
	OPT_VERIFIER_LOG,
	OPT_DUMP_MAPS,
	OPT_VERSION,
	OPT_SLOWER,
	OPT_RING_PAGES,
	OPT_START_SLOTS,
	OPT_CSV,		/* ext4slower's -j */
	OPT_JSON_LONG,		/* ext4slower's --json */
	OPT_TYPE,		/* -t/--type: the file system */
	OPT_LISTEN,		/* --listen: the exporter */
	OPT_HEATMAP,		/* --heatmap FILE.svg */
	OPT_PROG,		/* --prog GLOB: the programs shown */
#ifdef EXT4DIST_TEST_HOOKS
	OPT_TEST_KALLSYMS,
	OPT_TEST_SYSFS_KPROBE,
	OPT_TEST_TRACING,
	OPT_TEST_DEBUGFS,
	OPT_TEST_SYS_MODULE,
	OPT_TEST_MEMINFO,
#endif
};

/* One args_parse() call, for the callbacks. */
struct args_ctx {
	struct ext4dist_args *a;
	FILE *out;
	int interval_zero;	/* "0" given: BCC's message once parsed */
	int hist_only;		/* an option of the histogram mode given */
	int ops_given;		/* --ops: not the file system's default */
	/* The name run as (argv[0]): its usage, help and messages */
	const struct fs_table *named;
	int slower;		/* ext4slower's command line */
	char usage[128];	/* its usage line, in the named words */
};

/* The usage lines, in ext4's words (args_help.c). */
extern const char args_usage_dist[];
extern const char args_usage_slower[];

/*
 * The walk both commands share: *c->a at its defaults, argv[0]'s file
 * system, the options of c->slower's command (one table, a row per
 * command that has it), then what --ops and -t left (args.c: finish_fs()).
 * 0, or ARGS_ERR_USAGE / -errno as args_parse().
 */
int args_walk(struct args_ctx *c, int argc, char **argv, FILE *err,
	      int (*positional)(struct argparse *ap, unsigned int index,
				const char *s),
	      unsigned int max_positionals);
/* The usage line, then text (in ext4's words) on err: ARGS_ERR_USAGE. */
int args_usage_error(struct args_ctx *c, FILE *err, const char *text);

/* The value callback of every option that takes one. */
int args_value(struct argparse *ap, const struct argparse_opt *o,
	       const char *val);
/* The flag callback of every flag. */
int args_flag(struct argparse *ap, const struct argparse_opt *o);
/*
 * -h: usage, then the help's parts: head, the generic read path's
 * --read-path, --maxactive, the read path's --fops-addr, tail (the
 * generic read path's only where the file system has one).
 */
int args_help(struct args_ctx *c);
/* -h and --version: text1 and text2 on the parse's out, then stop. */
int args_served(struct args_ctx *c, const char *text1, const char *text2);
/* min_ms, as ext4slower's positional and ext4dist's --slower take it. */
int args_min_ms(struct argparse *ap, const char *opt, const char *s,
		unsigned long *v);

/*
 * text with the tool's words ("ext4dist", "ext4slower", BCC's
 * description, "ext4_file_operations") as the file system's table has
 * them, into buf of len bytes (cut if it does not fit).
 */
void args_named(char *buf, size_t len, const char *text,
		const struct fs_table *fs);
/* The same, written to f. */
int args_put_named(FILE *f, const char *text, const struct fs_table *fs);

#endif
