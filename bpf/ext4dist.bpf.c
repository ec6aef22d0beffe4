// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dist's BPF side: a kprobe on entry of each traced ext4 function
 * counts the call and keeps its start time per thread; the kretprobe
 * computes the latency, finds its log2 slot and counts it in the
 * operation's histogram, or counts why it cannot.
 *
 * Written for old kernels (4.9 onward): no global data, no
 * loops, no bpf-to-bpf calls, bpf_probe_read only, legacy "maps" section.
 * Run-time settings (PID filter, time unit, f_op filter) are immediates the
 * loader patches before loading: nothing is generated as source text.
 */
#include "bpf_legacy.h"
#include "ext4dist_abi.h"
#include "log2.h"

/* Thread id % START_SLOTS -> one start record per operation. */
struct legacy_map_def start SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct start_slot),
	.max_entries = START_SLOTS,
};

/* Operation -> struct op_calls; per-CPU where the kernel has it (4.6). */
struct legacy_map_def calls SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_calls),
	.max_entries = NR_OPS,
};

/* (epoch & 1) * NR_OPS + operation -> struct op_hist; per-CPU likewise. */
struct legacy_map_def hist SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_hist),
	.max_entries = HIST_KEYS,
};

/* The interval epoch, written by user space. */
struct legacy_map_def ctl SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct ctl),
	.max_entries = 1,
};

/*
 * Counter adds, each written out at a constant offset of p: clang would
 * otherwise merge two of them into one add at p plus a chosen offset,
 * which 4.9's verifier refuses ("R2 min value is negative").
 *
 * Every program comes twice (ext4dist_abi.h, PROG_ATOMIC): with plain
 * adds (load, add, store), correct on per-CPU maps (4.6+), where no other
 * CPU touches the value and a program is not preempted by another on the
 * same CPU; and with atomic adds (XADD) for the plain-array fallback
 * before 4.6.  32-bit ARM's JIT compiles no XADD (6.1 then refuses the
 * program with ENOTSUPP, 5.10 falls back to its interpreter), and before
 * its eBPF JIT existed (4.14) there were per-CPU maps already.  atomic
 * is a constant of each program: the other form is not emitted.
 */
#define ADD_ATOMIC(p, field, v)						\
	asm volatile("lock *(u64 *)(%0 + %1) += %2" : :			\
		     "r"(p), "i"(__builtin_offsetof(__typeof__(*(p)), field)), \
		     "r"((__u64)(v)) : "memory")
#define ADD_PLAIN(p, field, v) ({					\
	__u64 t_;							\
	asm volatile("%0 = *(u64 *)(%1 + %2)\n\t"			\
		     "%0 += %3\n\t"						\
		     "*(u64 *)(%1 + %2) = %0" : "=&r"(t_) :		\
		     "r"(p), "i"(__builtin_offsetof(__typeof__(*(p)), field)), \
		     "r"((__u64)(v)) : "memory");				\
})
#define ADD(atomic, p, field, v) do {					\
	if (atomic)							\
		ADD_ATOMIC(p, field, v);				\
	else								\
		ADD_PLAIN(p, field, v);					\
} while (0)
#define COUNT(atomic, p, field) ADD(atomic, p, field, 1)

INLINE __u64 start_record(__u32 tid)
{
	return (__u64)(tid >> START_TID_SHIFT) << REC_TID_SHIFT | REC_LIVE |
	       (bpf_ktime_get_ns() & REC_TS_MASK);
}

/* Whether rec was written by thread tid (the slot gives the low bits). */
INLINE int record_of(__u64 rec, __u32 tid)
{
	return (rec >> REC_TID_SHIFT) == (tid >> START_TID_SHIFT);
}

/*
 * Entry: keep only the wanted process (and never ext4dist itself: its
 * --prometheus file may be on ext4), count the call, remember when it
 * started.  A record of this same thread still there means the return
 * probe of its previous call never ran: that call is counted as missed.
 */
INLINE int trace_entry(__u32 op, const int atomic)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u32 tid = (__u32)id, key = tid & (START_SLOTS - 1), ckey = op;
	struct start_slot *s;
	struct op_calls *c;
	__u64 old;

	if (want && (id >> 32) != want)
		return 0;
	if ((id >> 32) == PATCHED_CONST(PATCH_SELF))
		return 0;
	s = bpf_map_lookup_elem(&start, &key);
	/* A key of its own: op itself must stay a known constant. */
	c = bpf_map_lookup_elem(&calls, &ckey);
	if (!s || !c)
		return 0;
	old = s->rec[op];
	if (old && record_of(old, tid))
		COUNT(atomic, c, missed);
	s->rec[op] = start_record(tid);
	COUNT(atomic, c, entries);
	return 0;
}

/* What a return is, from its value and whose start record it found. */
enum ret_kind { RET_TIMED, RET_QUEUED, RET_ERROR, RET_STOLEN };

/*
 * The return value says whether the call's latency means anything: an
 * asynchronous read or write returns -EIOCBQUEUED once queued, and errors
 * are kept out of the histograms too.
 */
INLINE enum ret_kind return_kind(const void *ctx, __u32 op)
{
	__u64 rc = REGS_RC(ctx);

	/* ssize_t is the kernel's long: 32 bits on 32-bit ARM. */
	if (OP_RETURNS_SSIZE(op)) {
		if ((klong_t)rc == -KERNEL_EIOCBQUEUED)
			return RET_QUEUED;
		if ((klong_t)rc < 0)
			return RET_ERROR;
	} else if ((__s32)rc < 0) {
		return RET_ERROR;
	}
	return RET_TIMED;
}

/* The histogram buffer of op in the current interval. */
INLINE struct op_hist *hist_of(__u32 op)
{
	__u32 zero = 0, hkey;
	struct ctl *c = bpf_map_lookup_elem(&ctl, &zero);

	if (!c)
		return 0;
	hkey = (c->epoch & 1) * NR_OPS + op;
	return bpf_map_lookup_elem(&hist, &hkey);
}

/*
 * Return: other processes are turned away before any map work; without a
 * record the call was not ours to time (filtered at entry, or begun before
 * tracing).  A record of another thread: that one took over our slot.
 * Everything is worked out before the histogram is looked up, and used
 * at once: 4.9's verifier forgets the bounds of a map value pointer that
 * was spilled to the stack and refuses to index it.
 */
INLINE int trace_return(const void *ctx, __u32 op, const int atomic)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u64 factor = PATCHED_CONST(PATCH_FACTOR);
	__u32 tid = (__u32)id, key = tid & (START_SLOTS - 1);
	enum ret_kind kind = RET_STOLEN;
	struct start_slot *s;
	struct op_hist *h;
	__u64 rec, delta = 0, slot;

	if (want && (id >> 32) != want)
		return 0;
	s = bpf_map_lookup_elem(&start, &key);
	if (!s)
		return 0;
	rec = s->rec[op];
	if (!rec)
		return 0;
	if (record_of(rec, tid)) {
		s->rec[op] = 0;
		delta = (bpf_ktime_get_ns() - rec) & REC_TS_MASK;
		kind = return_kind(ctx, op);
	}
	h = hist_of(op);
	if (!h)
		return 0;
	switch (kind) {
	case RET_STOLEN:
		COUNT(atomic, h, stolen);
		return 0;
	case RET_QUEUED:
		COUNT(atomic, h, queued);
		return 0;
	case RET_ERROR:
		COUNT(atomic, h, errors);
		return 0;
	default:
		break;
	}
	ADD(atomic, h, sum_ns, delta);
	if (delta > h->max_ns)
		h->max_ns = delta;
	/*
	 * The slot last: each step of log2_slot() branches, and the
	 * verifier walks what follows once per value (up to 64), so little
	 * may follow.  A latency below 2^56 ns over a factor of at least
	 * 1000 needs fewer than NR_SLOTS slots; the mask is the bound the
	 * verifier sees (behind an empty asm: 6.1's loses the bound when
	 * clang tests one copy and indexes with another).
	 */
	slot = log2_slot(delta, factor);
	asm volatile("" : "+r"(slot));
	slot &= NR_SLOTS - 1;
	if (atomic)
		__sync_fetch_and_add(&h->slots[slot], 1);
	else
		h->slots[slot]++;
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
	kptr_t filp = 0, fop = 0;	/* kernel pointers: 4 bytes on arm */
	__u64 off = PATCHED_CONST(PATCH_FOP_OFF);

	bpf_probe_read(&filp, sizeof(filp), iocb);
	if (!filp)
		return 0;
	bpf_probe_read(&fop, sizeof(fop), (const char *)(__u64)filp + off);
	return (__u64)fop == PATCHED_CONST(PATCH_FOPS);
}

/*
 * The plain-add program of a name in section sec, and its atomic twin
 * <name>_atomic in section sec_atomic (PROG_ATOMIC, ext4dist_abi.h).
 */
#define PROG_TWINS(sec, sec_atomic, name, body)				\
INLINE int name##_body(void *ctx, const int atomic) body		\
SEC(sec) int name(void *ctx)						\
{									\
	return name##_body(ctx, 0);					\
}									\
SEC(sec_atomic) int name##_atomic(void *ctx)				\
{									\
	return name##_body(ctx, 1);					\
}
#define KPROBE_TWINS(sec, name, body)					\
	PROG_TWINS(sec, sec "/" PROG_ATOMIC, name, body)

#define ENTRY_RETURN_PAIR(fn, op)					\
KPROBE_TWINS("kprobe/" #fn, entry_##fn, {					\
	(void)ctx;							\
	return trace_entry(op, atomic);					\
})									\
KPROBE_TWINS("kretprobe/" #fn, return_##fn, {				\
	return trace_return(ctx, op, atomic);				\
})

ENTRY_RETURN_PAIR(ext4_file_read_iter, OP_READ)
ENTRY_RETURN_PAIR(ext4_file_write_iter, OP_WRITE)
ENTRY_RETURN_PAIR(ext4_file_open, OP_OPEN)
ENTRY_RETURN_PAIR(ext4_sync_file, OP_FSYNC)
ENTRY_RETURN_PAIR(ext4_file_getattr, OP_GETATTR)

KPROBE_TWINS("kprobe/generic_file_read_iter", entry_generic_file_read_iter, {
	if (!generic_read_is_ext4(ctx))
		return 0;
	return trace_entry(OP_READ, atomic);
})

KPROBE_TWINS("kretprobe/generic_file_read_iter", return_generic_file_read_iter, {
	return trace_return(ctx, OP_READ, atomic);
})

/*
 * kprobe_multi (5.18+): one link arms every traced function at once, with
 * one pass over the kernel's symbols where each kprobe makes its own (a
 * linear scan on 6.1).  Which operation fired comes from the link's cookie.
 * Loaded only where the kernel takes them; the programs above stay the
 * path for every older kernel.
 */
/*
 * The operation is known only at run time here: each case calls the
 * helper with a constant, so the verifier sees every index bounded (a
 * bounds check on one register does not carry to the copy clang indexes
 * with).
 */
#define FOR_OP(op, call) ({						\
	int r_ = 0;							\
	switch (op) {							\
	case OP_READ: r_ = call(OP_READ); break;			\
	case OP_WRITE: r_ = call(OP_WRITE); break;			\
	case OP_OPEN: r_ = call(OP_OPEN); break;			\
	case OP_FSYNC: r_ = call(OP_FSYNC); break;			\
	case OP_GETATTR: r_ = call(OP_GETATTR); break;			\
	}								\
	r_;								\
})
#define ENTRY(op) trace_entry(op, atomic)
#define RETURN(op) trace_return(ctx, op, atomic)

KPROBE_TWINS("kprobe.multi/ext4", multi_entry, {
	return FOR_OP(bpf_get_attach_cookie(ctx), ENTRY);
})

KPROBE_TWINS("kretprobe.multi/ext4", multi_return, {
	return FOR_OP(bpf_get_attach_cookie(ctx), RETURN);
})

/*
 * The same by address, where the loader knows each function's address
 * (from the kernel's kallsyms, through the loader's own syscall program,
 * src/loader/ksym/ksym_bpf.c) and patches it in: bpf_get_func_ip reads the hit's address from the run context, where
 * the cookie is found by a binary search over the link's addresses.
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

PROG_TWINS("kprobe.multi/ext4/ip", "kprobe.multi/ext4/ip." PROG_ATOMIC,
	   multi_entry_ip, {
	return FOR_OP(op_of_ip(bpf_get_func_ip(ctx)), ENTRY);
})

PROG_TWINS("kretprobe.multi/ext4/ip", "kretprobe.multi/ext4/ip." PROG_ATOMIC,
	   multi_return_ip, {
	return FOR_OP(op_of_ip(bpf_get_func_ip(ctx)), RETURN);
})

/*
 * f_op offset discovery (struct open_scan): put on the ->release(inode,
 * file) of the file system's directories, which __fput calls with
 * file->f_op still the inode's i_fop, as do_dentry_open set it.  (Not the
 * directories' ->open: Debian's 6.1 ext4 has none.)  Only ext4dist's own
 * directory is copied.
 */
struct legacy_map_def open_scan SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct open_scan),
	.max_entries = 1,
};

#define SCAN_CHUNK 32	/* words per copy: 256 bytes of the 512-byte stack */

/*
 * Via the stack: before 4.11 bpf_probe_read could only write there.  Each
 * chunk of 32 words is copied in one read; a failed read leaves zeros.
 */
#define SCAN_COPY(dst, src, chunk) do {					\
	__u64 w_[SCAN_CHUNK];						\
									\
	__builtin_memset(w_, 0, sizeof(w_));				\
	bpf_probe_read(w_, sizeof(w_),					\
		       (const char *)(src) + (chunk) * sizeof(w_));	\
	__builtin_memcpy(&(dst)[(chunk) * SCAN_CHUNK], w_, sizeof(w_));	\
} while (0)

SEC("kprobe/ext4_release_dir/scan_release") int scan_release(void *ctx)
{
	const void *inode = (const void *)REGS_PARM1(ctx);
	const void *filp = (const void *)REGS_PARM2(ctx);
	struct open_scan *d;
	__u32 key = 0;

	if ((bpf_get_current_pid_tgid() >> 32) != PATCHED_CONST(PATCH_SELF))
		return 0;
	d = bpf_map_lookup_elem(&open_scan, &key);
	if (!d)
		return 0;
	SCAN_COPY(d->file, filp, 0);
	SCAN_COPY(d->inode, inode, 0);
	SCAN_COPY(d->inode, inode, 1);
	SCAN_COPY(d->inode, inode, 2);
	SCAN_COPY(d->inode, inode, 3);
	d->inode_ptr = (__u64)inode;
	d->file_ptr = (__u64)filp;
	return 0;
}

char _license[] SEC("license") = "GPL";
/* Replaced at load time by the running kernel's version code. */
__u32 _version SEC("version") = 0;
