/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DIST_LOADER_UTIL_ILOG2_H
#define EXT4DIST_LOADER_UTIL_ILOG2_H

/* Index of the highest set bit of v; 0 for 0 and 1. */
static inline unsigned int ilog2_ull(unsigned long long v)
{
	unsigned int k = 0;

	while (v >>= 1)
		k++;
	return k;
}

#endif
