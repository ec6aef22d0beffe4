/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What args.c (ext4dist's command line) and args_slower.c (ext4slower's)
 * share: the option ids, one parse's context, and the handlers of the
 * options both have.
 */
#ifndef EXT4DIST_TOOL_ARGS_PRIV_H
#define EXT4DIST_TOOL_ARGS_PRIV_H

#include <stdio.h>

#include "tool/argparse.h"
#include "tool/args.h"

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
	OPT_CSV,		/* ext4slower's -j */
	OPT_JSON_LONG,		/* ext4slower's --json */
#ifdef EXT4DIST_TEST_HOOKS
	OPT_TEST_KALLSYMS,
	OPT_TEST_SYSFS_KPROBE,
	OPT_TEST_TRACING,
	OPT_TEST_DEBUGFS,
#endif
};

/* One args_parse() call, for the callbacks. */
struct args_ctx {
	struct ext4dist_args *a;
	FILE *out;
	int interval_zero;	/* "0" given: BCC's message once parsed */
	int hist_only;		/* an option of the histogram mode given */
};

/* The value callback of every option that takes one. */
int args_value(struct argparse *ap, const struct argparse_opt *o,
	       const char *val);
/* The flag callback of the flags both commands have (-v...). */
int args_flag(struct argparse *ap, const struct argparse_opt *o);
/* -h and --version: text1 and text2 on the parse's out, then stop. */
int args_served(struct args_ctx *c, const char *text1, const char *text2);
/* min_ms, as ext4slower's positional and ext4dist's --slower take it. */
int args_min_ms(struct argparse *ap, const char *opt, const char *s,
		unsigned long *v);
/* Every field of *a at its default. */
void args_defaults(struct ext4dist_args *a);

#endif
