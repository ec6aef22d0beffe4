// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dist's BPF side: a kprobe on entry of each traced function
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

/*
 * One value, all the slots: thread id % slots -> one start record per
 * traced operation (the loader sets value_size, ext4dist_abi.h).  Its
 * lookup of key 0 is a load of the value's address where the kernel
 * takes one (5.2+), and the slot an offset from it: no key, no call.
 */
struct legacy_map_def start SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct start_slot) * START_SLOTS_MAX,
	.max_entries = 1,
};

/*
 * One value, a struct calls_row per CPU (the loader sets value_size for
 * the possible CPUs): read by address as start, the row an offset from
 * it.
 */
struct legacy_map_def calls SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct calls_row),
	.max_entries = 1,
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
 * Slow mode's maps, created only in that mode.  "events": one perf ring
 * per CPU (the loader sets max_entries to the possible CPUs).
 */
struct legacy_map_def events SEC("maps") = {
	.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 1,
};

/* Thread id % slots -> file and offset per operation. */
struct legacy_map_def slow_start SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct slow_extra),
	.max_entries = START_SLOTS_MAX,
};

/* One struct slow_stats; per-CPU where the kernel has it. */
struct legacy_map_def slow_stats SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct slow_stats),
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
/* A count's 1 is the add's immediate (XADD takes only a register). */
#define INC_PLAIN(p, field) ({						\
	__u64 t_;							\
	asm volatile("%0 = *(u64 *)(%1 + %2)\n\t"			\
		     "%0 += 1\n\t"						\
		     "*(u64 *)(%1 + %2) = %0" : "=&r"(t_) :		\
		     "r"(p), "i"(__builtin_offsetof(__typeof__(*(p)), field)) \
		     : "memory");					\
})
#define COUNT(atomic, p, field) do {					\
	if (atomic)							\
		ADD_ATOMIC(p, field, 1);				\
	else								\
		INC_PLAIN(p, field);					\
} while (0)

/*
 * The traced function's arguments and return value.  A kprobe's context
 * is pt_regs; an fentry or fexit program's (5.5+) is the arguments, one
 * 8-byte word each, and for fexit the return value in the word after
 * them.  tr (a constant of each program) says which.
 */
#define ARG1(ctx, tr) ((tr) ? ((const __u64 *)(ctx))[0] : REGS_PARM1(ctx))
#define ARG2(ctx, tr) ((tr) ? ((const __u64 *)(ctx))[1] : REGS_PARM2(ctx))

/*
 * The verifier takes only a constant offset into a tracing program's
 * context: each load is written out (clang would otherwise index with
 * the count), and the patched count leaves one of them live.
 */
#define CTX_WORD(ctx, i) ({						\
	__u64 w_;							\
	asm volatile("%0 = *(u64 *)(%1 + %2)" : "=r"(w_) :		\
		     "r"(ctx), "i"((i) * 8));				\
	w_;								\
})

INLINE __u64 fexit_rc(const void *ctx, __u32 op)
{
	__u64 n = PATCHED_CONST(PATCH_NARGS_BASE + op);

	if (n == 2)
		return CTX_WORD(ctx, 2);
	if (n == 3)
		return CTX_WORD(ctx, 3);
	if (n == 4)
		return CTX_WORD(ctx, 4);
	return CTX_WORD(ctx, 5);
}

/*
 * A tracepoint program's context is the event's record, laid out as the
 * event's format file says; the load of the exit event's "ret" (an int)
 * carries a placeholder offset that the loader replaces with the one the
 * running kernel's format file gives.
 */
#define TP_RET(ctx) ({							\
	__u32 v_;							\
	asm volatile("%0 = *(u32 *)(%1 + %2)" : "=r"(v_) :		\
		     "r"(ctx), "i"(PATCH_OFF_TP_RET));			\
	(__u64)(__s64)(__s32)v_;					\
})

/* tr: 0 a kprobe's pt_regs, 1 fentry/fexit's words, 2 a tracepoint's record. */
#define RC(ctx, op, tr) ((tr) == 2 ? TP_RET(ctx) :			\
			 (tr) ? fexit_rc(ctx, op) : REGS_RC(ctx))

/*
 * A start record's tag: the bits of the thread id that its slot does not
 * give, over the live bit.  Never 0, so a free record (0) is nobody's.
 * The thread id is the low half of id: shifted to the top and back down
 * by 31 more than the slot's bits (patched at load with the table's
 * size), it lands one bit up, and the live bit goes over its lowest.
 */
/*
 * The thread's slot: the low bits of id (its thread id), by the AND whose
 * immediate the loader patches with slots - 1.
 */
INLINE __u64 start_slot_of(__u64 id)
{
	asm volatile("%0 &= %1" : "+r"(id) : "i"(PATCH_START_MASK));
	return id;
}

/* The start table, all the slots: its one value. */
INLINE char *start_table(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&start, &zero);
}

/* Slot at's first byte: at times the slot's bytes (PATCH_START_STRIDE). */
INLINE __u64 start_offset(__u64 at)
{
	asm volatile("%0 *= %1" : "+r"(at) : "i"(PATCH_START_STRIDE));
	return at;
}

/* op's record in slot s, at the offset patched for op (PATCH_OFF_START_REC). */
INLINE __u64 rec_get(const char *s, __u32 op)
{
	__u64 v;

	asm volatile("%0 = *(u64 *)(%1 + %2)" : "=r"(v) :
		     "r"(s), "i"(PATCH_OFF_START_REC(op)));
	return v;
}

INLINE void rec_put(char *s, __u32 op, __u64 v)
{
	asm volatile("*(u64 *)(%0 + %1) = %2" : :
		     "r"(s), "i"(PATCH_OFF_START_REC(op)), "r"(v) : "memory");
}

/*
 * op's record freed: its 0 made here, so clang keeps no 0 of a lookup's
 * key in a register for it (the loader drops the key's with the key).
 */
INLINE void rec_free(char *s, __u32 op)
{
	__u64 z;

	asm volatile("%0 = 0\n\t*(u64 *)(%1 + %2) = %0" : "=&r"(z) :
		     "r"(s), "i"(PATCH_OFF_START_REC(op)) : "memory");
}

/*
 * The calls rows, all the CPUs': its one value.  The key's 0 made here
 * (an empty asm): clang would otherwise keep one 0 in a register for
 * both keys, an instruction the loader cannot drop with them.
 */
INLINE struct calls_row *calls_rows(void)
{
	__u32 zero;

	asm volatile("%0 = 0" : "=r"(zero));

	return bpf_map_lookup_elem(&calls, &zero);
}

/*
 * This CPU's counts of op, in rows r.  The CPU's id is masked right
 * before it indexes: 4.9's verifier keeps no bound of a value spilled
 * across a call.
 */
INLINE struct op_calls *calls_of(struct calls_row *r, __u32 op)
{
	__u64 cpu = bpf_get_smp_processor_id();

	asm volatile("%0 &= %1" : "+r"(cpu) : "i"(PATCH_CPU_MASK));
	return &r[cpu].op[op];
}

INLINE __u64 record_tag(__u64 id)
{
	id <<= 32;
	asm volatile("%0 >>= %1" : "+r"(id) : "i"(PATCH_START_SHIFT));
	return id | 1;
}

INLINE __u64 start_record(__u64 tag)
{
	return tag << REC_TAG_SHIFT | (bpf_ktime_get_ns() & REC_TS_MASK);
}

/* Whether rec was written by the thread of tag (the slot gives the rest). */
INLINE int record_of(__u64 rec, __u64 tag)
{
	return rec >> REC_TAG_SHIFT == tag;
}

/*
 * Slow mode: what the return needs besides the start time, from the
 * entry's arguments.  A read or write gets a kiocb: ki_filp is its first
 * member and ki_pos (loff_t) follows at offset 8 in every kernel since
 * 4.1, 32-bit ARM included (EABI aligns it to 8).  open gets (inode,
 * file), fsync (file, start, end, datasync).
 */
INLINE void entry_file(const void *ctx, __u32 op, __u64 *file, __u64 *pos,
		       const int tr)
{
	const char *arg1 = (const char *)ARG1(ctx, tr);
	kptr_t f = 0;
	__u64 p = 0;

	if (op == OP_READ || op == OP_WRITE) {
		bpf_probe_read(&f, sizeof(f), arg1);
		bpf_probe_read(&p, sizeof(p), arg1 + 8);
	} else if (op == OP_OPEN) {
		f = (kptr_t)ARG2(ctx, tr);
	} else {
		f = (kptr_t)ARG1(ctx, tr);
	}
	*file = f;
	*pos = p;
}

/* Slow mode's extra start state (struct slow_extra); getattr has none. */
#define SLOW_OK(op) ((op) != OP_GETATTR)

/*
 * fexit has the arguments too: open's file and fsync's are there at
 * return, so on fentry/fexit those two keep no extra start state (a read
 * or write's offset has moved on by then: it is still kept at entry).
 */
#define FILE_AT_RETURN(op, tr) ((tr) && ((op) == OP_OPEN || (op) == OP_FSYNC))
#define SLOW_EXTRA(op, tr) (SLOW_OK(op) && !FILE_AT_RETURN(op, tr))

/*
 * Entry: keep only the wanted process (and never ext4dist itself: its
 * --prometheus file may be on ext4), count the call, remember when it
 * started.  A record of this same thread still there means the return
 * probe of its previous call never ran: that call is counted as missed.
 * In slow mode the file and offset go first into slow_start, tagged with
 * the record that is written last.
 */
INLINE int trace_entry(const void *ctx, __u32 op, const int atomic,
		       const int slow, const int tr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u32 key;
	char *t, *s;
	struct calls_row *r;
	struct op_calls *c;
	__u64 rec, tag, at;

	if (want && (id >> 32) != want)
		return 0;
	if ((id >> 32) == PATCHED_CONST(PATCH_SELF))
		return 0;
	at = start_slot_of(id);
	t = start_table();
	if (!t)
		return 0;
	r = calls_rows();
	if (!r)
		return 0;
	c = calls_of(r, op);
	tag = record_tag(id);
	s = t + start_offset(at);
	/* A CPU's own row: plain adds, in the atomic twins too. */
	if (record_of(rec_get(s, op), tag))
		INC_PLAIN(c, missed);
	rec = start_record(tag);
	key = (__u32)at;
	if (slow && SLOW_EXTRA(op, tr)) {
		struct slow_extra *x = bpf_map_lookup_elem(&slow_start, &key);
		__u64 file = 0, pos = 0;

		if (x) {
			entry_file(ctx, op, &file, &pos, tr);
			x->tag[op] = rec;
			x->file[op] = file;
			x->pos[op] = pos;
		}
		/* 4.9 keeps no bound of an offset spilled across the calls. */
		s = t + start_offset(start_slot_of(at));
	}
	rec_put(s, op, rec);
	INC_PLAIN(c, entries);
	return 0;
}

/* What a return is, from its value and whose start record it found. */
enum ret_kind { RET_TIMED, RET_QUEUED, RET_ERROR, RET_STOLEN };

/*
 * The return value says whether the call's latency means anything: an
 * asynchronous read or write returns -EIOCBQUEUED once queued, and errors
 * are kept out of the histograms too.
 */
INLINE enum ret_kind return_kind(const void *ctx, __u32 op, const int tr)
{
	__u64 rc = RC(ctx, op, tr);

	/*
	 * ssize_t is the kernel's long: 32 bits on 32-bit ARM.  The sign
	 * first: a timed return takes one test.
	 */
	if (OP_RETURNS_SSIZE(op)) {
		if ((klong_t)rc < 0)
			return (klong_t)rc == -KERNEL_EIOCBQUEUED ? RET_QUEUED :
								      RET_ERROR;
	} else if ((__s32)rc < 0) {
		return RET_ERROR;
	}
	return RET_TIMED;
}

/* The histogram buffer of op in the current interval. */
INLINE struct op_hist *hist_of(__u32 op)
{
	__u32 zero, hkey;
	struct ctl *c;

	/* Its own 0, as calls_rows()'s: none the loader cannot drop. */
	asm volatile("%0 = 0" : "=r"(zero));
	c = bpf_map_lookup_elem(&ctl, &zero);

	if (!c)
		return 0;
	hkey = c->hist_base + op;
	return bpf_map_lookup_elem(&hist, &hkey);
}

/*
 * Slow mode: the event of one call, its name read through the offsets
 * the loader discovered (0: not known, no name).  The kernel's refusals
 * (a full ring: the kernel also counts it in PERF_RECORD_LOST) are
 * counted, so no event goes missing unseen.
 */
INLINE void send_event(void *ctx, __u32 op, __u64 id, __u64 delta,
		       __u64 file, __u64 pos, const int atomic, const int tr)
{
	__u64 doff = PATCHED_CONST(PATCH_DENTRY_OFF);
	__u64 noff = PATCHED_CONST(PATCH_DNAME_OFF);
	__u64 rc = RC(ctx, op, tr);
	struct slow_event ev;
	struct slow_stats *st;
	kptr_t dentry = 0, name = 0;
	__u32 zero = 0;
	long err;

	__builtin_memset(&ev, 0, sizeof(ev));
	ev.end_ns = bpf_ktime_get_ns();
	ev.delta_ns = delta;
	ev.pos = pos;
	/* open and fsync return int: the upper half of the register is not theirs. */
	ev.ret = OP_RETURNS_SSIZE(op) ? (long long)(klong_t)rc :
					(long long)(__s32)rc;
	ev.tgid = id >> 32;
	ev.tid = (__u32)id;
	ev.op = op;
	bpf_get_current_comm(ev.comm, sizeof(ev.comm));
	if (doff && file) {
		bpf_probe_read(&dentry, sizeof(dentry), (const char *)file + doff);
		if (dentry)
			bpf_probe_read(&name, sizeof(name),
				       (const char *)(__u64)dentry + noff);
		if (name && !bpf_probe_read(ev.name, sizeof(ev.name),
					    (const void *)(__u64)name))
			ev.flags |= SLOW_NAME_READ;
	}
	err = bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev,
				    sizeof(ev));
	st = bpf_map_lookup_elem(&slow_stats, &zero);
	if (!st)
		return;
	if (err)
		COUNT(atomic, st, failed);
	else
		COUNT(atomic, st, sent);
}

/* A word of a histogram row, as the verifier sees it: any number. */
#define ROW_WORD(h) ({							\
	__u64 w_;							\
	asm volatile("%0 = *(u64 *)(%1 + %2)" : "=r"(w_) :		\
		     "r"(h), "i"(__builtin_offsetof(struct op_hist, stolen))); \
	w_;								\
})

/*
 * Return: other processes are turned away before any map work; without a
 * record the call was not ours to time (filtered at entry, or begun before
 * tracing).  A record of another thread: that one took over our slot.
 * Nothing is called between the histogram's lookup and its use, and
 * little is kept across it: 4.9's verifier forgets the bounds of a map
 * value pointer that was spilled to the stack and refuses to index it.
 * The return value is read after the lookup (only slow mode needs it
 * before).  In slow mode a slow_start entry tagged with another record
 * is a takeover too (that thread's entry is under way): counted as
 * stolen, no event.
 */
INLINE int trace_return(void *ctx, __u32 op, const int atomic,
			const int slow, const int tr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	enum ret_kind kind = RET_STOLEN;
	char *s;
	struct op_hist *h;
	__u64 rec, delta = 0, at, slot, base, file = 0, pos = 0;
	__u32 key;

	if (want && (id >> 32) != want)
		return 0;
	at = start_slot_of(id);
	s = start_table();
	if (!s)
		return 0;
	s += start_offset(at);
	key = (__u32)at;
	rec = rec_get(s, op);
	if (!rec)
		return 0;
	if (record_of(rec, record_tag(id))) {
		rec_free(s, op);
		delta = (bpf_ktime_get_ns() - rec) & REC_TS_MASK;
		kind = slow ? return_kind(ctx, op, tr) : RET_TIMED;
	}
	if (slow && SLOW_OK(op) && kind != RET_STOLEN) {
		struct slow_extra *x = 0;

		if (FILE_AT_RETURN(op, tr))
			file = op == OP_OPEN ? ARG2(ctx, tr) : ARG1(ctx, tr);
		else
			x = bpf_map_lookup_elem(&slow_start, &key);
		if (x) {
			file = x->file[op];
			pos = x->pos[op];
			if (x->tag[op] != rec)
				kind = RET_STOLEN;
		}
		/*
		 * As BCC's ext4slower: errors and queued calls have events
		 * too.  Before the histogram's lookup, whose pointer must
		 * not be kept across the event's helper calls (4.9).
		 */
		if (kind != RET_STOLEN &&
		    delta >= PATCHED_CONST(PATCH_SLOW_NS))
			send_event(ctx, op, id, delta, file, pos, atomic, tr);
	}
	h = hist_of(op);
	if (!h)
		return 0;
	if (kind == RET_STOLEN) {
		COUNT(atomic, h, stolen);
		return 0;
	}
	if (!slow)
		kind = return_kind(ctx, op, tr);
	if (kind == RET_QUEUED) {
		COUNT(atomic, h, queued);
		return 0;
	}
	if (kind == RET_ERROR) {
		COUNT(atomic, h, errors);
		return 0;
	}
	ADD(atomic, h, sum_ns, delta);
	if (delta > h->max_ns)
		h->max_ns = delta;
	/*
	 * The slot last: the verifier walks what follows once per path
	 * that it cannot prune.  A latency below 2^56 ns over a factor of
	 * at least 1000 needs fewer than NR_SLOTS slots; the mask is the
	 * bound the verifier sees.
	 */
	if (atomic) {
		/* Behind an empty asm: 6.1's verifier loses the bound when
		 * clang tests one copy and indexes with another. */
		slot = log2_slot_k(delta, PATCHED_CONST(PATCH_FACTOR));
		asm volatile("" : "+r"(slot));
		slot &= NR_SLOTS - 1;
		__sync_fetch_and_add(&h->slots[slot], 1);
		return 0;
	}
	/*
	 * log2_steps()'s branches leave a constant count on each path, and
	 * an index into a map value is marked precise back to where it came
	 * from (5.3+; verifiers before compare every scalar), so no two paths
	 * would ever be pruned.  Counted from a word of the row, a scalar
	 * the verifier knows nothing of, every path's count is as unknown as
	 * another's and the paths meet again at each step.  The word is read
	 * again for the subtraction (nothing in between writes it), not kept:
	 * a copy would tie the count to it, and 6.12's verifier keeps counts
	 * apart by what they add to a live copy.  The count is slot - 1:
	 * slots[1] is where it starts (below 53 for a delta below 2^53).
	 */
	base = ROW_WORD(h);
	slot = log2_steps(delta, PATCHED_CONST(PATCH_FACTOR), base) - ROW_WORD(h);
	slot &= NR_SLOTS - 1;
	(&h->slots[1])[slot]++;
	return 0;
}

/*
 * Before 4.10 ext4 had no read_iter of its own: reads go through
 * generic_file_read_iter, shared by many file systems, so keep only files
 * whose f_op is the traced file system's (its table's fops_symbol, whose
 * address the loader patches in).  kiocb->ki_filp is the first member of
 * struct kiocb in every kernel; the f_op offset inside struct file is not
 * stable (40 up to 6.7, 16 on 6.12), so the loader patches it in.
 */
INLINE int generic_read_is_ours(const void *ctx, const int tr)
{
	const void *iocb = (const void *)ARG1(ctx, tr);
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
 * <name>_atomic in section sec_atomic (PROG_ATOMIC, ext4dist_abi.h);
 * PROG_FOUR adds the slow mode's pair, <name>_slow and
 * <name>_slow_atomic (PROG_SLOW).
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

#define PROG_FOUR(sec, sec_atomic, sec_slow, sec_slow_atomic, name, body) \
INLINE int name##_body(void *ctx, const int atomic, const int slow) body \
SEC(sec) int name(void *ctx)						\
{									\
	return name##_body(ctx, 0, 0);					\
}									\
SEC(sec_atomic) int name##_atomic(void *ctx)				\
{									\
	return name##_body(ctx, 1, 0);					\
}									\
SEC(sec_slow) int name##_slow(void *ctx)				\
{									\
	return name##_body(ctx, 0, 1);					\
}									\
SEC(sec_slow_atomic) int name##_slow_atomic(void *ctx)		\
{									\
	return name##_body(ctx, 1, 1);					\
}
#define KPROBE_FOUR(sec, name, body)					\
	PROG_FOUR(sec, sec "/" PROG_ATOMIC, sec "/" PROG_SLOW,		\
		  sec "/" PROG_SLOW "." PROG_ATOMIC, name, body)

/*
 * Programs are named by operation ("kprobe/read"): the loader puts each
 * on the function of that operation in the file system's table
 * (src/tool/fs/fs_*.c).
 */
#define ENTRY_RETURN_PAIR(name, op)					\
KPROBE_FOUR("kprobe/" #name, entry_##name, {				\
	return trace_entry(ctx, op, atomic, slow, 0);			\
})									\
KPROBE_FOUR("kretprobe/" #name, return_##name, {			\
	return trace_return(ctx, op, atomic, slow, 0);			\
})

ENTRY_RETURN_PAIR(read, OP_READ)
ENTRY_RETURN_PAIR(write, OP_WRITE)
ENTRY_RETURN_PAIR(open, OP_OPEN)
ENTRY_RETURN_PAIR(fsync, OP_FSYNC)

/* getattr: not a slow mode operation (BCC's ext4slower has none). */
KPROBE_TWINS("kprobe/getattr", entry_getattr, {
	return trace_entry(ctx, OP_GETATTR, atomic, 0, 0);
})
KPROBE_TWINS("kretprobe/getattr", return_getattr, {
	return trace_return(ctx, OP_GETATTR, atomic, 0, 0);
})

KPROBE_FOUR("kprobe/" PROG_GENERIC_READ, entry_generic_read, {
	if (!generic_read_is_ours(ctx, 0))
		return 0;
	return trace_entry(ctx, OP_READ, atomic, slow, 0);
})

KPROBE_FOUR("kretprobe/" PROG_GENERIC_READ, return_generic_read, {
	return trace_return(ctx, OP_READ, atomic, slow, 0);
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
#define ENTRY(op) trace_entry(ctx, op, atomic, slow, 0)
#define RETURN(op) trace_return(ctx, op, atomic, slow, 0)

KPROBE_FOUR("kprobe.multi/" PROG_EVERY_OP, multi_entry, {
	return FOR_OP(bpf_get_attach_cookie(ctx), ENTRY);
})

KPROBE_FOUR("kretprobe.multi/" PROG_EVERY_OP, multi_return, {
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

#define IP_FOUR(sec, name, body)					\
	PROG_FOUR(sec "/ip", sec "/ip." PROG_ATOMIC, sec "/ip." PROG_SLOW, \
		  sec "/ip." PROG_SLOW "." PROG_ATOMIC, name, body)

IP_FOUR("kprobe.multi/" PROG_EVERY_OP, multi_entry_ip, {
	return FOR_OP(op_of_ip(bpf_get_func_ip(ctx)), ENTRY);
})

IP_FOUR("kretprobe.multi/" PROG_EVERY_OP, multi_return_ip, {
	return FOR_OP(op_of_ip(bpf_get_func_ip(ctx)), RETURN);
})

/*
 * fentry and fexit (5.5+, where the kernel has BTF and BPF trampolines):
 * one program per traced function, loaded for it by its BTF id.  Per-CPU
 * maps are always there (4.6+): no atomic twins.  The section names the
 * operation; the loader gives each the BTF id of its function.
 */
#if !defined(__TARGET_ARCH_arm) && !defined(__TARGET_ARCH_mips)	/* no trampolines on 32-bit kernels */
#define TRACING_TWO(sec, name, body)					\
INLINE int name##_body(void *ctx, const int slow) body			\
SEC(sec) int name(void *ctx)						\
{									\
	return name##_body(ctx, 0);					\
}									\
SEC(sec "/" PROG_SLOW) int name##_slow(void *ctx)			\
{									\
	return name##_body(ctx, 1);					\
}

#define FENTRY_FEXIT(name, op)						\
TRACING_TWO("fentry/" #name, fentry_##name, {				\
	return trace_entry(ctx, op, 0, slow, 1);			\
})									\
TRACING_TWO("fexit/" #name, fexit_##name, {				\
	return trace_return(ctx, op, 0, slow, 1);			\
})

FENTRY_FEXIT(read, OP_READ)
FENTRY_FEXIT(write, OP_WRITE)
FENTRY_FEXIT(open, OP_OPEN)
FENTRY_FEXIT(fsync, OP_FSYNC)

SEC("fentry/getattr") int fentry_getattr(void *ctx)
{
	return trace_entry(ctx, OP_GETATTR, 0, 0, 1);
}

SEC("fexit/getattr") int fexit_getattr(void *ctx)
{
	return trace_return(ctx, OP_GETATTR, 0, 0, 1);
}

TRACING_TWO("fentry/" PROG_GENERIC_READ, fentry_generic_read, {
	if (!generic_read_is_ours(ctx, 1))
		return 0;
	return trace_entry(ctx, OP_READ, 0, slow, 1);
})

TRACING_TWO("fexit/" PROG_GENERIC_READ, fexit_generic_read, {
	return trace_return(ctx, OP_READ, 0, slow, 1);
})
#endif

/*
 * A file system's own tracepoints around fsync (--attach=tracepoint, its
 * table's fsync_tp): fsync on kernels without kprobes.  Per-CPU maps
 * only: tracepoint programs (4.7) came after them.
 */
SEC("tracepoint/fsync/enter") int tp_fsync_enter(void *ctx)
{
	return trace_entry(ctx, OP_FSYNC, 0, 0, 2);
}

SEC("tracepoint/fsync/exit") int tp_fsync_exit(void *ctx)
{
	return trace_return(ctx, OP_FSYNC, 0, 0, 2);
}

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

SEC("kprobe/" PROG_DIR_RELEASE "/scan_release") int scan_release(void *ctx)
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

/*
 * Slow mode's name discovery (struct peek): "copy these kernel addresses
 * for me".  Put on noop_fsync, the ->fsync of shmem and ramfs files,
 * which ext4dist calls on a memfd of its own (fsync(2) reaches it through
 * the f_op pointer, so it is never inlined away): argument 1 is that
 * file.  Copies the file's first bytes and those at each requested
 * address; user space searches them (tool/discover/name_offsets.c).  Only
 * ext4dist's own process is served.  No branch per slot: a zero address
 * is a read that fails and leaves zeros.
 */
struct legacy_map_def peek SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct peek),
	.max_entries = 1,
};

#define PEEK_COPY(dst, src) do {					\
	__u64 w_[PEEK_BYTES / 8];					\
									\
	__builtin_memset(w_, 0, sizeof(w_));				\
	bpf_probe_read(w_, sizeof(w_), (const void *)(src));		\
	__builtin_memcpy((dst), w_, sizeof(w_));			\
} while (0)
#define PEEK_SLOT(p, i) PEEK_COPY((p)->mem[i], (p)->req[i])

SEC("kprobe/noop_fsync/peek") int peek_file(void *ctx)
{
	__u64 file = REGS_PARM1(ctx);
	struct peek *p;
	__u32 key = 0;

	if ((bpf_get_current_pid_tgid() >> 32) != PATCHED_CONST(PATCH_SELF))
		return 0;
	p = bpf_map_lookup_elem(&peek, &key);
	if (!p)
		return 0;
	PEEK_COPY(p->arg1_mem, file);
	PEEK_SLOT(p, 0); PEEK_SLOT(p, 1); PEEK_SLOT(p, 2); PEEK_SLOT(p, 3);
	PEEK_SLOT(p, 4); PEEK_SLOT(p, 5); PEEK_SLOT(p, 6); PEEK_SLOT(p, 7);
	PEEK_SLOT(p, 8); PEEK_SLOT(p, 9); PEEK_SLOT(p, 10); PEEK_SLOT(p, 11);
	PEEK_SLOT(p, 12); PEEK_SLOT(p, 13); PEEK_SLOT(p, 14); PEEK_SLOT(p, 15);
	p->arg1 = file;
	p->runs++;
	return 0;
}

/*
 * The lessons: programs broken on purpose, which no run loads;
 * --dump-bpf=refused loads each one alone and prints the verifier's
 * refusal (src/tool/dump/lessons.c says what each one must show, and
 * docs/learn.md why).  Each refusal depends on no cleverness of the
 * verifier, but null_array's, which is there to show one: 6.14 learnt
 * that an array lookup with a constant key in range cannot fail.
 */
struct lesson_value {
	__u64 w[4];
};

/* A hash map: a lookup can always miss, whatever the key. */
struct legacy_map_def lesson_hash SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct lesson_value),
	.max_entries = 1,
};

/* A store one word past the end of ctl's 8-byte value. */
SEC("kprobe/lesson/past_end") int lesson_past_end(void *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&ctl, &key);

	if (v)
		v[1] = 1;	/* ctl's value is one __u64: v[1] is past its end */
	return 0;
}

/* A hash lookup used without checking it found something. */
SEC("kprobe/lesson/null_hash") int lesson_null_hash(void *ctx)
{
	__u32 key = 0;
	struct lesson_value *v = bpf_map_lookup_elem(&lesson_hash, &key);

	return (int)v->w[0];	/* v is NULL when the key is not there */
}

/* The same on an array with a constant key: refused before 6.14 only. */
SEC("kprobe/lesson/null_array") int lesson_null_array(void *ctx)
{
	__u32 key = 0;
	struct ctl *c = bpf_map_lookup_elem(&ctl, &key);

	return (int)c->epoch;
}

/* An index the verifier knows nothing about. */
SEC("kprobe/lesson/unchecked_index") int lesson_unchecked_index(void *ctx)
{
	__u32 key = 0, i = bpf_get_prandom_u32();
	struct lesson_value *v = bpf_map_lookup_elem(&lesson_hash, &key);

	if (v)
		v->w[i] = 1;
	return 0;
}

/* An index checked with <= where < was meant. */
SEC("kprobe/lesson/off_by_one") int lesson_off_by_one(void *ctx)
{
	__u32 key = 0, i = bpf_get_prandom_u32();
	struct lesson_value *v = bpf_map_lookup_elem(&lesson_hash, &key);

	if (v && i <= 4)
		v->w[i] = 1;	/* w[] has 4 words: w[4] is past its end */
	return 0;
}

/* A jump back to itself while n is 0, which it stays: a loop that never ends. */
SEC("kprobe/lesson/endless_loop") int lesson_endless_loop(void *ctx)
{
	__u64 n = 0;

	asm volatile("l_%=: if %0 == 0 goto l_%=" : "+r"(n));
	return (int)n;
}

/* An exit with nothing in r0, the return value. */
SEC("kprobe/lesson/no_return") int lesson_no_return(void *ctx)
{
	asm volatile("exit");
	__builtin_unreachable();
}

/*
 * A GPL-only helper: loaded as this object says ("GPL") it passes;
 * --dump-bpf=refused loads it under another licence.
 */
SEC("kprobe/lesson/gpl_helper") int lesson_gpl_helper(void *ctx)
{
	__u64 w = 0;

	bpf_probe_read(&w, sizeof(w), ctx);
	return (int)w;
}

/* A plain array where bpf_perf_event_output needs a perf event array. */
SEC("kprobe/lesson/wrong_map") int lesson_wrong_map(void *ctx)
{
	__u64 w = 1;

	bpf_perf_event_output(ctx, &ctl, BPF_F_CURRENT_CPU, &w, sizeof(w));
	return 0;
}

char _license[] SEC("license") = "GPL";
/* Replaced at load time by the running kernel's version code. */
__u32 _version SEC("version") = 0;
