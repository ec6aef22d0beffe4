// SPDX-License-Identifier: GPL-2.0
/*
 * A library compiled against glibc 2.38 or later calls strtol by its C23
 * name, __isoc23_strtol (C23 reads a "0b" prefix for base 0 and 2).  The
 * cross C library of an older release lacks it: riscv64's libelf comes
 * from a newer Debian than its compiler (tools/sysroot.sh).  Linked into
 * every static binary as an object; unused, --gc-sections drops it, and
 * with a C library that has it nothing is defined here.
 */
#include <features.h>

#if defined(__GLIBC__) && !__GLIBC_PREREQ(2, 38)
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

/* The C library's own name, which libelf.a calls: reserved on purpose. */
long __isoc23_strtol(const char *nptr, char **endptr, int base); /* NOLINT(bugprone-reserved-identifier) */

long __isoc23_strtol(const char *nptr, char **endptr, int base) /* NOLINT(bugprone-reserved-identifier) */
{
	const char *s = nptr;
	unsigned long v;
	char *end;
	int neg = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!((base == 0 || base == 2) && s[0] == '0' &&
	      (s[1] == 'b' || s[1] == 'B') && (s[2] == '0' || s[2] == '1')))
		return strtol(nptr, endptr, base);
	v = strtoul(s + 2, &end, 2);
	if (endptr)
		*endptr = end;
	if (neg) {
		if (v > (unsigned long)LONG_MAX + 1) {
			errno = ERANGE;
			return LONG_MIN;
		}
		return v ? -(long)(v - 1) - 1 : 0;
	}
	if (v > LONG_MAX) {
		errno = ERANGE;
		return LONG_MAX;
	}
	return (long)v;
}
#endif
