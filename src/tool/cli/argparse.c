// SPDX-License-Identifier: GPL-2.0
/*
 * An argparse-compatible command line walker (argparse.h): the parsing
 * rules and messages of Python's argparse, with the program's options and
 * what they mean left to the caller.  Two differences from argparse, on
 * purpose:
 *  - numbers are strict (argparse_uint(): digits only), since a BCC tool
 *    once pasted -p text straight into BPF C source (bcc #5464);
 *  - positionals may be interleaved with options ("1 -m 5" gives two
 *    positionals; argparse would take the 1 alone and reject the 5).
 * Text from argv is echoed in error messages only, control bytes escaped.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/cli/argparse.h"

struct argparse {
	const struct argparse_spec *spec;
	void *ctx;
	FILE *err;
	int argc;
	char **argv;
	int next;		/* index of the next argv entry to read */
	unsigned int npos;	/* positionals taken */
	int *unrec;		/* argv indexes argparse calls unrecognized */
	int nunrec;
};

void *argparse_ctx(const struct argparse *ap)
{
	return ap->ctx;
}

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

int argparse_error(struct argparse *ap, const char *fmt, ...)
{
	va_list args;

	fputs(ap->spec->usage, ap->err);
	fprintf(ap->err, "%s: error: ", ap->spec->prog);
	va_start(args, fmt);
	vfprintf(ap->err, fmt, args);
	va_end(args);
	return ARGPARSE_ERR_USAGE;
}

int argparse_value_error(struct argparse *ap, const char *opt,
			 const char *what, const char *val, size_t len,
			 const char *tail)
{
	argparse_error(ap, "argument %s: %s '", opt, what);
	put_escaped(ap->err, val, len);
	fprintf(ap->err, "'%s\n", tail);
	return ARGPARSE_ERR_USAGE;
}

int argparse_unsigned(const char *s, unsigned int base,
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

int argparse_uint(struct argparse *ap, const char *opt, const char *s,
		  unsigned long long min, unsigned long long max,
		  unsigned long long *v)
{
	char tail[64];
	int err = argparse_unsigned(s, 10, v);

	if (err == -EINVAL)
		return argparse_value_error(ap, opt, "invalid int value:", s,
					    strlen(s), "");
	if (err || *v < min || *v > max) {
		snprintf(tail, sizeof(tail), " (expected %llu to %llu)", min,
			 max);
		return argparse_value_error(ap, opt, "value out of range:", s,
					    strlen(s), tail);
	}
	return 0;
}

/* The len bytes at s as one of choices[n]: its index or the error. */
static int choice(struct argparse *ap, const char *opt, const char *s,
		  size_t len, const char *const *choices, unsigned int n)
{
	char tail[256];
	size_t used;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strlen(choices[i]) == len && !strncmp(s, choices[i], len))
			return (int)i;
	/* argparse prints the repr() of each choice: quoted, comma joined */
	used = (size_t)snprintf(tail, sizeof(tail), " (choose from ");
	for (i = 0; i < n && used < sizeof(tail); i++)
		used += (size_t)snprintf(tail + used, sizeof(tail) - used,
					 "%s'%s'", i ? ", " : "", choices[i]);
	if (used < sizeof(tail))
		snprintf(tail + used, sizeof(tail) - used, ")");
	return argparse_value_error(ap, opt, "invalid choice:", s, len, tail);
}

int argparse_choice(struct argparse *ap, const char *opt, const char *s,
		    const char *const *choices, unsigned int n)
{
	return choice(ap, opt, s, strlen(s), choices, n);
}

int argparse_choice_list(struct argparse *ap, const char *opt,
			 const char *what, const char *s,
			 const char *const *choices, unsigned int n,
			 unsigned int *mask)
{
	const char *end;
	size_t len;
	int i;

	if (n > sizeof(*mask) * CHAR_BIT)
		return -EINVAL;	/* the caller's table, not the user's text */
	if (!*s)
		return argparse_error(ap, "argument %s: expected at least "
				      "one %s\n", opt, what);
	*mask = 0;
	for (;;) {
		end = strchr(s, ',');
		len = end ? (size_t)(end - s) : strlen(s);
		i = choice(ap, opt, s, len, choices, n);
		if (i < 0)
			return i;
		*mask |= 1u << i;
		if (!end)
			return 0;
		s = end + 1;
	}
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * argparse: a negative number is a value, not an option (its
 * _negative_number_matcher, '^-\d+$|^-\d*\.\d+$', while the parser has
 * no option that looks like one).
 */
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
static int apply(struct argparse *ap, const struct argparse_opt *o,
		 const char *explicit)
{
	const char *val;

	if (o->takes_value == ARGPARSE_OPTIONAL)
		return explicit ? ap->spec->value(ap, o, explicit) :
				  ap->spec->flag(ap, o);
	if (!o->takes_value) {
		if (explicit)
			return argparse_value_error(ap, o->shown,
						    "ignored explicit argument",
						    explicit, strlen(explicit),
						    "");
		return ap->spec->flag(ap, o);
	}
	if (explicit)
		return ap->spec->value(ap, o, explicit);
	if (ap->next >= ap->argc || looks_like_option(ap->argv[ap->next]) ||
	    !strcmp(ap->argv[ap->next], "--"))
		return argparse_error(ap, "argument %s: expected one "
				      "argument\n", o->shown);
	val = ap->argv[ap->next++];
	return ap->spec->value(ap, o, val);
}

static const struct argparse_opt *find_short(const struct argparse *ap,
					     char c)
{
	const struct argparse_opt *o = ap->spec->opts;
	unsigned int i;

	for (i = 0; i < ap->spec->nr_opts; i++)
		if (o[i].short_name && o[i].short_name == c)
			return &o[i];
	return NULL;
}

/* Kept for the end: argparse reports them all at once, after the walk. */
static void unrecognized(struct argparse *ap)
{
	ap->unrec[ap->nunrec++] = ap->next - 1;
}

/* -T, -Tm, -p181, -p=181, -mp 181, -vvv */
static int parse_short(struct argparse *ap, const char *arg)
{
	const char *c = arg + 1;
	const struct argparse_opt *o = find_short(ap, *c);
	const struct argparse_opt *next;
	int err;

	if (!o) {
		unrecognized(ap);
		return 0;
	}
	for (;;) {
		if (c == arg + 1 && c[1] == '=')
			return apply(ap, o, c + 2);
		if (o->takes_value)
			return apply(ap, o, c[1] ? c + 1 : NULL);
		err = apply(ap, o, NULL);
		if (err)
			return err;
		if (!*++c)
			return 0;
		next = find_short(ap, *c);
		if (!next)
			return argparse_value_error(ap, o->shown,
						    "ignored explicit argument",
						    c, strlen(c), "");
		o = next;
	}
}

/* Does option o's long name start with the len bytes at name? */
static int long_prefix(const struct argparse_opt *o, const char *name,
		       size_t len)
{
	return o->long_name && !strncmp(o->long_name, name, len);
}

/* "ambiguous option: --p could match --pid, --prometheus, --pretend" */
static int ambiguous(struct argparse *ap, const char *arg, size_t len)
{
	const struct argparse_opt *o = ap->spec->opts;
	unsigned int i, matches = 0;

	argparse_error(ap, "ambiguous option: ");
	put_escaped(ap->err, arg, strlen(arg));
	fputs(" could match", ap->err);
	for (i = 0; i < ap->spec->nr_opts; i++)
		if (long_prefix(&o[i], arg + 2, len))
			fprintf(ap->err, "%s --%s", matches++ ? "," : "",
				o[i].long_name);
	fputc('\n', ap->err);
	return ARGPARSE_ERR_USAGE;
}

/* --name, --name=value, --name value; unique prefixes as argparse. */
static int parse_long(struct argparse *ap, const char *arg)
{
	const struct argparse_opt *o = ap->spec->opts, *found = NULL;
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	unsigned int i, matches = 0;

	for (i = 0; i < ap->spec->nr_opts; i++) {
		if (!long_prefix(&o[i], name, len))
			continue;
		found = &o[i];
		if (o[i].long_name[len] == '\0') {
			matches = 1;	/* the whole name beats any prefix */
			break;
		}
		matches++;
	}
	if (!matches || !len) {
		unrecognized(ap);
		return 0;
	}
	if (matches > 1)
		return ambiguous(ap, arg, len);
	return apply(ap, found, eq ? eq + 1 : NULL);
}

static int positional(struct argparse *ap, const char *arg)
{
	int err;

	if (ap->npos >= ap->spec->max_positionals) {
		unrecognized(ap);
		return 0;
	}
	err = ap->spec->positional(ap, ap->npos, arg);
	if (!err)
		ap->npos++;
	return err;
}

static int report_unrecognized(struct argparse *ap)
{
	const char *s;
	int i;

	argparse_error(ap, "unrecognized arguments:");
	for (i = 0; i < ap->nunrec; i++) {
		s = ap->argv[ap->unrec[i]];
		fputc(' ', ap->err);
		put_escaped(ap->err, s, strlen(s));
	}
	fputc('\n', ap->err);
	return ARGPARSE_ERR_USAGE;
}

/* One argv entry: "--", a positional, a long or a short option. */
static int walk_one(struct argparse *ap, const char *arg, int *dashdash)
{
	if (!*dashdash && !strcmp(arg, "--")) {
		*dashdash = 1;
		return 0;
	}
	if (*dashdash || !looks_like_option(arg))
		return positional(ap, arg);
	if (arg[1] == '-')
		return parse_long(ap, arg);
	return parse_short(ap, arg);
}

int argparse_parse(const struct argparse_spec *spec, int argc, char **argv,
		   void *ctx, FILE *err)
{
	struct argparse ap = {
		.spec = spec, .ctx = ctx, .err = err, .argc = argc,
		.argv = argv, .next = 1,
	};
	int dashdash = 0, ret = 0;

	/* at most one unrecognized entry per argv entry */
	ap.unrec = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*ap.unrec));
	if (!ap.unrec)
		return -ENOMEM;
	while (ap.next < argc) {
		ret = walk_one(&ap, argv[ap.next++], &dashdash);
		if (ret)
			goto out;
	}
	if (ap.nunrec)
		ret = report_unrecognized(&ap);
out:
	free(ap.unrec);
	return ret;
}
