// SPDX-License-Identifier: GPL-2.0
/*
 * Command line of ext4slower: BCC ext4slower's usage line, options and
 * positional (min_ms, default 10, 0 for every operation), plus the
 * options of ext4dist that make sense for events.  Its options are rows
 * of args.c's table, their handlers args.c's.
 */
#include "tool/cli/args_priv.h"

static int positional(struct argparse *ap, unsigned int index,
		      const char *s)
{
	struct args_ctx *c = argparse_ctx(ap);

	(void)index;	/* max_positionals is 1 */
	return args_min_ms(ap, "min_ms", s, &c->a->min_ms);
}

int args_parse_slower(int argc, char **argv, struct ext4dist_args *a,
		      FILE *out, FILE *err)
{
	struct args_ctx c = { .a = a, .out = out, .slower = 1 };
	int ret = args_walk(&c, argc, argv, err, positional, 1);

	if (ret)
		return ret;
	if (a->csv && a->json)
		return args_usage_error(&c, err, "ext4slower: error: argument --json: not allowed with argument -j/--csv\n");
	return 0;
}

int args_invoked_as_slower(const char *argv0)
{
	int slower;

	return fs_by_tool(argv0, &slower) && slower;
}
