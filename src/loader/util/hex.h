/* SPDX-License-Identifier: GPL-2.0 */
/* The value of one hexadecimal digit, shared by the parsers. */
#ifndef EXT4DIST_LOADER_UTIL_HEX_H
#define EXT4DIST_LOADER_UTIL_HEX_H

/* 0-15 for [0-9a-fA-F], -1 for anything else (no locale involved). */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
