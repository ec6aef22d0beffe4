// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dist's BPF side: a kprobe on entry of each traced ext4 function stores
 * a timestamp per thread; the kretprobe computes the latency, finds its log2
 * slot and counts it in the operation's histogram.
 *
 * Written for old kernels (see ../shared/NOTES.md): no global data, no
 * loops, no bpf-to-bpf calls, bpf_probe_read only, legacy "maps" section.
 * Run-time settings (PID filter, time unit, f_op filter) are immediates the
 * loader patches before loading: nothing is generated as source text.
 */
#include "bpf_legacy.h"
#include "ext4dist_abi.h"
#include "log2.h"

/* Thread id % START_SLOTS -> struct start_slot. */
struct legacy_map_def start SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct start_slot),
	.max_entries = START_SLOTS,
};

/* Operation -> struct op_hist; per-CPU where the kernel has it (4.6). */
struct legacy_map_def hist SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_hist),
	.max_entries = NR_OPS,
};

/*
 * Entry: keep only the wanted process, then remember when we started.  A
 * record still in use means a call whose return we never saw: count it.
 */
INLINE int trace_entry(__u32 op)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u32 tid = (__u32)id, key = tid & (START_SLOTS - 1);
	struct start_slot *s;
	struct op_hist *h;

	if (want && (id >> 32) != want)
		return 0;
	s = bpf_map_lookup_elem(&start, &key);
	if (!s)
		return 0;
	if (s->ts) {
		h = bpf_map_lookup_elem(&hist, &op);
		if (h)
			__sync_fetch_and_add(&h->lost, 1);
	}
	s->tid = tid;
	s->ts = bpf_ktime_get_ns();
	return 0;
}

/*
 * Return: other processes are turned away before any map work; a free
 * record, or one of another thread, means the call was not ours to time.
 */
INLINE int trace_return(__u32 op)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u64 factor = PATCHED_CONST(PATCH_FACTOR);
	__u32 tid = (__u32)id, key = tid & (START_SLOTS - 1);
	struct start_slot *s;
	struct op_hist *h;
	__u64 ts, delta, slot;

	if (want && (id >> 32) != want)
		return 0;
	s = bpf_map_lookup_elem(&start, &key);
	if (!s)
		return 0;
	ts = s->ts;
	if (!ts || s->tid != tid)
		return 0;
	s->ts = 0;
	delta = bpf_ktime_get_ns() - ts;

	h = bpf_map_lookup_elem(&hist, &op);
	if (!h)
		return 0;
	slot = log2l_plus1(delta / factor);
	if (slot >= NR_SLOTS)
		slot = NR_SLOTS - 1;
	/*
	 * The 6.1 verifier loses the bound above when clang tests one copy
	 * of slot and indexes with another; a mask it cannot miss, kept
	 * from being optimised away by an empty asm.
	 */
	asm volatile("" : "+r"(slot));
	slot &= NR_SLOTS - 1;
	/* Atomic adds: correct on the plain-array fallback too. */
	__sync_fetch_and_add(&h->slots[slot], 1);
	__sync_fetch_and_add(&h->sum_ns, delta);
	if (delta > h->max_ns)
		h->max_ns = delta;
	return 0;
}

/*
 * Before 4.10 ext4 had no read_iter of its own: reads go through
 * generic_file_read_iter, shared by many file systems, so keep only files
 * whose f_op is ext4_file_operations.  kiocb->ki_filp is the first member
 * of struct kiocb in every kernel; the f_op offset inside struct file is not
 * stable (40 up to 6.7, 16 on 6.12), so the loader patches it in.
 */
INLINE int generic_read_is_ext4(const void *ctx)
{
	const void *iocb = (const void *)REGS_PARM1(ctx);
	const char *filp = 0;
	const void *fop = 0;
	__u64 off = PATCHED_CONST(PATCH_FOP_OFF);

	bpf_probe_read(&filp, sizeof(filp), iocb);
	if (!filp)
		return 0;
	bpf_probe_read(&fop, sizeof(fop), filp + off);
	return (__u64)fop == PATCHED_CONST(PATCH_FOPS);
}

#define ENTRY_RETURN_PAIR(fn, op)					\
SEC("kprobe/" #fn) int entry_##fn(void *ctx)				\
{									\
	(void)ctx;							\
	return trace_entry(op);						\
}									\
SEC("kretprobe/" #fn) int return_##fn(void *ctx)			\
{									\
	(void)ctx;							\
	return trace_return(op);					\
}

ENTRY_RETURN_PAIR(ext4_file_read_iter, OP_READ)
ENTRY_RETURN_PAIR(ext4_file_write_iter, OP_WRITE)
ENTRY_RETURN_PAIR(ext4_file_open, OP_OPEN)
ENTRY_RETURN_PAIR(ext4_sync_file, OP_FSYNC)
ENTRY_RETURN_PAIR(ext4_file_getattr, OP_GETATTR)

SEC("kprobe/generic_file_read_iter") int entry_generic_file_read_iter(void *ctx)
{
	if (!generic_read_is_ext4(ctx))
		return 0;
	return trace_entry(OP_READ);
}

SEC("kretprobe/generic_file_read_iter") int return_generic_file_read_iter(void *ctx)
{
	(void)ctx;
	return trace_return(OP_READ);
}

/*
 * kprobe_multi (5.18+): one link arms every traced function at once, with
 * one pass over the kernel's symbols where each kprobe makes its own (a
 * linear scan on 6.1).  Which operation fired comes from the link's cookie.
 * Loaded only where the kernel takes them; the programs above stay the
 * path for every older kernel.
 */
SEC("kprobe.multi/ext4") int multi_entry(void *ctx)
{
	__u64 op = bpf_get_attach_cookie(ctx);

	if (op >= NR_OPS)
		return 0;
	return trace_entry((__u32)op);
}

SEC("kretprobe.multi/ext4") int multi_return(void *ctx)
{
	__u64 op = bpf_get_attach_cookie(ctx);

	if (op >= NR_OPS)
		return 0;
	return trace_return((__u32)op);
}

/*
 * Asks whether the kernel makes kprobe_multi links at all: the loader
 * offers it for a link it cannot create (attach_multi.c) and unloads it.
 */
SEC("kprobe.multi/probe") int multi_probe(void *ctx)
{
	return 0;
}

/*
 * The same by address, where the loader knows each function's address
 * (from kallsyms, the "syscall/ksym_lookup" program below) and patches it
 * in: bpf_get_func_ip reads the hit's address from the run context, where
 * the cookie is found by a binary search over the link's addresses
 * (make bench, 6.12: about 100 instructions less per program run).
 */
static __always_inline __u32 op_of_ip(__u64 ip)
{
	if (ip == PATCHED_CONST(PATCH_IP_BASE + OP_READ))
		return OP_READ;
	if (ip == PATCHED_CONST(PATCH_IP_BASE + OP_WRITE))
		return OP_WRITE;
	if (ip == PATCHED_CONST(PATCH_IP_BASE + OP_OPEN))
		return OP_OPEN;
	if (ip == PATCHED_CONST(PATCH_IP_BASE + OP_FSYNC))
		return OP_FSYNC;
	if (ip == PATCHED_CONST(PATCH_IP_BASE + OP_GETATTR))
		return OP_GETATTR;
	return NR_OPS;
}

SEC("kprobe.multi/ext4/ip") int multi_entry_ip(void *ctx)
{
	__u32 op = op_of_ip(bpf_get_func_ip(ctx));

	if (op >= NR_OPS)
		return 0;
	return trace_entry(op);
}

SEC("kretprobe.multi/ext4/ip") int multi_return_ip(void *ctx)
{
	__u32 op = op_of_ip(bpf_get_func_ip(ctx));

	if (op >= NR_OPS)
		return 0;
	return trace_return(op);
}

/*
 * f_op offset discovery: ext4_file_open(inode, file) runs with file->f_op
 * already set to &ext4_file_operations (do_dentry_open sets f_op, then
 * calls ->open), so a copy of the start of *file taken here shows where
 * f_op lives.  Only ext4dist's own open is copied.
 */
struct legacy_map_def file_words SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = FILE_SCAN_WORDS * sizeof(__u64),
	.max_entries = 1,
};

SEC("kprobe/ext4_file_open/scan_file") int scan_file(void *ctx)
{
	const void *filp = (const void *)REGS_PARM2(ctx);
	__u64 words[FILE_SCAN_WORDS];
	__u32 key = 0;
	__u64 *dst;

	if ((bpf_get_current_pid_tgid() >> 32) != PATCHED_CONST(PATCH_SELF))
		return 0;
	dst = bpf_map_lookup_elem(&file_words, &key);
	if (!dst)
		return 0;
	/* Via the stack: before 4.15ish probe_read could not write map values. */
	if (bpf_probe_read(words, sizeof(words), filp))
		return 0;
	__builtin_memcpy(dst, words, sizeof(words));
	return 0;
}

/*
 * Addresses for the kprobe_multi links, from the kernel's own kallsyms
 * (5.16+: syscall programs and bpf_kallsyms_lookup_name; kprobe_multi came
 * in 5.18).  Given names, a kprobe_multi link resolves them itself in one
 * pass expanding every kernel symbol (ftrace_lookup_symbols): on 6.12 that
 * pass is 88 % of ext4dist's start-up (make bench), where this lookup is a
 * binary search plus the module's own symbols.  Run once by
 * BPF_PROG_TEST_RUN; never loaded where kprobe_multi is not used.
 */
SEC("syscall/ksym_lookup") int ksym_lookup(struct ksym_lookup_ctx *ctx)
{
	int i, k;

#pragma unroll
	for (i = 0; i < KSYM_LOOKUP_MAX; i++) {
		/* Each name is 8-byte aligned in ctx: copy it a word at a time. */
		const __u64 *src = (const __u64 *)ctx->name[i];
		__u64 name[KSYM_LOOKUP_NAME / 8];
		__u64 addr = 0;
		long err = -2;	/* -ENOENT */

		/* Via the stack: 5.16's helpers take no pointer into ctx. */
#pragma unroll
		for (k = 0; k < KSYM_LOOKUP_NAME / 8; k++)
			name[k] = src[k];
		if (name[0])
			err = bpf_kallsyms_lookup_name((const char *)name,
						       sizeof(name), 0, &addr);
		ctx->addr[i] = err ? 0 : addr;
		ctx->err[i] = err;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
/* Replaced at load time by the running kernel's version code. */
__u32 _version SEC("version") = 0;
