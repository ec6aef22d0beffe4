// SPDX-License-Identifier: GPL-2.0
/*
 * The file name discovery's search (tool/discover/name_offsets.c) against memory
 * images: struct file and struct dentry laid out as the kernels of make
 * check lay them out, and images captured in the VM with ext4slower -vvv
 * (tests/unit/fixtures/peek_*.txt: "peek ADDR: HEX" lines, the first the
 * struct file; scenario_slower_names prints them).  The images are of
 * little-endian kernels, but s390x's, big-endian; each is read in its
 * kernel's order on either kind of machine.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "tool/discover/name_offsets.h"
#include "test.h"

#define NAME "memfd:ext4dist.4242"

struct image {
	unsigned long long addr;
	unsigned char mem[PEEK_BYTES];
};

/* The byte order put_word() writes: little-endian unless a test says. */
static int image_big_endian;

static void put_word(unsigned char *mem, unsigned int off, unsigned int word,
		     unsigned long long v)
{
	unsigned int b;

	for (b = 0; b < word; b++)
		mem[off + (image_big_endian ? word - 1 - b : b)] =
			(unsigned char)(v >> (8 * b));
}

/* A kernel of word-byte pointers: x86_64's (8) or 32-bit ARM's (4). */
static struct karch kernel_of(unsigned int word)
{
	struct karch k;

	karch_from_machine(word == 4 ? "armv7l" : "x86_64", &k);
	k.big_endian = 0;
	return k;
}

/*
 * A struct dentry at addr whose d_name (hash_len, then name) starts at
 * qstr and whose inline name is at iname.
 */
static void make_dentry(struct image *d, unsigned long long addr,
			unsigned int word, unsigned int qstr,
			unsigned int iname, const char *name,
			unsigned int len_field)
{
	memset(d, 0, sizeof(*d));
	d->addr = addr;
	put_word(d->mem, 0, 4, 0x00200088);	/* d_flags */
	put_word(d->mem, qstr - 2 * word, word, addr - 0x4000);	/* d_parent */
	/* hash_len: the length in its upper half. */
	put_word(d->mem, qstr, 8, (unsigned long long)len_field << 32 | 0x9e3779b9);
	put_word(d->mem, qstr + 8, word, addr + iname);
	put_word(d->mem, qstr + 8 + word, word, addr + 0x10000);	/* d_inode */
	memcpy(d->mem + iname, name, strlen(name) + 1);
}

/* What name_discover.c does with the copies: one dentry, or why not. */
static int search(const struct image *file, const struct image *others,
		  unsigned int nr_others, const struct karch *k,
		  int *dentry_off, int *dname_off)
{
	struct name_cand cand[64];
	struct name_hit best = { 0 };
	unsigned int n, i, j, hits = 0;

	n = name_dentry_candidates(file->mem, PEEK_BYTES, file->addr, k,
				   cand, 64);
	for (i = 0; i < n && i < 64; i++) {
		for (j = 0; j < nr_others; j++) {
			struct name_hit hit;
			int off;

			if (others[j].addr != cand[i].addr)
				continue;
			off = name_find_dname(others[j].mem, PEEK_BYTES,
					      others[j].addr, k, NAME);
			if (off < 0)
				continue;
			hit.file_off = cand[i].off;
			hit.addr = cand[i].addr;
			hit.dname_off = off;
			if (name_hit_add(&best, &hits, &hit))
				return -EEXIST;
		}
	}
	if (!hits)
		return -ENOENT;
	*dentry_off = (int)best.file_off;
	*dname_off = best.dname_off;
	return 0;
}

/*
 * struct file of x86_64 4.9 to 6.1: f_u (16), f_path {mnt, dentry} at
 * 16, f_inode 32, f_op 40; dentry: d_name at 32 (name 40), d_iname 56.
 */
static void test_x86_64_4_9_to_6_1(void)
{
	const struct karch k64 = kernel_of(8);
	static struct image file, others[4];
	unsigned long long fp = 0xffff88800a1b2c00ULL;
	int doff = -1, noff = -1;

	memset(&file, 0, sizeof(file));
	file.addr = fp;
	put_word(file.mem, 16, 8, 0xffff888003a4d0a0ULL);	/* mnt */
	put_word(file.mem, 24, 8, 0xffff888004c5e0c0ULL);	/* dentry */
	put_word(file.mem, 32, 8, 0xffff888005000000ULL);	/* f_inode */
	put_word(file.mem, 40, 8, 0xffffffff82212340ULL);	/* f_op */
	put_word(file.mem, 48, 8, 0x0000000300000000ULL);	/* lock, mode */
	put_word(file.mem, 56, 8, 1);				/* f_count */
	put_word(file.mem, 96, 8, fp + 96);			/* a list head */
	put_word(file.mem, 104, 8, fp + 96);
	make_dentry(&others[0], 0xffff888004c5e0c0ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	/* The mount: its root dentry has another name. */
	make_dentry(&others[1], 0xffff888003a4d0a0ULL, 8, 32, 56, "/", 1);
	memset(&others[2], 0x5a, sizeof(others[2]));
	others[2].addr = 0xffff888005000000ULL;
	check_int("4.9-6.1: found", search(&file, others, 3, &k64, &doff, &noff),
		  0);
	check_int("4.9-6.1: f_path.dentry", doff, 24);
	check_int("4.9-6.1: d_name.name", noff, 40);
	check_int("4.9-6.1: candidates (list heads into the file left out)",
		  name_dentry_candidates(file.mem, PEEK_BYTES, fp, &k64,
					 NULL, 0), 4);
}

/*
 * 6.12 reordered struct file: f_ref, f_lock, f_mode, f_op 16, f_mapping,
 * private_data, f_inode 40, flags, f_cred 56, f_path at 64.
 */
static void test_x86_64_6_12(void)
{
	const struct karch k64 = kernel_of(8);
	static struct image file, others[3];
	unsigned long long fp = 0xffff9e3c41d7e300ULL;
	int doff = -1, noff = -1;

	memset(&file, 0, sizeof(file));
	file.addr = fp;
	put_word(file.mem, 0, 8, 1);
	put_word(file.mem, 16, 8, 0xffffffffa1e2b340ULL);	/* f_op */
	put_word(file.mem, 24, 8, 0xffff9e3c4a2b0e10ULL);	/* f_mapping */
	put_word(file.mem, 40, 8, 0xffff9e3c4a2b0c88ULL);	/* f_inode */
	put_word(file.mem, 56, 8, 0xffff9e3c40a1f240ULL);	/* f_cred */
	put_word(file.mem, 64, 8, 0xffff9e3c4002ba20ULL);	/* mnt */
	put_word(file.mem, 72, 8, 0xffff9e3c4b7d9240ULL);	/* dentry */
	make_dentry(&others[0], 0xffff9e3c4b7d9240ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	/* Our name in another object, but its length field disagrees. */
	make_dentry(&others[1], 0xffff9e3c4a2b0c88ULL, 8, 32, 56, NAME, 7);
	check_int("6.12: found", search(&file, others, 2, &k64, &doff, &noff), 0);
	check_int("6.12: f_path.dentry", doff, 72);
	check_int("6.12: d_name.name", noff, 40);
}

/*
 * 32-bit ARM: 4-byte pointers from 0xc0000000; f_path at 8 (dentry 12);
 * dentry: d_parent 16, d_name at 24 (8-byte hash_len, name at 32).
 */
static void test_arm32(void)
{
	const struct karch k32 = kernel_of(4);
	static struct image file, others[2];
	unsigned long long fp = 0xc35a1e40ULL;
	int doff = -1, noff = -1;

	memset(&file, 0, sizeof(file));
	file.addr = fp;
	put_word(file.mem, 8, 4, 0xc2061b90ULL);	/* mnt */
	put_word(file.mem, 12, 4, 0xc3f0a2c8ULL);	/* dentry */
	put_word(file.mem, 16, 4, 0xc3e81570ULL);	/* f_inode */
	put_word(file.mem, 20, 4, 0xc0b2f0c4ULL);	/* f_op */
	make_dentry(&others[0], 0xc3f0a2c8ULL, 4, 24, 40, NAME,
		    (unsigned int)strlen(NAME));
	check_int("arm32: found", search(&file, others, 1, &k32, &doff, &noff),
		  0);
	check_int("arm32: f_path.dentry", doff, 12);
	check_int("arm32: d_name.name", noff, 32);
}

/*
 * 6.1 in the test VM, 5-level paging: the direct map at 0xff3d..., below
 * the 0xffff... of 4-level kernels (struct file as the VM showed it).
 */
static void test_x86_64_la57(void)
{
	const struct karch k64 = kernel_of(8);
	static struct image file, others[2];
	unsigned long long fp = 0xff3d803bdaf72e00ULL;
	int doff = -1, noff = -1;

	memset(&file, 0, sizeof(file));
	file.addr = fp;
	put_word(file.mem, 16, 8, 0xff3d803bdb108660ULL);	/* mnt */
	put_word(file.mem, 24, 8, 0xff3d803bc1d92840ULL);	/* dentry */
	put_word(file.mem, 32, 8, 0xff3d803bc25b46b0ULL);	/* f_inode */
	put_word(file.mem, 40, 8, 0xffffffffb243a580ULL);	/* f_op */
	make_dentry(&others[0], 0xff3d803bc1d92840ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	check_int("5-level paging: found",
		  search(&file, others, 1, &k64, &doff, &noff), 0);
	check_int("5-level paging: f_path.dentry", doff, 24);
	check_int("5-level paging: d_name.name", noff, 40);
}

/*
 * s390x 6.1: the same layout as x86_64's, big-endian, and the kernel's
 * memory low in its own address space (the identity map, modules below
 * 4 TiB): read as an x86_64 kernel's, no word would be a pointer.
 */
static void test_s390x(void)
{
	static struct image file, others[2];
	unsigned long long fp = 0x0000000003a1b200ULL;
	struct karch ks, kx = kernel_of(8);
	int doff = -1, noff = -1;

	karch_from_machine("s390x", &ks);
	image_big_endian = 1;
	memset(&file, 0, sizeof(file));
	file.addr = fp;
	put_word(file.mem, 16, 8, 0x0000000002f04a00ULL);	/* mnt */
	put_word(file.mem, 24, 8, 0x0000000004c5e0c0ULL);	/* dentry */
	put_word(file.mem, 32, 8, 0x0000000005000000ULL);	/* f_inode */
	put_word(file.mem, 40, 8, 0x000003ff80123450ULL);	/* f_op */
	put_word(file.mem, 56, 8, 1);				/* f_count */
	make_dentry(&others[0], 0x0000000004c5e0c0ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	make_dentry(&others[1], 0x0000000002f04a00ULL, 8, 32, 56, "/", 1);
	image_big_endian = 0;
	check_int("s390x: found", search(&file, others, 2, &ks, &doff, &noff), 0);
	check_int("s390x: f_path.dentry", doff, 24);
	check_int("s390x: d_name.name", noff, 40);
	check_int("s390x: mnt, dentry, f_inode and f_op are candidates, 1 is not",
		  name_dentry_candidates(file.mem, PEEK_BYTES, fp, &ks, NULL, 0), 4);
	check_int("s390x's memory read as an x86_64 kernel's: no candidate",
		  name_dentry_candidates(file.mem, PEEK_BYTES, fp, &kx, NULL, 0), 0);
	/* Its big-endian hash_len read as little-endian: not our length. */
	ks.big_endian = 0;
	ks.kaddr_min = 0;
	check_int("s390x's dentry read little-endian: not ours",
		  name_find_dname(others[0].mem, PEEK_BYTES, others[0].addr, &ks,
				  NAME), -ENOENT);
}

static void test_refusals(void)
{
	const struct karch k64 = kernel_of(8);
	struct karch k2 = k64;
	static struct image file, others[2];
	unsigned long long fp = 0xffff88800a1b2c00ULL;
	int doff = -1, noff = -1;

	memset(&file, 0, sizeof(file));
	file.addr = fp;
	put_word(file.mem, 24, 8, 0xffff888004c5e0c0ULL);
	put_word(file.mem, 32, 8, 0xffff888004c5f000ULL);
	/* An external name: the pointer leads out of the copy. */
	make_dentry(&others[0], 0xffff888004c5e0c0ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	put_word(others[0].mem, 40, 8, 0xffff888077770000ULL);
	check_int("external name: not found",
		  search(&file, others, 1, &k64, &doff, &noff), -ENOENT);
	/* Two objects both lead to the name: no guess. */
	make_dentry(&others[0], 0xffff888004c5e0c0ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	make_dentry(&others[1], 0xffff888004c5f000ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	check_int("two dentries: ambiguous",
		  search(&file, others, 2, &k64, &doff, &noff), -EEXIST);
	/*
	 * One dentry reached twice: a word pointing 64 bytes before it (an
	 * object beside it in the slab page) sees its d_name at 64 + 40.
	 * The dentry itself is kept, whichever word comes first.
	 */
	make_dentry(&others[0], 0xffff888004c5e0c0ULL, 8, 32, 56, NAME,
		    (unsigned int)strlen(NAME));
	memset(&others[1], 0, sizeof(others[1]));
	others[1].addr = 0xffff888004c5e0c0ULL - 64;
	memcpy(others[1].mem + 64, others[0].mem, PEEK_BYTES - 64);
	put_word(file.mem, 32, 8, others[1].addr);
	doff = noff = -1;
	check_int("dentry and memory before it: found",
		  search(&file, others, 2, &k64, &doff, &noff), 0);
	check_int("dentry and memory before it: f_path.dentry", doff, 24);
	check_int("dentry and memory before it: d_name.name", noff, 40);
	put_word(file.mem, 24, 8, others[1].addr);
	put_word(file.mem, 32, 8, others[0].addr);
	doff = noff = -1;
	check_int("memory before the dentry first: found",
		  search(&file, others, 2, &k64, &doff, &noff), 0);
	check_int("memory before the dentry first: f_path.dentry", doff, 32);
	check_int("memory before the dentry first: d_name.name", noff, 40);
	put_word(file.mem, 24, 8, 0xffff888004c5e0c0ULL);
	put_word(file.mem, 32, 8, 0xffff888004c5f000ULL);
	/* A name that runs to the end of the copy without its NUL. */
	memset(&others[0], 0, sizeof(others[0]));
	others[0].addr = 0x1000ULL << 52;
	put_word(others[0].mem, 32, 8, (unsigned long long)strlen(NAME) << 32);
	put_word(others[0].mem, 40, 8,
		 others[0].addr + PEEK_BYTES - strlen(NAME));
	memcpy(others[0].mem + PEEK_BYTES - strlen(NAME), NAME, strlen(NAME));
	check_int("unterminated name at the end of the copy",
		  name_find_dname(others[0].mem, PEEK_BYTES, others[0].addr,
				  &k64, NAME), -ENOENT);
	k2.word = 2;
	check_int("bad word size", name_find_dname(others[0].mem, PEEK_BYTES,
						   0, &k2, NAME), -EINVAL);
	check_int("no candidate in a zeroed file",
		  name_dentry_candidates(others[1].mem, 0, 0, &k64, NULL, 0), 0);
}

/* "peek 0xADDR: HEX" lines into images; the first is the struct file. */
static unsigned int load_capture(const char *path, struct image *img,
				 unsigned int max, unsigned int *word,
				 int *big_endian, char *name, size_t name_len,
				 int *want_d, int *want_n)
{
	char *text = test_read_file(path, NULL), *line, *save = NULL;
	unsigned int n = 0, i;

	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *hex = strstr(line, ": ");
		unsigned long long addr;

		if (sscanf(line, "# word %u name %63s dentry %d dname %d", word,
			   name, want_d, want_n) == 4) {
			name[name_len - 1] = '\0';
			*big_endian = strstr(line, " big-endian") != NULL;
			continue;
		}
		if (n >= max || sscanf(line, "peek 0x%llx:", &addr) != 1 || !hex ||
		    strlen(hex + 2) < 2 * PEEK_BYTES)
			continue;
		img[n].addr = addr;
		for (i = 0; i < PEEK_BYTES; i++) {
			unsigned int b;

			sscanf(hex + 2 + 2 * i, "%2x", &b);
			img[n].mem[i] = (unsigned char)b;
		}
		n++;
	}
	free(text);
	return n;
}

static void check_capture(const char *file, const char *label)
{
	static struct image img[65];
	struct name_cand cand[64];
	char name[64] = "", what[160];
	struct name_hit best = { 0 };
	unsigned int n, word = 8, i, k, c, hits = 0, ambiguous = 0;
	int want_d = -1, want_n = -1, doff, noff, big_endian = 0;
	struct karch ka;

	n = load_capture(file, img, 65, &word, &big_endian, name, sizeof(name),
			 &want_d, &want_n);
	snprintf(what, sizeof(what), "%s: images loaded", label);
	if (!CHECK(n > 1 && name[0], what))
		return;
	ka = kernel_of(word);
	ka.big_endian = big_endian;
	if (big_endian)		/* s390x: its memory starts low */
		karch_from_machine("s390x", &ka);
	c = name_dentry_candidates(img[0].mem, PEEK_BYTES, img[0].addr, &ka,
				   cand, 64);
	for (i = 0; i < c && i < 64; i++)
		for (k = 1; k < n; k++) {
			struct name_hit hit;
			int off;

			if (img[k].addr != cand[i].addr)
				continue;
			off = name_find_dname(img[k].mem, PEEK_BYTES,
					      img[k].addr, &ka, name);
			if (off < 0)
				continue;
			hit.file_off = cand[i].off;
			hit.addr = cand[i].addr;
			hit.dname_off = off;
			if (name_hit_add(&best, &hits, &hit))
				ambiguous++;
		}
	snprintf(what, sizeof(what), "%s: one dentry", label);
	check_int(what, ambiguous, 0);
	doff = hits ? (int)best.file_off : -1;
	noff = hits ? best.dname_off : -1;
	snprintf(what, sizeof(what), "%s: f_path.dentry", label);
	check_int(what, doff, want_d);
	snprintf(what, sizeof(what), "%s: d_name.name", label);
	check_int(what, noff, want_n);
}

/*
 * Peeks captured by ext4slower -vvv in the VM; 4.9's and 4.19's stand for
 * those kernels' struct file now that their images are not booted.
 */
static void test_captured(void)
{
	static const char *const kernels[] = {
		"4.9", "4.19", "6.1", "6.12", "armhf-6.1",
		/* two words of struct file reach our d_name */
		"armhf-6.1-two-bases",
	};
	unsigned int i;

	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		char path[512], label[64];

		snprintf(path, sizeof(path), TEST_FIXTURES "peek_%s.txt",
			 kernels[i]);
		snprintf(label, sizeof(label), "captured on %s", kernels[i]);
		check_capture(path, label);
	}
}

static const struct test_case test_cases[] = {
	TEST_CASE(x86_64_4_9_to_6_1),
	TEST_CASE(x86_64_6_12),
	TEST_CASE(arm32),
	TEST_CASE(x86_64_la57),
	TEST_CASE(s390x),
	TEST_CASE(refusals),
	TEST_CASE(captured),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
