/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data in either byte order: what the kernel writes is in its own (the
 * machine's), but a file may come from the other kind of machine (a
 * big-endian s390x object, BTF or module read on x86, or the reverse).
 * Each reader learns the order from the data's own marker (ELF's
 * EI_DATA, BTF's magic) and reads every field through these.
 */
#ifndef EXT4DIST_LOADER_UTIL_BYTEORDER_H
#define EXT4DIST_LOADER_UTIL_BYTEORDER_H

#include <stdint.h>
#include <string.h>

/* This machine's order: 1 little-endian, 0 big-endian. */
#define HOST_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* v as stored by the other byte order when swapped is set. */
static inline uint16_t bo16(uint16_t v, int swapped)
{
	return swapped ? __builtin_bswap16(v) : v;
}

static inline uint32_t bo32(uint32_t v, int swapped)
{
	return swapped ? __builtin_bswap32(v) : v;
}

static inline uint64_t bo64(uint64_t v, int swapped)
{
	return swapped ? __builtin_bswap64(v) : v;
}

/* The 32-bit word at p (any alignment), in the data's order. */
static inline uint32_t get_bo32(const void *p, int swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return bo32(v, swapped);
}

#endif
