// SPDX-License-Identifier: GPL-2.0
#include "output/utf8.h"

#include <errno.h>
#include <string.h>

/*
 * The bytes a well-formed sequence may continue with after lead b
 * (Unicode Table 3-7): the second byte's range, and the length.  0 for a
 * byte that cannot start one.
 */
static unsigned int seq_len(unsigned char b, unsigned char *lo,
			    unsigned char *hi)
{
	*lo = 0x80;
	*hi = 0xbf;
	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef) {
		if (b == 0xe0)
			*lo = 0xa0;
		if (b == 0xed)
			*hi = 0x9f;
		return 3;
	}
	if (b >= 0xf0 && b <= 0xf4) {
		if (b == 0xf0)
			*lo = 0x90;
		if (b == 0xf4)
			*hi = 0x8f;
		return 4;
	}
	return 0;
}

static void put(char *dst, size_t size, size_t *o, const char *p, size_t n)
{
	if (*o + n < size) {
		memcpy(dst + *o, p, n);
		*o += n;
	}
}

size_t utf8_clean(const char *src, size_t len, char *dst, size_t size)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, points = 0;

	if (!size)
		return 0;
	while (i < len && s[i]) {
		unsigned char lo, hi;
		unsigned int n = seq_len(s[i], &lo, &hi), k = 1;

		/* The longest prefix that is still a possible sequence. */
		while (n && k < n && i + k < len && s[i + k] >= lo &&
		       s[i + k] <= hi) {
			lo = 0x80;
			hi = 0xbf;
			k++;
		}
		if (n && k == n)
			put(dst, size, &o, (const char *)s + i, n);
		else
			put(dst, size, &o, UTF8_REPLACEMENT, 3);
		i += k;
		points++;
	}
	dst[o] = '\0';
	return points;
}

/* The code point of a control character at p (clean UTF-8), or -1. */
static int control_at(const unsigned char *p)
{
	if (*p < 0x20 || *p == 0x7f)
		return *p;
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return p[1];
	return -1;
}

int utf8_put_field(FILE *f, const char *s, int width, int prec,
		   const char *also)
{
	const unsigned char *p = (const unsigned char *)s;
	int points = 0, c;

	while (*p && (prec < 0 || points < prec)) {
		size_t n = 1;

		/* s is clean: the lead byte gives the length. */
		if (*p >= 0xf0)
			n = 4;
		else if (*p >= 0xe0)
			n = 3;
		else if (*p >= 0xc0)
			n = 2;
		c = control_at(p);
		if (c < 0 && n == 1 && also && strchr(also, *p))
			c = *p;
		if (c >= 0)
			fprintf(f, "\\x%02x", (unsigned int)c);
		else if (*p == '\\')
			fputs("\\\\", f);
		else
			fwrite(p, 1, n, f);
		p += n;
		points++;
	}
	for (; points < width; points++)
		fputc(' ', f);
	return ferror(f) ? -EIO : 0;
}
