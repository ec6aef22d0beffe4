// SPDX-License-Identifier: GPL-2.0
#include "tool/name_offsets.h"

#include <errno.h>
#include <string.h>

/* Word i of a copy, little-endian (every architecture ext4dist builds for). */
static unsigned long long word_at(const unsigned char *mem, size_t off,
				  unsigned int word)
{
	unsigned long long v = 0;
	unsigned int b;

	for (b = word; b-- > 0;)
		v = v << 8 | mem[off + b];
	return v;
}

/*
 * The kernel's half of the address space: from 0xff00000000000000 on
 * 64-bit (x86_64 with 5-level paging puts the direct map at 0xff11...,
 * 4-level at 0xffff8880...; arm64 from 0xfff0... or 0xffff...), from
 * 0x3f000000 on 32-bit ARM (the lowest PAGE_OFFSET, a 1G/3G split).
 */
static int kernel_ptr(unsigned long long v, unsigned int word)
{
	unsigned long long kernel_min = word == 8 ? 0xff00000000000000ULL :
						    0x3f000000ULL;

	return v >= kernel_min && v % word == 0;
}

unsigned int name_dentry_candidates(const unsigned char *file, size_t len,
				    unsigned long long file_ptr,
				    unsigned int word, struct name_cand *out,
				    unsigned int max)
{
	unsigned int n = 0;
	size_t off;

	if (word != 8 && word != 4)
		return 0;
	for (off = 0; off + word <= len; off += word) {
		unsigned long long v = word_at(file, off, word);

		if (!kernel_ptr(v, word) ||
		    (v >= file_ptr && v - file_ptr < len))
			continue;
		if (n < max) {
			out[n].off = (unsigned int)off;
			out[n].addr = v;
		}
		n++;
	}
	return n;
}

int name_find_dname(const unsigned char *mem, size_t len,
		    unsigned long long addr, unsigned int word,
		    const char *name)
{
	size_t nlen = strlen(name), off;
	int found = -ENOENT;
	unsigned int qlen;

	if ((word != 8 && word != 4) || !nlen)
		return -EINVAL;
	/* d_name.name follows the 8-byte hash_len: never before offset 8. */
	for (off = 8; off + word <= len; off += word) {
		unsigned long long v = word_at(mem, off, word), p;

		if (v < addr || v - addr >= len)
			continue;
		p = v - addr;
		if (p + nlen >= len || memcmp(mem + p, name, nlen) ||
		    mem[p + nlen])
			continue;
		qlen = (unsigned int)word_at(mem, off - 4, 4);
		if (qlen != nlen)
			continue;
		if (found >= 0)
			return -EEXIST;
		found = (int)off;
	}
	return found;
}

int name_hit_add(struct name_hit *best, unsigned int *nr,
		 const struct name_hit *h)
{
	if (!*nr) {
		*best = *h;
		*nr = 1;
		return 0;
	}
	if (best->addr + (unsigned int)best->dname_off !=
	    h->addr + (unsigned int)h->dname_off)
		return -EEXIST;
	if (h->dname_off < best->dname_off)
		*best = *h;
	(*nr)++;
	return 0;
}
