// SPDX-License-Identifier: GPL-2.0
/* Exact decimal formatting of wide integers for the output layer. */
#include <errno.h>
#include <string.h>

#include "numfmt.h"

int numfmt_u128(char *buf, size_t len, u128 v)
{
	char tmp[40];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + (unsigned int)(v % 10));
		v /= 10;
	} while (v);
	if (n + 1 > len)
		return -ENOSPC;
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return (int)n;
}

int numfmt_decimal(char *buf, size_t len, u128 v, unsigned int scale,
		   int trim)
{
	u128 div = 1;
	char frac[32];
	unsigned int i, nfrac = scale;
	u128 rem;
	int n;

	if (scale > 30)
		return -EINVAL;
	for (i = 0; i < scale; i++)
		div *= 10;
	n = numfmt_u128(buf, len, v / div);
	if (n < 0 || scale == 0)
		return n;
	rem = v % div;
	for (i = scale; i > 0; i--) {
		frac[i - 1] = (char)('0' + (unsigned int)(rem % 10));
		rem /= 10;
	}
	if (trim)
		while (nfrac > 0 && frac[nfrac - 1] == '0')
			nfrac--;
	if (nfrac == 0)
		return n;
	if ((size_t)n + 1 + nfrac + 1 > len)
		return -ENOSPC;
	buf[n] = '.';
	memcpy(buf + n + 1, frac, nfrac);
	buf[n + 1 + nfrac] = '\0';
	return n + 1 + (int)nfrac;
}

u128 numfmt_total(const unsigned long long *slots, unsigned int n)
{
	u128 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += slots[i];
	return sum;
}
