// SPDX-License-Identifier: GPL-2.0
#include "tool/bpf_blob.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "loader/kernel/karch.h"
#include "loader/util/errbuf.h"

/* bpf_blob.S: each object gzip-compressed, its size, room to inflate it. */
extern const unsigned char ext4dist_bpf_obj_gz[], ext4dist_bpf_obj64_gz[];
extern const uint32_t ext4dist_bpf_obj_gz_len, ext4dist_bpf_obj64_gz_len;
extern const uint32_t ext4dist_bpf_obj_cap, ext4dist_bpf_obj64_cap;
extern const uint32_t ext4dist_bpf_obj_lines[4], ext4dist_bpf_obj64_lines[4];
extern unsigned char ext4dist_bpf_obj_room[], ext4dist_bpf_obj64_room[];

/* What a room holds. */
enum { NOT_YET, WHOLE, NO_LINES, FAILED };

struct packed {
	const unsigned char *gz;
	const uint32_t *gz_len;
	unsigned char *room;
	const uint32_t *cap;
	/*
	 * Offset and length of .BTF and .BTF.ext, and the compressed
	 * lengths of the gzip members before them and of theirs.
	 */
	const uint32_t *lines;
	int state;
};

static struct packed own = {
	ext4dist_bpf_obj_gz, &ext4dist_bpf_obj_gz_len, ext4dist_bpf_obj_room,
	&ext4dist_bpf_obj_cap, ext4dist_bpf_obj_lines, NOT_YET
};
static struct packed other = {
	ext4dist_bpf_obj64_gz, &ext4dist_bpf_obj64_gz_len,
	ext4dist_bpf_obj64_room, &ext4dist_bpf_obj64_cap,
	ext4dist_bpf_obj64_lines, NOT_YET
};

/*
 * Inflates one gzip member of gz_len bytes into exactly len bytes at out:
 * zlib's Z_STREAM_END, or another answer (Z_MEM_ERROR without memory).
 */
static int inflate_member(const unsigned char *gz, size_t gz_len,
			  unsigned char *out, size_t len)
{
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one. */
	ret = inflateInit2(&z, 16 + MAX_WBITS);
	if (ret != Z_OK)
		return ret;
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)gz_len;
	z.next_out = out;
	z.avail_out = (uInt)len;
	ret = inflate(&z, Z_FINISH);
	/* Exactly len bytes, the stream's end, no input left. */
	if (ret == Z_STREAM_END && (z.total_out != len || z.avail_in))
		ret = Z_DATA_ERROR;
	inflateEnd(&z);
	return ret;
}

/*
 * Inflates p into its room, whole or (lines 0) without the gzip member
 * of its source lines: those bytes are never written, so their pages take
 * no memory and their inflating no time.  Returns its size, 0 when it
 * does not inflate to exactly that, or -ENOMEM when zlib had no memory
 * for its state (tried again next time).
 */
static long inflated(struct packed *p, int lines)
{
	size_t off = p->lines[0], len = p->lines[1];
	size_t gz0 = p->lines[2], gz1 = p->lines[3];
	int ret;

	if (p->state == WHOLE || (p->state == NO_LINES && !lines))
		return (long)*p->cap;
	if (p->state == FAILED)
		return 0;
	if (!len)
		off = *p->cap;
	if (!*p->gz_len || !*p->cap || off > *p->cap || len > *p->cap - off ||
	    gz0 > *p->gz_len || gz1 > *p->gz_len - gz0) {
		p->state = FAILED;
		return 0;
	}
	ret = inflate_member(p->gz, gz0, p->room, off);
	if (ret == Z_STREAM_END && lines)
		ret = inflate_member(p->gz + gz0, gz1, p->room + off, len);
	if (ret == Z_STREAM_END)
		ret = inflate_member(p->gz + gz0 + gz1, *p->gz_len - gz0 - gz1,
				     p->room + off + len, *p->cap - off - len);
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	p->state = ret != Z_STREAM_END ? FAILED : lines ? WHOLE : NO_LINES;
	return p->state != FAILED ? (long)*p->cap : 0;
}

size_t ext4dist_bpf_obj_size(void)
{
	long n = inflated(&own, 1);

	return n > 0 ? (size_t)n : 0;
}

/*
 * The pt_regs layout ext4dist_bpf_obj reads: the Makefile compiles it for
 * the architecture it compiles this file for.
 */
#if defined(__x86_64__)
#define EXT4DIST_BPF_ARCH "x86"
#elif defined(__aarch64__)
#define EXT4DIST_BPF_ARCH "arm64"
#elif defined(__arm__)
#define EXT4DIST_BPF_ARCH "arm"
#else
#error "ext4dist builds for x86_64, arm64 and 32-bit ARM"
#endif

const char *bpf_blob_own_arch(void)
{
	return EXT4DIST_BPF_ARCH;
}

/* b set up over p's object, inflated: 0, -EINVAL or -ENOMEM. */
static int blob_of(struct packed *p, const char *arch, char *data,
		   int lines, struct bpf_blob *b)
{
	long n = inflated(p, lines);

	b->arch = arch;
	b->data = data;
	b->size = n > 0 ? (size_t)n : 0;
	return n > 0 ? 0 : n < 0 ? (int)n : -EINVAL;
}

static int blob_pick(const char *bpf_arch, int lines, struct bpf_blob *b)
{
	if (!bpf_arch)
		return -ENOENT;
	if (strcmp(bpf_arch, EXT4DIST_BPF_ARCH) == 0)
		return blob_of(&own, EXT4DIST_BPF_ARCH,
			       (char *)ext4dist_bpf_obj_room, lines, b);
	if (strcmp(bpf_arch, "arm64") == 0 && ext4dist_bpf_obj64_gz_len)
		return blob_of(&other, "arm64", (char *)ext4dist_bpf_obj64_room,
			       lines, b);
	return -ENOENT;
}

int bpf_blob_for(const char *bpf_arch, struct bpf_blob *b)
{
	return blob_pick(bpf_arch, 1, b);
}

int bpf_blob_for_run(const char *bpf_arch, struct bpf_blob *b)
{
	return blob_pick(bpf_arch, 0, b);
}

/*
 * The whole pages of p's room go back to the kernel (a later read finds
 * them zero-filled, the .bss being private anonymous memory); the two
 * partial pages at its ends stay, inflated again like the rest.
 */
static void release(struct packed *p)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p->room + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p->room + *p->cap) & ~(page - 1);

	if (p->state != WHOLE && p->state != NO_LINES)
		return;
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
	p->state = NOT_YET;
}

void bpf_blob_release(struct bpf_blob *b)
{
	if (b->data == (char *)ext4dist_bpf_obj_room)
		release(&own);
	else if (b->data && b->data == (char *)ext4dist_bpf_obj64_room)
		release(&other);
	b->data = NULL;
	b->size = 0;
}

int bpf_blob_running(struct bpf_blob *b, struct errbuf *eb)
{
	struct karch k;
	int err = karch_running(&k) ? -ENOENT : bpf_blob_for(k.bpf_arch, b);

	if (err && err != -ENOMEM)
		err = bpf_blob_for(bpf_blob_own_arch(), b);
	return bpf_blob_error(err, b, eb);
}

int bpf_blob_error(int err, const struct bpf_blob *b, struct errbuf *eb)
{
	if (err == -ENOMEM)
		return errbuf_set(eb, err,
				  "out of memory: zlib cannot inflate the embedded BPF object");
	if (err)
		return errbuf_set(eb, err,
				  "the embedded BPF object for %s kernels does not inflate to its recorded size (a broken build)",
				  b->arch ? b->arch : bpf_blob_own_arch());
	return 0;
}
