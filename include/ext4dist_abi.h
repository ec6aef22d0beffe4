/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF programs and user space agree on: operation ids, histogram
 * layout, and the placeholder constants the loader patches at load time.
 * Included by bpf/ext4dist.bpf.c (clang -target bpf) and by src/.
 */
#ifndef EXT4DIST_ABI_H
#define EXT4DIST_ABI_H

enum ext4dist_op {
	OP_READ = 0,
	OP_WRITE,
	OP_OPEN,
	OP_FSYNC,
	OP_GETATTR,
	NR_OPS,
};

/*
 * Log2 slots.  Slot s counts latencies v with log2l(v) == s, where
 * log2l(0) == log2l(1) == 1 (BCC's bpf_log2l), so slot 0 stays empty and
 * slot 1 prints as "0 -> 1".  Latencies past 2^62 units land in the last slot.
 */
#define NR_SLOTS 64

/* One per operation in the "hist" map (per-CPU where the kernel has it). */
struct op_hist {
	unsigned long long slots[NR_SLOTS];
	unsigned long long sum_ns;	/* exact sum of latencies, nanoseconds */
	unsigned long long max_ns;	/* largest latency seen, nanoseconds */
	/*
	 * Calls of this operation whose start record was overwritten before
	 * a return probe used it: the return of an earlier call by the same
	 * thread was missed (kretprobe instances exhausted), or another
	 * thread shares the start slot.  Those calls are not in slots[].
	 */
	unsigned long long lost;
};

/*
 * Start records: an array indexed by thread id modulo START_SLOTS (a power
 * of two).  An array lookup is inlined by the verifier; a hash update and
 * delete per call cost about three times the whole rest (make bench).
 */
#define START_SLOTS 32768

struct start_slot {
	unsigned long long ts;		/* entry time, ns; 0 = free */
	unsigned int tid;		/* thread the record belongs to */
	unsigned int pad;
};

/*
 * Placeholders: each is loaded by one 64-bit immediate (ld_imm64) in the
 * programs; the loader finds the value and writes the real one in its
 * place.  Values no compiler would produce on its own.
 */
#define PATCH_TGID	0x7e57000000000001ULL	/* tgid to keep, 0 = all */
#define PATCH_FACTOR	0x7e57000000000002ULL	/* ns per output unit */
#define PATCH_FOPS	0x7e57000000000003ULL	/* &ext4_file_operations */
#define PATCH_FOP_OFF	0x7e57000000000004ULL	/* offsetof(struct file, f_op) */
#define PATCH_SELF	0x7e57000000000005ULL	/* ext4dist's own tgid */
/* Address of each operation's function (kprobe_multi by address), 0 = off */
#define PATCH_IP_BASE	0x7e57000000000010ULL	/* + enum ext4dist_op */

/* The f_op discovery probe copies this many words of a struct file. */
#define FILE_SCAN_WORDS 32

/*
 * The context of the "syscall/ksym_lookup" program (5.16+), in and out of
 * one BPF_PROG_TEST_RUN: names in (NUL-padded, "" = unused), the kernel's
 * kallsyms address of each out, with 0 or -errno per name.
 */
#define KSYM_LOOKUP_MAX 8
#define KSYM_LOOKUP_NAME 64

struct ksym_lookup_ctx {
	char name[KSYM_LOOKUP_MAX][KSYM_LOOKUP_NAME];
	unsigned long long addr[KSYM_LOOKUP_MAX];
	long long err[KSYM_LOOKUP_MAX];
};

#endif
