// SPDX-License-Identifier: GPL-2.0
#include "tool/discover/name_offsets.h"

#include <errno.h>
#include <string.h>

#include "loader/kernel/kmem.h"

unsigned int name_dentry_candidates(const unsigned char *file, size_t len,
				    unsigned long long file_ptr,
				    const struct karch *k, struct name_cand *out,
				    unsigned int max)
{
	unsigned int n = 0, word = k->word;
	size_t off;

	if (word != 8 && word != 4)
		return 0;
	for (off = 0; off + word <= len; off += word) {
		unsigned long long v = kmem_word(k, file, off);

		if (!kmem_kernel_ptr(k, v) ||
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
		    unsigned long long addr, const struct karch *k,
		    const char *name)
{
	size_t nlen = strlen(name), off;
	unsigned int qlen, word = k->word;
	int found = -ENOENT;

	if ((word != 8 && word != 4) || !nlen)
		return -EINVAL;
	/* d_name.name follows the 8-byte hash_len: never before offset 8. */
	for (off = 8; off + word <= len; off += word) {
		unsigned long long v = kmem_word(k, mem, off), p;

		if (v < addr || v - addr >= len)
			continue;
		p = v - addr;
		if (p + nlen >= len || memcmp(mem + p, name, nlen) ||
		    mem[p + nlen])
			continue;
		/* hash_len's upper half, in either byte order. */
		qlen = (unsigned int)(kmem_u64(k, mem, off - 8) >> 32);
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
