/* SPDX-License-Identifier: GPL-2.0 */
/* The compiled BPF object, embedded so the binary needs no file beside it. */
	.section .rodata
	.balign 8
	.global ext4dist_bpf_obj
	.global ext4dist_bpf_obj_len
ext4dist_bpf_obj:
	.incbin BPF_OBJ_PATH
ext4dist_bpf_obj_end:
	.balign 8
ext4dist_bpf_obj_len:
	.quad ext4dist_bpf_obj_end - ext4dist_bpf_obj
	.section .note.GNU-stack,"",@progbits
