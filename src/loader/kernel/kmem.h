/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copies of kernel memory, as the programs hand them over: words of the
 * kernel's size in its byte order (this machine's for the running kernel,
 * whatever the word size of this binary; another's for a copy taken
 * elsewhere, as the unit tests hold).
 */
#ifndef EXT4DIST_LOADER_KERNEL_KMEM_H
#define EXT4DIST_LOADER_KERNEL_KMEM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "loader/kernel/karch.h"
#include "loader/util/byteorder.h"

/* The word of k's kernel at byte off of a copy. */
static inline unsigned long long kmem_word(const struct karch *k,
					   const void *mem, size_t off)
{
	const unsigned char *p = (const unsigned char *)mem + off;
	int swapped = k->big_endian == HOST_LITTLE_ENDIAN;

	if (k->word == 4) {
		uint32_t v;

		memcpy(&v, p, sizeof(v));
		return bo32(v, swapped);
	} else {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		return bo64(v, swapped);
	}
}

/* Its 64-bit field at byte off (hash_len: 64 bits on every kernel). */
static inline uint64_t kmem_u64(const struct karch *k, const void *mem,
				size_t off)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)mem + off, sizeof(v));
	return bo64(v, k->big_endian == HOST_LITTLE_ENDIAN);
}

/* Whether v could be a pointer of k's kernel: aligned, in its range. */
static inline int kmem_kernel_ptr(const struct karch *k, unsigned long long v)
{
	return v >= k->kaddr_min && v % k->word == 0;
}

#endif
