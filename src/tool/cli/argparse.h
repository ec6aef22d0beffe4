/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command line walker that behaves like Python's argparse, for tools
 * that must keep the exact command line of a BCC tool.  It knows no
 * program: the caller gives its name, usage line and option table, and
 * callbacks that take each option and positional; the engine finds them
 * in argv as argparse does and writes argparse's messages.
 */
#ifndef EXT4DIST_TOOL_ARGPARSE_H
#define EXT4DIST_TOOL_ARGPARSE_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

/* Every usage error: argparse exits with status 2 on it. */
#define ARGPARSE_ERR_USAGE (-EINVAL)

/* argparse's nargs='?' without taking the next argument: --name or --name=V. */
#define ARGPARSE_OPTIONAL 2

struct argparse_opt {
	char short_name;	/* -x, 0: long form only; never a digit,
				   which would make "-1" an option */
	const char *long_name;	/* --name without "--", NULL: short only */
	const char *shown;	/* name in messages, as argparse joins them:
				   "-p/--pid", "--ops", "-x" */
	int takes_value;	/* else a flag; ARGPARSE_OPTIONAL: a value
				   only as --name=VALUE, else a flag */
	int id;			/* the caller's, for its callbacks */
};

/* One walk of argv: opaque, handed to the callbacks and the helpers. */
struct argparse;

/*
 * Each callback returns 0 to go on, a negative value to stop with it (an
 * error, its message already written, usually by a helper below), or a
 * positive value to stop with it and no message (a request served, as
 * argparse's -h which prints and exits at once).
 */
struct argparse_spec {
	const char *prog;	/* "PROG: error: ..." */
	const char *usage;	/* "usage: PROG ...\n", before every error */
	const struct argparse_opt *opts;
	unsigned int nr_opts;
	/*
	 * Positionals taken in order, wherever they stand between options;
	 * any past the last is unrecognized, as argparse says of it.
	 */
	unsigned int max_positionals;
	int (*flag)(struct argparse *ap, const struct argparse_opt *o);
	int (*value)(struct argparse *ap, const struct argparse_opt *o,
		     const char *val);
	int (*positional)(struct argparse *ap, unsigned int index,
			  const char *val);
};

/*
 * Walks argv[1..argc-1] and calls back for each option and positional, in
 * argv order:
 *   --name, --name=value, --name value, and any unique prefix of a name;
 *   -x, clusters -xyz, -pVALUE, -p=VALUE, -xp VALUE;
 *   "--" ends the options; "-" and negative numbers ("-1", "-2.5") are
 *   not options, so they are values and positionals.
 * Unknown options and extra positionals are collected and reported
 * together once argv is walked ("unrecognized arguments: ..."); the first
 * other error stops the walk.  Text from argv is echoed with control and
 * non-ASCII bytes as \xNN.  Values point into argv.
 *
 * Returns 0 when argv was walked, the first non-zero callback result,
 * ARGPARSE_ERR_USAGE after a message on err, or -ENOMEM.  ctx is the
 * caller's, for its callbacks (argparse_ctx()).
 */
int argparse_parse(const struct argparse_spec *spec, int argc, char **argv,
		   void *ctx, FILE *err);
void *argparse_ctx(const struct argparse *ap);

/*
 * Helpers for the callbacks: each writes argparse's message on the walk's
 * err and returns ARGPARSE_ERR_USAGE on error.
 */

/* argparse's error(): the usage line, then "PROG: error: " and fmt. */
int argparse_error(struct argparse *ap, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "argument OPT: WHAT 'VAL'TAIL\n", the len bytes of val escaped. */
int argparse_value_error(struct argparse *ap, const char *opt,
			 const char *what, const char *val, size_t len,
			 const char *tail);
/*
 * A decimal in [min, max]: "invalid int value: 'S'" or "value out of
 * range: 'S' (expected MIN to MAX)".  Stricter than argparse's int(): no
 * sign, blank or "_", so a value that reaches generated code is digits.
 */
int argparse_uint(struct argparse *ap, const char *opt, const char *s,
		  unsigned long long min, unsigned long long max,
		  unsigned long long *v);
/* The index of s in choices[n], or "invalid choice: 'S' (choose from ...)". */
int argparse_choice(struct argparse *ap, const char *opt, const char *s,
		    const char *const *choices, unsigned int n);
/*
 * A comma separated list of choices[n] (n <= 32), at least one: *mask gets
 * bit i for choices[i].  An empty s is "expected at least one WHAT", an
 * empty item an invalid choice.
 */
int argparse_choice_list(struct argparse *ap, const char *opt,
			 const char *what, const char *s,
			 const char *const *choices, unsigned int n,
			 unsigned int *mask);

/*
 * A strict unsigned number in base 10 or 16 (no prefix), no message: at
 * least one digit and nothing else.  -EINVAL for junk (even past an
 * overflow), -ERANGE for more than 64 bits.
 */
int argparse_unsigned(const char *s, unsigned int base,
		      unsigned long long *v);

#endif
