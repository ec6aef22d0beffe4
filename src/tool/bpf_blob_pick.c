// SPDX-License-Identifier: GPL-2.0
#include "tool/bpf_blob.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "loader/kernel/karch.h"

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

/* Inflates p once into its room: its size, or 0 when it does not fit. */
static size_t inflated(struct packed *p)
{
	z_stream z;
	int ret;

	if (p->state)
		return p->state > 0 ? *p->cap : 0;
	p->state = -1;
	if (!*p->gz_len || !*p->cap)
		return 0;
	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
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
	return p->state > 0 ? *p->cap : 0;
}

size_t ext4dist_bpf_obj_size(void)
{
	return inflated(&own);
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

int bpf_blob_for(const char *bpf_arch, struct bpf_blob *b)
{
	if (!bpf_arch)
		return -ENOENT;
	if (strcmp(bpf_arch, EXT4DIST_BPF_ARCH) == 0) {
		b->arch = EXT4DIST_BPF_ARCH;
		b->data = ext4dist_bpf_obj;
		b->size = inflated(&own);
		return b->size ? 0 : -EINVAL;
	}
	if (strcmp(bpf_arch, "arm64") == 0 && ext4dist_bpf_obj64_gz_len) {
		b->arch = "arm64";
		b->data = ext4dist_bpf_obj64;
		b->size = inflated(&other);
		return b->size ? 0 : -EINVAL;
	}
	return -ENOENT;
}

void bpf_blob_running(struct bpf_blob *b)
{
	struct karch k;

	if (karch_running(&k) || bpf_blob_for(k.bpf_arch, b))
		bpf_blob_for(bpf_blob_own_arch(), b);
}
