// SPDX-License-Identifier: GPL-2.0
#include "tool/bpf_blob.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "loader/kernel/karch.h"
#include "loader/util/errbuf.h"

/* bpf_blob.S: each object gzip-compressed, its size, room to inflate it. */
extern const unsigned char ext4dist_bpf_obj_gz[], ext4dist_bpf_obj64_gz[];
extern const uint32_t ext4dist_bpf_obj_gz_len, ext4dist_bpf_obj64_gz_len;
extern const uint32_t ext4dist_bpf_obj_cap, ext4dist_bpf_obj64_cap;
extern unsigned char ext4dist_bpf_obj_room[], ext4dist_bpf_obj64_room[];
/* The second object of a 32-bit ARM build, inflated. */
extern const char ext4dist_bpf_obj64[];

struct packed {
	const unsigned char *gz;
	const uint32_t *gz_len;
	unsigned char *room;
	const uint32_t *cap;
	int state;		/* 0 not yet, 1 inflated, -1 failed */
};

static struct packed own = {
	ext4dist_bpf_obj_gz, &ext4dist_bpf_obj_gz_len, ext4dist_bpf_obj_room,
	&ext4dist_bpf_obj_cap, 0
};
static struct packed other = {
	ext4dist_bpf_obj64_gz, &ext4dist_bpf_obj64_gz_len,
	ext4dist_bpf_obj64_room, &ext4dist_bpf_obj64_cap, 0
};

/*
 * Inflates p once into its room: its size, 0 when it does not fit, or
 * -ENOMEM when zlib had no memory for its state (tried again next time).
 */
static long inflated(struct packed *p)
{
	z_stream z;
	int ret;

	if (p->state)
		return p->state > 0 ? (long)*p->cap : 0;
	if (!*p->gz_len || !*p->cap) {
		p->state = -1;
		return 0;
	}
	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one. */
	ret = inflateInit2(&z, 16 + MAX_WBITS);
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	p->state = -1;
	if (ret != Z_OK)
		return 0;
	z.next_in = (unsigned char *)p->gz;
	z.avail_in = *p->gz_len;
	z.next_out = p->room;
	z.avail_out = *p->cap;
	ret = inflate(&z, Z_FINISH);
	/* Exactly the recorded size, and the stream's end: nothing else. */
	if (ret == Z_STREAM_END && z.total_out == *p->cap)
		p->state = 1;
	inflateEnd(&z);
	if (ret == Z_MEM_ERROR) {
		p->state = 0;
		return -ENOMEM;
	}
	return p->state > 0 ? (long)*p->cap : 0;
}

size_t ext4dist_bpf_obj_size(void)
{
	long n = inflated(&own);

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
#elif defined(__mips__) && _MIPS_SIM == _ABIO32 && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EXT4DIST_BPF_ARCH "mips"
#elif defined(__s390x__)
#define EXT4DIST_BPF_ARCH "s390"
#elif defined(__riscv) && __riscv_xlen == 64
#define EXT4DIST_BPF_ARCH "riscv"
#else
#error "ext4dist builds for x86_64, arm64, 32-bit ARM, 32-bit little-endian MIPS, s390x and riscv64"
#endif

const char *bpf_blob_own_arch(void)
{
	return EXT4DIST_BPF_ARCH;
}

/* b set up over p's object, inflated: 0, -EINVAL or -ENOMEM. */
static int blob_of(struct packed *p, const char *arch, const char *data,
		   struct bpf_blob *b)
{
	long n = inflated(p);

	b->arch = arch;
	b->data = data;
	b->size = n > 0 ? (size_t)n : 0;
	return n > 0 ? 0 : n < 0 ? (int)n : -EINVAL;
}

int bpf_blob_for(const char *bpf_arch, struct bpf_blob *b)
{
	if (!bpf_arch)
		return -ENOENT;
	if (strcmp(bpf_arch, EXT4DIST_BPF_ARCH) == 0)
		return blob_of(&own, EXT4DIST_BPF_ARCH, ext4dist_bpf_obj, b);
	if (strcmp(bpf_arch, "arm64") == 0 && ext4dist_bpf_obj64_gz_len)
		return blob_of(&other, "arm64", ext4dist_bpf_obj64, b);
	return -ENOENT;
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
