/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The compiled BPF objects, embedded gzip-compressed so the binary needs
 * no file beside it and stays small (a BPF object is mostly zeros and
 * repeated instructions: 175 KB of it compress to 15): the one for
 * kernels of this binary's architecture and, in a 32-bit ARM build, the
 * one for 64-bit ARM kernels (BPF_OBJ64_GZ_PATH; empty elsewhere).
 * Each is inflated at its first use into room of its own in .bss
 * (BPF_OBJ_SIZE, BPF_OBJ64_SIZE: the sizes before compression), which
 * costs the file nothing, and only the pages written take memory: each
 * is three pieces (the Makefile), and a run inflates the first and the
 * third, around the source lines (BPF_OBJ_LINES_OFF and _LEN); the
 * first is a gzip member per kind of program (BPF_OBJ_PARTS), of which a
 * run inflates those that hold its own.
 * Lengths are .long, section types %progbits and %nobits: both mean
 * the same to the x86, arm64 and 32-bit ARM assemblers (ARM's takes @
 * for a comment, and .quad would be a bignum there).
 */
	.section .rodata
	.balign 8
	.global ext4dist_bpf_obj_gz
	.global ext4dist_bpf_obj_gz_len
	.global ext4dist_bpf_obj_cap
	.global ext4dist_bpf_obj64_gz
	.global ext4dist_bpf_obj64_gz_len
	.global ext4dist_bpf_obj64_cap
	.global ext4dist_bpf_obj_lines
	.global ext4dist_bpf_obj64_lines
	.global ext4dist_bpf_obj_parts
	.global ext4dist_bpf_obj64_parts
ext4dist_bpf_obj_gz:
	.incbin BPF_OBJ_GZ_PATH
ext4dist_bpf_obj_gz_end:
	.balign 8
ext4dist_bpf_obj64_gz:
#ifdef BPF_OBJ64_GZ_PATH
	.incbin BPF_OBJ64_GZ_PATH
#endif
ext4dist_bpf_obj64_gz_end:
	.balign 4
ext4dist_bpf_obj_gz_len:
	.long ext4dist_bpf_obj_gz_end - ext4dist_bpf_obj_gz
ext4dist_bpf_obj64_gz_len:
	.long ext4dist_bpf_obj64_gz_end - ext4dist_bpf_obj64_gz
ext4dist_bpf_obj_cap:
	.long BPF_OBJ_SIZE
ext4dist_bpf_obj64_cap:
#ifdef BPF_OBJ64_SIZE
	.long BPF_OBJ64_SIZE
#else
	.long 0
#endif
/*
 * Where the source lines (.BTF, .BTF.ext) lie, offset and length (0 0:
 * unknown), and the compressed lengths of the first two gzip members
 * (the bytes before the lines, the lines; the third holds the rest).
 */
ext4dist_bpf_obj_lines:
	.long BPF_OBJ_LINES_OFF, BPF_OBJ_LINES_LEN, BPF_OBJ_GZ0, BPF_OBJ_GZ1
ext4dist_bpf_obj64_lines:
#ifdef BPF_OBJ64_LINES_OFF
	.long BPF_OBJ64_LINES_OFF, BPF_OBJ64_LINES_LEN, BPF_OBJ64_GZ0, BPF_OBJ64_GZ1
#else
	.long 0, 0, 0, 0
#endif
/*
 * The first piece's members: the end of each (an offset in the object)
 * and its compressed length, in order, then 0, 0.
 */
ext4dist_bpf_obj_parts:
#ifdef BPF_OBJ_PARTS
	.long BPF_OBJ_PARTS 0, 0
#else
	.long 0, 0
#endif
ext4dist_bpf_obj64_parts:
#ifdef BPF_OBJ64_PARTS
	.long BPF_OBJ64_PARTS 0, 0
#else
	.long 0, 0
#endif

/*
 * Where they are inflated: two names each, read-only and writable.  On a
 * page of their own from the first byte, so that giving a room back
 * (MADV_DONTNEED on its whole pages) leaves no bytes of an earlier
 * inflate at its start where a later one does not write.
 */
	.section .bss,"aw",%nobits
	.balign 4096
	.global ext4dist_bpf_obj
	.global ext4dist_bpf_obj_room
	.global ext4dist_bpf_obj64
	.global ext4dist_bpf_obj64_room
ext4dist_bpf_obj:
ext4dist_bpf_obj_room:
	.skip BPF_OBJ_SIZE
	.balign 4096
ext4dist_bpf_obj64:
ext4dist_bpf_obj64_room:
#ifdef BPF_OBJ64_SIZE
	.skip BPF_OBJ64_SIZE
#endif
	.section .note.GNU-stack,"",%progbits
