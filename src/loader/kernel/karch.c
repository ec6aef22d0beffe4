// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/karch.h"

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
int karch_from_machine(const char *machine, struct karch *k)
{
	snprintf(k->machine, sizeof(k->machine), "%s", machine);
	if (strcmp(machine, "x86_64") == 0) {
		k->bpf_arch = "x86";
		k->word = 8;
	} else if (starts(machine, "aarch64") || starts(machine, "armv8")) {
		k->bpf_arch = "arm64";
		k->word = 8;
	} else if (starts(machine, "arm")) {
		k->bpf_arch = "arm";
		k->word = 4;
	} else if (strcmp(machine, "mips") == 0) {
		k->bpf_arch = "mips";
		k->word = 4;
	} else if (strcmp(machine, "s390x") == 0) {
		k->bpf_arch = "s390";
		k->word = 8;
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

unsigned int karch_word(void)
{
	struct karch k;

	return karch_running(&k) ? (unsigned int)sizeof(void *) : k.word;
}
