// SPDX-License-Identifier: GPL-2.0
#include "tool/bpf_blob.h"

#include <errno.h>
#include <string.h>

/* The second object of a 32-bit ARM build (bpf_blob.S). */
extern const char ext4dist_bpf_obj64[];
extern const uint32_t ext4dist_bpf_obj64_len;

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
		b->size = ext4dist_bpf_obj_len;
		return 0;
	}
	if (strcmp(bpf_arch, "arm64") == 0 && ext4dist_bpf_obj64_len) {
		b->arch = "arm64";
		b->data = ext4dist_bpf_obj64;
		b->size = ext4dist_bpf_obj64_len;
		return 0;
	}
	return -ENOENT;
}
