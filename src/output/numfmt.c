// SPDX-License-Identifier: GPL-2.0
/* Exact decimal formatting of wide integers for the output layer. */
#include <errno.h>
#include <string.h>

#include "numfmt.h"

/* a * b as 128 bits, from 32-bit halves (no wider type needed). */
static u128 mul64x64(unsigned long long a, unsigned long long b)
{
	unsigned long long a0 = a & 0xffffffffULL, a1 = a >> 32;
	unsigned long long b0 = b & 0xffffffffULL, b1 = b >> 32;
	unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
	unsigned long long p11 = a1 * b1, mid;
	u128 r;

	mid = (p00 >> 32) + (p01 & 0xffffffffULL) + (p10 & 0xffffffffULL);
	r.lo = (mid << 32) | (p00 & 0xffffffffULL);
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

u128 u128_mul64(u128 a, unsigned long long b)
{
	u128 r = mul64x64(a.lo, b);

	r.hi += a.hi * b;
	return r;
}

/* Restoring binary long division: slow, exact, and only for output. */
u128 u128_divmod(u128 a, u128 b, u128 *rem)
{
	u128 q = u128_of(0), r = u128_of(0);
	int i;

	for (i = 127; i >= 0; i--) {
		unsigned long long bit = i >= 64 ? a.hi >> (i - 64) & 1 :
				 a.lo >> i & 1;

		r = u128_shl(r, 1);
		r.lo |= bit;
		if (u128_cmp(r, b) >= 0) {
			r = u128_sub(r, b);
			if (i >= 64)
				q.hi |= 1ULL << (i - 64);
			else
				q.lo |= 1ULL << i;
		}
	}
	if (rem)
		*rem = r;
	return q;
}

/* a / d for a small d, by 32-bit limbs; *rem = a % d. */
static u128 div_small(u128 a, unsigned int d, unsigned int *rem)
{
	unsigned long long limb[4] = { a.hi >> 32, a.hi & 0xffffffffULL,
				       a.lo >> 32, a.lo & 0xffffffffULL };
	unsigned long long r = 0;
	unsigned int i;
	u128 q;

	for (i = 0; i < 4; i++) {
		unsigned long long cur = r << 32 | limb[i];

		limb[i] = cur / d;
		r = cur % d;
	}
	q.hi = limb[0] << 32 | limb[1];
	q.lo = limb[2] << 32 | limb[3];
	*rem = (unsigned int)r;
	return q;
}

int numfmt_u128(char *buf, size_t len, u128 v)
{
	char tmp[40];
	size_t n = 0, i;
	unsigned int digit;

	do {
		v = div_small(v, 10, &digit);
		tmp[n++] = (char)('0' + digit);
	} while (!u128_is_zero(v));
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
	u128 div = u128_of(1), rem;
	char frac[32];
	unsigned int i, nfrac = scale, digit;
	int n;

	if (scale > 30)
		return -EINVAL;
	for (i = 0; i < scale; i++)
		div = u128_mul64(div, 10);
	n = numfmt_u128(buf, len, u128_divmod(v, div, &rem));
	if (n < 0 || scale == 0)
		return n;
	for (i = scale; i > 0; i--) {
		rem = div_small(rem, 10, &digit);
		frac[i - 1] = (char)('0' + digit);
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
	u128 sum = u128_of(0);
	unsigned int i;

	for (i = 0; i < n; i++)
		sum = u128_add64(sum, slots[i]);
	return sum;
}
