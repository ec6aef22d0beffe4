/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF object compiled from bpf/ext4dist.bpf.c, linked into the binary. */
#ifndef EXT4DIST_TOOL_BPF_BLOB_H
#define EXT4DIST_TOOL_BPF_BLOB_H

#include <stddef.h>
#include <stdint.h>

extern const char ext4dist_bpf_obj[];
/* Its size, computed by the assembler (bpf_blob.S). */
extern const uint64_t ext4dist_bpf_obj_len;

static inline size_t ext4dist_bpf_obj_size(void)
{
	return (size_t)ext4dist_bpf_obj_len;
}

#endif
