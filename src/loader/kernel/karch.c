// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/karch.h"
#include "loader/util/byteorder.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/*
 * uname's machine is the kernel's, whatever the caller's word size: a
 * 64-bit ARM kernel says "aarch64" to 32-bit programs too, and "armv8l"
 * under the PER_LINUX32 personality (linux32, setarch: its
 * COMPAT_UTS_MACHINE).  A 32-bit ARM kernel names the CPU's architecture
 * version as its processor table has it: "armv7l" on ARMv7 and on ARMv8
 * cores alike (arch/arm/mm/proc-v7.S), "armv6l", "armv5tel".  A 32-bit
 * MIPS kernel says "mips" in either byte order, a 64-bit one "mips64"
 * (whose pt_regs has no argument save space: no object here is for it).
 */
/*
 * Where the kernel's memory starts: in the upper half on 64-bit x86, ARM
 * and RISC-V (x86_64's direct map from 0xff11... with 5-level paging,
 * riscv64's from 0xff60... with sv57), from 0x3f000000 on 32-bit ARM and
 * MIPS (the lowest PAGE_OFFSET, a 1G/3G split; MIPS's KSEG0 is at
 * 0x80000000).  s390x gives the kernel an address space of its own: its
 * memory starts near 0 (the identity map, modules below 4 TiB), and only
 * small numbers are ruled out.
 */
#define KADDR_UPPER_HALF	0xff00000000000000ULL
#define KADDR_32BIT		0x3f000000ULL
#define KADDR_S390X		0x10000ULL

int karch_from_machine(const char *machine, struct karch *k)
{
	snprintf(k->machine, sizeof(k->machine), "%s", machine);
	k->kaddr_min = KADDR_UPPER_HALF;
	k->big_endian = !HOST_LITTLE_ENDIAN;
	if (strcmp(machine, "x86_64") == 0) {
		k->bpf_arch = "x86";
		k->word = 8;
	} else if (starts(machine, "aarch64") || starts(machine, "armv8")) {
		k->bpf_arch = "arm64";
		k->word = 8;
	} else if (starts(machine, "arm")) {
		k->bpf_arch = "arm";
		k->word = 4;
		k->kaddr_min = KADDR_32BIT;
	} else if (strcmp(machine, "mips") == 0) {
		k->bpf_arch = "mips";
		k->word = 4;
		k->kaddr_min = KADDR_32BIT;
	} else if (strcmp(machine, "s390x") == 0) {
		k->bpf_arch = "s390";
		k->word = 8;
		k->kaddr_min = KADDR_S390X;
		k->big_endian = 1;
	} else if (strcmp(machine, "riscv64") == 0) {
		k->bpf_arch = "riscv";
		k->word = 8;
	} else {
		k->bpf_arch = NULL;
		k->word = 0;
		return -ENOENT;
	}
	return 0;
}

int karch_running(struct karch *k)
{
	static struct karch cached;
	static int err = 1;
	struct utsname u;

	if (err > 0) {
		if (uname(&u)) {
			err = -errno;
			snprintf(cached.machine, sizeof(cached.machine), "?");
		} else {
			err = karch_from_machine(u.machine, &cached);
		}
	}
	*k = cached;
	return err;
}

void karch_or_own(struct karch *k)
{
	if (karch_running(k)) {
		k->word = (unsigned int)sizeof(void *);
		k->kaddr_min = k->word == 4 ? KADDR_32BIT : KADDR_UPPER_HALF;
		k->big_endian = !HOST_LITTLE_ENDIAN;
	}
}

unsigned int karch_word(void)
{
	struct karch k;

	karch_or_own(&k);
	return k.word;
}
