/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiled BPF objects, embedded so the binary needs no file beside
 * it: the one for kernels of this binary's architecture and, in a 32-bit
 * ARM build, the one for 64-bit ARM kernels (BPF_OBJ64_PATH; empty
 * elsewhere).  Lengths are .long, section types %progbits: both mean the
 * same to the x86, arm64 and 32-bit ARM assemblers (ARM's takes @ for a
 * comment, and .quad would be a bignum there).
 */
	.section .rodata
	.balign 8
	.global ext4dist_bpf_obj
	.global ext4dist_bpf_obj_len
	.global ext4dist_bpf_obj64
	.global ext4dist_bpf_obj64_len
ext4dist_bpf_obj:
	.incbin BPF_OBJ_PATH
ext4dist_bpf_obj_end:
	.balign 8
ext4dist_bpf_obj64:
#ifdef BPF_OBJ64_PATH
	.incbin BPF_OBJ64_PATH
#endif
ext4dist_bpf_obj64_end:
	.balign 4
ext4dist_bpf_obj_len:
	.long ext4dist_bpf_obj_end - ext4dist_bpf_obj
ext4dist_bpf_obj64_len:
	.long ext4dist_bpf_obj64_end - ext4dist_bpf_obj64
	.section .note.GNU-stack,"",%progbits
