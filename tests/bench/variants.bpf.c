// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: alternative designs of ext4dist's per-event path, all on
 * ext4_file_read_iter (section "kprobe/ext4_file_read_iter/<variant>"),
 * loaded and attached one pair at a time by tests/bench/bench_probe.c with
 * the project's own loader, and timed with the kernel's bpf_stats.
 *
 *   null      entry and return do nothing: the floor (dispatch + stats);
 *             also as fentry/fexit, for bench_probe hold (the ops table's
 *             floor columns), not among the variants compared here
 *   bcc       BCC's ext4dist design: start hash tid -> ts, histogram in a
 *             BPF_MAP_TYPE_HASH keyed by {char op[16]; u64 slot},
 *             lookup-or-init, atomic increment (no sum, no max)
 *   pcpu      ext4dist's first design: start hash tid -> ts,
 *             per-CPU array of struct op_hist, atomic adds
 *   array     the same on a shared plain array (ext4dist's pre-4.6
 *             fallback): atomic adds on one copy
 *   pcpu_na   pcpu with plain (non-atomic) adds: per-CPU data needs none
 *   tidarr    ext4dist as shipped (bpf/ext4dist.bpf.c, which also counts
 *             overwritten records): pcpu with only the start map changed:
 *             timestamps in a plain
 *             array indexed by tid & (TIDARR_SIZE - 1) and tagged with the
 *             tid, instead of hash update + lookup + delete (the verifier
 *             inlines array lookups: no helper call, no bucket lock, no
 *             element allocation)
 *
 * Same legacy rules as bpf/ext4dist.bpf.c: no globals, no loops, no calls.
 * The PID filter and factor placeholders are kept (patched to 0 / 1000)
 * so every variant pays for them like the shipped programs do.
 */
#include "bpf_legacy.h"
#include "ext4dist_abi.h"
#include "log2.h"

#define TIDARR_SIZE 32768	/* power of two; default pid_max */

INLINE __u64 slot_of(__u64 delta, __u64 factor)
{
	__u64 slot = log2_slot(delta, factor);

	if (slot >= NR_SLOTS)
		slot = NR_SLOTS - 1;
	asm volatile("" : "+r"(slot));
	return slot & (NR_SLOTS - 1);
}

/* ---- maps ---- */

#define START_HASH(name)						\
struct legacy_map_def name SEC("maps") = {				\
	.type = BPF_MAP_TYPE_HASH,					\
	.key_size = sizeof(__u32),					\
	.value_size = sizeof(__u64),					\
	.max_entries = 10240,						\
}

START_HASH(start_bcc);
START_HASH(start_pcpu);
START_HASH(start_array);
START_HASH(start_pcpu_na);

struct dist_key {
	char op[16];
	__u64 slot;
};

/* BCC: BPF_HISTOGRAM(dist, dist_key) is a hash map for a struct key. */
struct legacy_map_def dist_bcc SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(struct dist_key),
	.value_size = sizeof(__u64),
	.max_entries = NR_OPS * NR_SLOTS,
};

struct legacy_map_def hist_pcpu SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_hist),
	.max_entries = NR_OPS,
};

struct legacy_map_def hist_array SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_hist),
	.max_entries = NR_OPS,
};

struct legacy_map_def hist_pcpu_na SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_hist),
	.max_entries = NR_OPS,
};

struct legacy_map_def hist_tidarr SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct op_hist),
	.max_entries = NR_OPS,
};

struct tid_ts {
	__u64 ts;	/* 0: empty */
	__u32 tid;
	__u32 pad;
};

struct legacy_map_def start_tidarr SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct tid_ts),
	.max_entries = TIDARR_SIZE,
};

/* ---- shared pieces ---- */

/* The shipped entry program, on a given start hash. */
#define HASH_ENTRY(startmap) do {					\
	__u64 id = bpf_get_current_pid_tgid();				\
	__u64 want = PATCHED_CONST(PATCH_TGID);				\
	__u32 tid = (__u32)id;						\
	__u64 ts;							\
									\
	if (want && (id >> 32) != want)					\
		return 0;						\
	ts = bpf_ktime_get_ns();					\
	bpf_map_update_elem(&startmap, &tid, &ts, BPF_ANY);		\
	return 0;							\
} while (0)

/*
 * The shipped return program up to the latency: other processes turned
 * away, lookup + delete in the start hash; sets delta or returns.
 */
#define HASH_DELTA(startmap, delta) do {				\
	__u64 id_ = bpf_get_current_pid_tgid();				\
	__u64 want_ = PATCHED_CONST(PATCH_TGID);			\
	__u32 tid_ = (__u32)id_;					\
	__u64 *tsp_;							\
									\
	if (want_ && (id_ >> 32) != want_)				\
		return 0;						\
	tsp_ = bpf_map_lookup_elem(&startmap, &tid_);			\
	if (!tsp_)							\
		return 0;						\
	delta = bpf_ktime_get_ns() - *tsp_;				\
	bpf_map_delete_elem(&startmap, &tid_);				\
} while (0)

/* ---- null ---- */

SEC("kprobe/ext4_file_read_iter/null") int v_null_e(void *ctx)
{
	(void)ctx;
	return 0;
}

SEC("kretprobe/ext4_file_read_iter/null") int v_null_r(void *ctx)
{
	(void)ctx;
	return 0;
}

/* The same on a BPF trampoline (bench_probe hold loads them per function). */
SEC("fentry/ext4_file_read_iter/null") int v_null_fentry(void *ctx)
{
	(void)ctx;
	return 0;
}

SEC("fexit/ext4_file_read_iter/null") int v_null_fexit(void *ctx)
{
	(void)ctx;
	return 0;
}

/* ---- bcc ---- */

SEC("kprobe/ext4_file_read_iter/bcc") int v_bcc_e(void *ctx)
{
	(void)ctx;
	HASH_ENTRY(start_bcc);
}

SEC("kretprobe/ext4_file_read_iter/bcc") int v_bcc_r(void *ctx)
{
	__u64 factor = PATCHED_CONST(PATCH_FACTOR);
	struct dist_key key;
	__u64 delta, *val, zero = 0;

	(void)ctx;
	HASH_DELTA(start_bcc, delta);
	/* BCC: struct dist_key key = {.slot = bpf_log2l(delta)};
	 * __builtin_memcpy(&key.op, op, sizeof(key.op)) with op "read". */
	__builtin_memset(&key, 0, sizeof(key));
	key.op[0] = 'r';
	key.op[1] = 'e';
	key.op[2] = 'a';
	key.op[3] = 'd';
	key.slot = slot_of(delta, factor);
	/* dist.increment(key): lookup_or_try_init, then an atomic add. */
	val = bpf_map_lookup_elem(&dist_bcc, &key);
	if (!val) {
		bpf_map_update_elem(&dist_bcc, &key, &zero, BPF_NOEXIST);
		val = bpf_map_lookup_elem(&dist_bcc, &key);
		if (!val)
			return 0;
	}
	__sync_fetch_and_add(val, 1);
	return 0;
}

/* ---- pcpu (shipped) and array (fallback): identical code ---- */

/* The shipped histogram update: atomic adds (right on both map types). */
#define ATOMIC_HIST(histmap, delta, factor) do {			\
	__u32 op_ = OP_READ;						\
	struct op_hist *h_ = bpf_map_lookup_elem(&histmap, &op_);	\
	__u64 slot_;							\
									\
	if (!h_)							\
		return 0;						\
	slot_ = slot_of(delta, factor);					\
	__sync_fetch_and_add(&h_->slots[slot_], 1);			\
	__sync_fetch_and_add(&h_->sum_ns, delta);			\
	if (delta > h_->max_ns)						\
		h_->max_ns = delta;					\
} while (0)

#define ATOMIC_RETURN(startmap, histmap) do {				\
	__u64 factor = PATCHED_CONST(PATCH_FACTOR);			\
	__u64 delta;							\
									\
	HASH_DELTA(startmap, delta);					\
	ATOMIC_HIST(histmap, delta, factor);				\
	return 0;							\
} while (0)

SEC("kprobe/ext4_file_read_iter/pcpu") int v_pcpu_e(void *ctx)
{
	(void)ctx;
	HASH_ENTRY(start_pcpu);
}

SEC("kretprobe/ext4_file_read_iter/pcpu") int v_pcpu_r(void *ctx)
{
	(void)ctx;
	ATOMIC_RETURN(start_pcpu, hist_pcpu);
}

SEC("kprobe/ext4_file_read_iter/array") int v_array_e(void *ctx)
{
	(void)ctx;
	HASH_ENTRY(start_array);
}

SEC("kretprobe/ext4_file_read_iter/array") int v_array_r(void *ctx)
{
	(void)ctx;
	ATOMIC_RETURN(start_array, hist_array);
}

/* ---- pcpu_na: per-CPU, plain adds ---- */

#define PLAIN_HIST(histmap, delta, factor) do {				\
	__u32 op_ = OP_READ;						\
	struct op_hist *h_ = bpf_map_lookup_elem(&histmap, &op_);	\
	__u64 slot_;							\
									\
	if (!h_)							\
		return 0;						\
	slot_ = slot_of(delta, factor);					\
	h_->slots[slot_] += 1;						\
	h_->sum_ns += delta;						\
	if (delta > h_->max_ns)						\
		h_->max_ns = delta;					\
} while (0)

SEC("kprobe/ext4_file_read_iter/pcpu_na") int v_pcpu_na_e(void *ctx)
{
	(void)ctx;
	HASH_ENTRY(start_pcpu_na);
}

SEC("kretprobe/ext4_file_read_iter/pcpu_na") int v_pcpu_na_r(void *ctx)
{
	__u64 factor = PATCHED_CONST(PATCH_FACTOR);
	__u64 delta;

	(void)ctx;
	HASH_DELTA(start_pcpu_na, delta);
	PLAIN_HIST(hist_pcpu_na, delta, factor);
	return 0;
}

/* ---- tidarr: start timestamps in a tid-indexed array ---- */

SEC("kprobe/ext4_file_read_iter/tidarr") int v_tidarr_e(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u32 key = (__u32)id & (TIDARR_SIZE - 1);
	struct tid_ts *e;

	(void)ctx;
	if (want && (id >> 32) != want)
		return 0;
	e = bpf_map_lookup_elem(&start_tidarr, &key);
	if (!e)
		return 0;
	e->tid = (__u32)id;
	e->ts = bpf_ktime_get_ns();
	return 0;
}

SEC("kretprobe/ext4_file_read_iter/tidarr") int v_tidarr_r(void *ctx)
{
	__u64 factor = PATCHED_CONST(PATCH_FACTOR);
	__u64 id = bpf_get_current_pid_tgid();
	__u64 want = PATCHED_CONST(PATCH_TGID);
	__u32 tid = (__u32)id;
	__u32 key = tid & (TIDARR_SIZE - 1);
	struct tid_ts *e;
	__u64 delta, ts;

	(void)ctx;
	if (want && (id >> 32) != want)
		return 0;
	e = bpf_map_lookup_elem(&start_tidarr, &key);
	if (!e)
		return 0;
	ts = e->ts;
	/* Another thread with the same low tid bits: lose this sample. */
	if (!ts || e->tid != tid)
		return 0;
	e->ts = 0;
	delta = bpf_ktime_get_ns() - ts;
	ATOMIC_HIST(hist_tidarr, delta, factor);
	return 0;
}

/*
 * ---- pieces of ext4dist's fentry/fexit programs, for bench_probe hold
 * VARIANT (BENCH_HOLD_VARIANTS): what each costs beside "null" ----
 *
 *   pid    the thread id asked, entry and return
 *   ktime  the clock read, entry and return
 *   maps   both, and the map work: the start slot at entry (with the
 *          per-CPU call counter), at return the slot, the interval's
 *          control word and the per-CPU histogram (a sum and a slot)
 */
#define TRACING_ENTRY(v)						\
SEC("fentry/ext4_file_read_iter/" #v) int v_##v##_fentry(void *ctx)
#define TRACING_RETURN(v)						\
SEC("fexit/ext4_file_read_iter/" #v) int v_##v##_fexit(void *ctx)

TRACING_ENTRY(pid)
{
	(void)ctx;
	bpf_get_current_pid_tgid();
	return 0;
}

TRACING_RETURN(pid)
{
	(void)ctx;
	bpf_get_current_pid_tgid();
	return 0;
}

TRACING_ENTRY(ktime)
{
	(void)ctx;
	bpf_ktime_get_ns();
	return 0;
}

TRACING_RETURN(ktime)
{
	(void)ctx;
	bpf_ktime_get_ns();
	return 0;
}

struct legacy_map_def ctl_maps SEC("maps") = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 1,
};

TRACING_ENTRY(maps)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, key = tid & (TIDARR_SIZE - 1), zero = 0;
	struct tid_ts *s = bpf_map_lookup_elem(&start_tidarr, &key);
	struct op_hist *h = bpf_map_lookup_elem(&hist_tidarr, &zero);

	(void)ctx;
	if (!s || !h)
		return 0;
	s->ts = bpf_ktime_get_ns();
	s->tid = tid;
	h->stolen++;
	return 0;
}

TRACING_RETURN(maps)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, key = tid & (TIDARR_SIZE - 1), zero = 0, hkey;
	struct tid_ts *s = bpf_map_lookup_elem(&start_tidarr, &key);
	struct op_hist *h;
	__u64 *c, delta;

	(void)ctx;
	if (!s || s->tid != tid || !s->ts)
		return 0;
	delta = bpf_ktime_get_ns() - s->ts;
	s->ts = 0;
	c = bpf_map_lookup_elem(&ctl_maps, &zero);
	if (!c)
		return 0;
	hkey = (*c & 1) * NR_OPS;
	h = bpf_map_lookup_elem(&hist_tidarr, &hkey);
	if (!h)
		return 0;
	h->sum_ns += delta;
	h->slots[1]++;
	return 0;
}

char _license[] SEC("license") = "GPL";
__u32 _version SEC("version") = 0;
