// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the numbers: the return side's per-interval buffers (drained:
 * read once, then zeroed) and the entry side's running counts, summed over
 * CPUs, so that every call is in exactly one place.
 */
#include <errno.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/dump/dump_maps.h"
#include "tool/engine/tracer_priv.h"

/*
 * The value at key of the map fd, into t->scratch: one per possible CPU
 * of a per-CPU map, each 8-byte aligned, else one.  How many, or -errno.
 */
static int read_cpus(struct tracer *t, int fd, unsigned int key)
{
	int err = bpf_map_lookup(fd, &key, t->scratch);

	return err ? err : t->percpu ? t->ncpus : 1;
}

/*
 * n values of size bytes (t->scratch), a struct of 64-bit counters alone,
 * summed counter by counter into out.
 */
static void sum_counters(const struct tracer *t, int n, void *out,
			 size_t size)
{
	const unsigned long long *v = t->scratch;
	unsigned long long *o = out;
	size_t i, nr = size / sizeof(*o);

	memset(out, 0, size);
	for (; n > 0; n--, v += nr)
		for (i = 0; i < nr; i++)
			o[i] += v[i];
}

_Static_assert(sizeof(struct slow_stats) == 2 * sizeof(unsigned long long),
	       "slow_stats: 64-bit counters alone");

/* The hist buffer at key, summed over CPUs into *out, then zeroed. */
static int drain_key(struct tracer *t, unsigned int key, struct op_hist *out)
{
	size_t n = t->percpu ? (size_t)t->ncpus : 1, c;
	struct op_hist *vals = t->scratch;
	int err;

	memset(out, 0, sizeof(*out));
	kcall_why("histogram buffer %u (%s): %zu value%s of %zu bytes, one per possible CPU of a per-CPU map, summed here",
		  key, report_op_name(key % NR_OPS), n, n == 1 ? "" : "s",
		  sizeof(*vals));
	err = read_cpus(t, t->hist_fd, key);
	if (err < 0)
		return err;
	if (t->cfg.dump_maps)
		dump_maps_hist(stderr, key, vals, n, t->percpu, t->cfg.unit);
	for (c = 0; c < n; c++)
		report_add_hist(out, &vals[c]);
	memset(vals, 0, n * sizeof(*vals));
	kcall_why("histogram buffer %u zeroed for its next turn (no program writes it now: the epoch points at the other one)",
		  key);
	return bpf_map_update(t->hist_fd, &key, vals, BPF_ANY);
}

/* The entry side's counts of every operation, each summed over the CPUs' rows. */
static int read_calls(struct tracer *t, struct op_calls out[NR_OPS])
{
	const struct calls_row *rows = t->scratch;
	unsigned int key = 0, r, op;
	int err;

	kcall_why("calls entered and missed so far: one value, a row of every operation's per CPU (%u rows of %zu bytes)",
		  t->calls_rows, sizeof(*rows));
	err = bpf_map_lookup(t->calls_fd, &key, t->scratch);
	if (err)
		return err;
	memset(out, 0, NR_OPS * sizeof(*out));
	for (r = 0; r < t->calls_rows; r++)
		for (op = 0; op < NR_OPS; op++) {
			out[op].entries += rows[r].op[op].entries;
			out[op].missed += rows[r].op[op].missed;
		}
	return 0;
}

/*
 * Calls of op the kernel gave no entry program, so far: it skips a
 * program already running on that CPU (preempted on a preemptible
 * kernel, or interrupted) and counts the skip, for fentry from 5.12 and
 * for kprobes from 6.7.  Such a call is in no other count: its return
 * finds no start record of it.  0 where the kernel does not count them
 * (tracer.c's note_unseen(), asked once).
 */
static unsigned long long unseen(const struct tracer *t, unsigned int op)
{
	const struct obj_prog *p = t->entry_prog[op];
	unsigned long long n = 0;

	if (!p || p->fd < 0 || !t->unseen_counted)
		return 0;
	kcall_why("how many runs of %s's entry program the kernel skipped (recursion_misses)",
		  report_op_name(op));
	if (bpf_prog_recursion_misses(p->fd, &n) < 0)
		return 0;
	return n;
}

static unsigned long long timed(const struct op_hist *h)
{
	unsigned long long n = 0;
	unsigned int s;

	for (s = 0; s < NR_SLOTS; s++)
		n += h->slots[s];
	return n;
}

/*
 * Calls entered and not accounted for yet.  Every call counted by a
 * drained buffer entered before it, so this cannot go below zero.
 */
static unsigned long long in_flight(const struct op_calls *c,
				    const struct op_hist *returns)
{
	return c->entries - c->missed - timed(returns) - returns->queued -
	       returns->errors - returns->stolen;
}

int tracer_drain(struct tracer *t, struct op_hist *ops, struct op_flow *flow,
		 struct op_hist *total_ops, struct op_flow *total_flow)
{
	unsigned int old = t->epoch, op, zero = 0;
	struct op_calls calls[NR_OPS];
	struct ctl ctl = { .epoch = old + 1,
			   .hist_base = ((old + 1) & 1) * NR_OPS };
	enum grace_how how;
	int err;

	/* New returns go to the other buffer from now on ... */
	kcall_why("epoch %u: returns count into buffer %u from now on, so buffer %u can be read whole",
		  old + 1, (old + 1) & 1, old & 1);
	err = bpf_map_update(t->ctl_fd, &zero, &ctl, BPF_ANY);
	if (err)
		return err;
	t->epoch = old + 1;
	/* ... and once no program can still be using this one, it is ours. */
	how = bpf_grace_period();
	vlog(2, "epoch %u: buffer %u drained after a grace period (%s)",
	     t->epoch, old & 1, how == GRACE_MEMBARRIER ? "membarrier" :
	     how == GRACE_MIGRATION ? "ran on every CPU" : "slept 10 ms");
	for (op = 0; op < NR_OPS; op++) {
		err = drain_key(t, (old & 1) * NR_OPS + op, &ops[op]);
		if (err)
			return err;
	}
	/* The entries after the returns: none of those is counted before its entry. */
	err = read_calls(t, calls);
	if (err)
		return err;
	for (op = 0; op < NR_OPS; op++) {
		const struct op_calls now = calls[op];
		unsigned long long skipped = unseen(t, op);

		report_add_hist(&t->returns[op], &ops[op]);
		flow[op].entries = now.entries - t->calls_seen[op].entries;
		flow[op].missed = now.missed - t->calls_seen[op].missed;
		flow[op].in_flight = in_flight(&now, &t->returns[op]);
		flow[op].unseen = skipped - t->unseen_seen[op];
		t->calls_seen[op] = now;
		t->unseen_seen[op] = skipped;
		if (total_ops)
			total_ops[op] = t->returns[op];
		if (total_flow) {
			total_flow[op].entries = now.entries;
			total_flow[op].missed = now.missed;
			total_flow[op].in_flight = flow[op].in_flight;
			total_flow[op].unseen = skipped;
		}
	}
	return 0;
}

int tracer_slow_stats(struct tracer *t, struct slow_stats *sum)
{
	int n;

	memset(sum, 0, sizeof(*sum));
	if (t->slow_stats_fd < 0)
		return -EBADF;
	n = read_cpus(t, t->slow_stats_fd, 0);
	if (n < 0)
		return n;
	sum_counters(t, n, sum, sizeof(*sum));
	return 0;
}
