/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running kernel's architecture, which need not be this binary's: a
 * 32-bit ARM program runs on 64-bit ARM kernels too (compat), where the
 * BPF programs see 64-bit pt_regs and kernel pointers are 8 bytes.
 */
#ifndef EXT4DIST_LOADER_KERNEL_KARCH_H
#define EXT4DIST_LOADER_KERNEL_KARCH_H

#include <stddef.h>

struct karch {
	char machine[65];	/* uname's machine, "aarch64", "armv7l" */
	/* pt_regs layout: "x86", "arm64", "arm", "mips", "s390", "riscv" */
	const char *bpf_arch;
	unsigned int word;	/* bytes in a kernel pointer: 4 or 8 */
	/*
	 * The lowest address of the kernel's own memory (its image,
	 * modules, direct map): where a word of kernel memory may point.
	 */
	unsigned long long kaddr_min;
	int big_endian;		/* s390x; this machine's order for "mips" */
};

/*
 * The kernel of a uname machine string: -ENOENT for one ext4dist knows
 * no pt_regs layout of.
 */
int karch_from_machine(const char *machine, struct karch *k);

/* The running kernel's (uname(2), asked once). */
int karch_running(struct karch *k);

/*
 * The running kernel's; where uname cannot say, this binary's word size
 * and the usual kaddr_min for it.
 */
void karch_or_own(struct karch *k);

/* The running kernel's pointer size; this binary's when unknown. */
unsigned int karch_word(void);

#endif
