/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the BPF programs and user space agree on: operation ids, the maps'
 * value layouts, and the placeholder constants the loader patches at load
 * time.  Included by bpf/ext4dist.bpf.c (clang -target bpf) and by src/.
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

/* read and write return ssize_t; open, fsync and getattr an int. */
#define OP_RETURNS_SSIZE(op) ((op) == OP_READ || (op) == OP_WRITE)

/*
 * The kernel-internal errno an asynchronous read or write returns once it
 * is queued (io_submit, io_uring): its "latency" is only the submission.
 */
#define KERNEL_EIOCBQUEUED 529

/*
 * Log2 slots.  Slot s counts latencies v with log2l(v) == s, where
 * log2l(0) == log2l(1) == 1 (BCC's bpf_log2l), so slot 0 stays empty and
 * slot 1 prints as "0 -> 1".  Latencies past 2^62 units land in the last slot.
 */
#define NR_SLOTS 64

/*
 * What the return probes saw, per operation and interval ("hist" map,
 * per-CPU where the kernel has it).  Every interval has its own buffer:
 * key (epoch & 1) * NR_OPS + op, its first key read from the "ctl" map
 * (which user space writes with the epoch), so an interval's figures (its
 * maximum included) are its own.  User space
 * flips the epoch, waits until no program can still be using the old one,
 * reads that buffer and zeroes it.
 */
struct op_hist {
	unsigned long long slots[NR_SLOTS];	/* timed calls */
	unsigned long long sum_ns;	/* exact sum of their latencies */
	unsigned long long max_ns;	/* the largest of them */
	/* Returns not in slots[]: */
	unsigned long long queued;	/* -EIOCBQUEUED: asynchronous I/O */
	unsigned long long errors;	/* any other negative return */
	/*
	 * The start record had been taken over by another thread whose id
	 * is the same modulo the start records' slots, both inside the
	 * function at once.
	 */
	unsigned long long stolen;
};

#define HIST_KEYS (2 * NR_OPS)

/*
 * What the entry probes saw, per operation, never reset.  entries =
 * timed + queued + errors + stolen + missed + the calls still in flight:
 * whatever the attach path, every call that entered a traced function is
 * in one of those.
 */
struct op_calls {
	unsigned long long entries;
	/*
	 * The thread entered the function again while its previous call's
	 * start record was still there: that call's return probe never ran
	 * (kretprobe instances or fprobe return hooks exhausted).
	 */
	unsigned long long missed;
};

/*
 * The "calls" map: one plain array value of CALLS_ROWS(cpus) rows, row c
 * written only by programs on CPU c (bpf_get_smp_processor_id(), masked
 * with the rows - 1 the loader patches in, PATCH_CPU_MASK), read by its
 * address where the kernel gives one (5.2+): no per-CPU lookup, and
 * plain adds on every kernel.  A row is 128 bytes: a CPU's 80 bytes of
 * counters share no 64-byte cache line with another CPU's unless the
 * value starts more than 48 bytes into a line (the kernel aligns it to
 * 8).  User space reads the one value and sums the rows.
 */
struct calls_row {
	struct op_calls op[NR_OPS];
} __attribute__((aligned(64)));

/* Rows for cpus possible CPUs: the power of two the mask needs. */
#define CALLS_ROWS(cpus) ((cpus) <= 1 ? 1u : \
	1u << (32 - __builtin_clz((unsigned int)(cpus) - 1)))

/* The "ctl" map's one value. */
struct ctl {
	unsigned int epoch;
	unsigned int hist_base;	/* (epoch & 1) * NR_OPS: the buffer's first key */
};

/*
 * Start records: an array indexed by thread id modulo its number of
 * slots, one 64-bit word per traced operation (a write on an O_SYNC file
 * runs an fsync inside it on the same thread).  An array lookup is
 * inlined by the verifier, where a hash update and delete per call cost
 * three times the whole rest (docs/performance.md).
 *
 * The number of slots is a power of two from START_SLOTS_MIN to
 * START_SLOTS_MAX, chosen at load (tool/engine/start_slots.h): the
 * loader sizes the array's one value (all the slots: read by its
 * address where the kernel allows, as ctl's) and patches the programs'
 * mask (slots - 1, PATCH_START_MASK), the tag's shift (31 + log2
 * slots, PATCH_START_SHIFT: the thread id is shifted down from the
 * word's top), a slot's bytes (8 per traced operation,
 * PATCH_START_STRIDE) and each operation's record offset in it (8 times
 * its rank among the traced operations, PATCH_OFF_START_REC): the kernel
 * zeroes the whole value when it makes the map.  slow_start has one
 * entry per slot.
 *
 * A record is written and read as one 64-bit word, so a return can never
 * pair one thread's id with another's timestamp: the bits of the thread
 * id that the slot does not give (PID_MAX_LIMIT is 2^22: 10 bits with
 * START_SLOTS_MIN slots, fewer with more), a live bit, and the entry time
 * modulo 2^53 ns (104 days; the subtraction is done modulo 2^53 too).
 * 0 = free.
 *
 * On a 32-bit kernel, pid_max is at most PID_MAX_DEFAULT, 32768
 * (PID_MAX_LIMIT, include/linux/threads.h): with START_SLOTS_MAX slots
 * every thread has one of its own.  32-bit ARM's JIT stores and loads a
 * record as two 32-bit words, not at once: with fewer slots, two threads
 * inside a function at once on two CPUs can share a slot, and a return
 * may then read one half of each record (the takeover is counted as
 * stolen, or one call is timed with the other's low time bits).
 */
#define START_SLOTS_MIN	4096
#define START_SLOTS_MAX	32768
#define REC_TS_MASK	((1ULL << 53) - 1)
/* The bits over the time, the thread id's over the live bit: the record's tag. */
#define REC_TAG_SHIFT	53

/* The widest slot, every operation traced: the object's value_size. */
struct start_slot {
	unsigned long long rec[NR_OPS];
};

/*
 * Every counting program comes twice: with plain adds (per-CPU maps,
 * 4.6+), and as a twin whose section ends in "/" PROG_ATOMIC (".ip"
 * PROG_ATOMIC for the kprobe_multi ones by address) with atomic adds, for
 * the plain-array fallback (bpf/ext4dist.bpf.c, ADD).
 */
#define PROG_ATOMIC "atomic"
/*
 * Slow mode's programs: the same accounting plus an event per slow call,
 * in sections whose variant starts "slow" ("kprobe/f/slow", "slow."
 * PROG_ATOMIC; "ip.slow" for the kprobe_multi ones by address).
 */
#define PROG_SLOW "slow"

/*
 * Programs are named by operation, "kprobe/read" (report_op_name()),
 * and put on the file system's function of it (src/tool/fs/fs_*.c).  The
 * others: the shared read path with its f_op filter, the f_op scan on
 * the directories' ->release, and the kprobe_multi programs every
 * operation shares.
 */
#define PROG_GENERIC_READ "generic_read"
#define PROG_DIR_RELEASE "dir_release"
#define PROG_EVERY_OP "every_op"

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
/* Slow mode: events for calls of at least this many ns (0: every call) */
#define PATCH_SLOW_NS	0x7e57000000000006ULL
/* Slow mode: offsetof(struct file, f_path.dentry), 0 = not known */
#define PATCH_DENTRY_OFF 0x7e57000000000007ULL
/* Slow mode: offsetof(struct dentry, d_name.name) */
#define PATCH_DNAME_OFF	0x7e57000000000008ULL
/* Address of each operation's function (kprobe_multi by address), 0 = off */
#define PATCH_IP_BASE	0x7e57000000000010ULL	/* + enum ext4dist_op */
/*
 * fexit programs: the traced function's number of arguments, + enum
 * ext4dist_op (from its BTF prototype): the return value is the context
 * word after them.
 */
#define PATCH_NARGS_BASE 0x7e57000000000020ULL
/*
 * A field's offset in a tracepoint's record, patched into the 16-bit
 * offset of the 32-bit load that reads it (BPF_LDX | BPF_MEM | BPF_W),
 * from the event's format file: the exit tracepoint's "ret".  No record
 * is that long (PERF_MAX_TRACE_SIZE is 8192).
 */
#define PATCH_OFF_TP_RET 0x7ff0
/*
 * The start records' slots - 1, patched into the 32-bit immediate of
 * the AND (BPF_ALU64 | BPF_AND | BPF_K) that makes a thread's slot: one
 * instruction where an ld_imm64 and an AND of registers were two, and a
 * bound every verifier sees (4.9's knows no ld_imm64's value).
 */
#define PATCH_START_MASK 0x7e570009
/*
 * 31 + log2 of the start records' number of slots, patched into the
 * 32-bit immediate of the right shift (BPF_ALU64 | BPF_RSH | BPF_K) that
 * makes a record's tag: one instruction where an ld_imm64 and a shift by
 * a register were two.  Refused as a shift unless patched.
 */
#define PATCH_START_SHIFT 0x7e57000a
/*
 * A start slot's bytes (8 per traced operation), patched into the 32-bit
 * immediate of the multiply (BPF_ALU64 | BPF_MUL | BPF_K) that makes a
 * slot's offset from its index.
 */
#define PATCH_START_STRIDE 0x7e57000b
/*
 * op's start record's offset in its slot, patched into the 16-bit offset
 * of the 64-bit loads and stores (BPF_LDX | BPF_MEM | BPF_DW, BPF_STX |
 * BPF_MEM | BPF_DW) of that record: 8 times op's rank among the traced
 * operations.  Below PATCH_OFF_TP_RET, and past every map value.
 */
#define PATCH_OFF_START_REC(op) ((int)(0x7fc0 + 8 * (op)))
/* CALLS_ROWS - 1, patched into the AND that makes a CPU's calls row. */
#define PATCH_CPU_MASK 0x7e57000c

/*
 * The f_op discovery: a probe on a file system's ->release(inode, file)
 * copies the start of both objects when ext4dist itself closes something.
 * Then file->f_op == inode->i_fop (do_dentry_open set one from the
 * other), which tells the offset apart from every other word.
 */
#define SCAN_FILE_WORDS		32
#define SCAN_INODE_WORDS	128

struct open_scan {
	unsigned long long file_ptr;	/* 0 until the probe ran */
	unsigned long long inode_ptr;
	unsigned long long file[SCAN_FILE_WORDS];
	unsigned long long inode[SCAN_INODE_WORDS];
};

/*
 * Slow mode (ext4slower): one event per call at least PATCH_SLOW_NS long,
 * sent through the "events" perf event array.  The entry keeps what the
 * return needs beside the start record, in "slow_start" (same index):
 * tag is the start record it belongs to, written before the record
 * itself, so a return takes file and pos only when tag is its own record
 * (a thread that took the slot over wrote another).
 */
#define SLOW_COMM_LEN	16	/* TASK_COMM_LEN */
/* DNAME_INLINE_LEN of 64-bit kernels: what BCC's ext4slower copies. */
#define SLOW_NAME_LEN	32

/* Slow mode's operations: all but getattr, the last (ext4slower has none). */
#define NR_SLOW_OPS OP_GETATTR

struct slow_extra {
	unsigned long long tag[NR_SLOW_OPS];
	unsigned long long file[NR_SLOW_OPS];	/* struct file * */
	unsigned long long pos[NR_SLOW_OPS];	/* kiocb->ki_pos at entry */
};

/* slow_event.flags */
#define SLOW_NAME_READ	1u	/* name[] holds the dentry's name */

struct slow_event {
	unsigned long long end_ns;	/* bpf_ktime_get_ns() at the return */
	unsigned long long delta_ns;
	unsigned long long pos;		/* file offset in bytes, 0 for open, fsync */
	long long ret;			/* the return value, sign-extended */
	unsigned int tgid;
	unsigned int tid;
	unsigned int op;		/* enum ext4dist_op */
	unsigned int flags;
	char comm[SLOW_COMM_LEN];
	char name[SLOW_NAME_LEN];	/* not NUL-terminated when full */
};

/* Per CPU: events sent, and sends the kernel refused (ring full...). */
struct slow_stats {
	unsigned long long sent;
	unsigned long long failed;
};

/*
 * The name discovery's "copy these kernel addresses for me": a probe on
 * a function ext4dist's own process calls with a file as argument 1
 * copies that file's first PEEK_BYTES, and PEEK_BYTES at each address of
 * req[] (0 = none).  User space does the searching (tool/discover/name_offsets.c).
 */
#define PEEK_SLOTS	16
#define PEEK_BYTES	256

struct peek {
	unsigned long long req[PEEK_SLOTS];
	unsigned long long arg1;		/* 0 until the probe ran */
	unsigned long long runs;
	unsigned char arg1_mem[PEEK_BYTES];
	unsigned char mem[PEEK_SLOTS][PEEK_BYTES];
};

#endif
