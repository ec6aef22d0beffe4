/*
 * The ext4 side of ext4dist: from the embedded object to attached probes,
 * and from the histogram map back to summed numbers.  Uses the loader; the
 * loader knows nothing of ext4.
 */
#ifndef EXT4DIST_TRACER_H
#define EXT4DIST_TRACER_H

#include "ext4dist_abi.h"
#include "loader/attach.h"
#include "loader/elf_obj.h"
#include "loader/errbuf.h"
#include "loader/obj_load.h"

struct tracer_config {
	unsigned int tgid;		/* 0 = every process */
	unsigned long long factor;	/* ns per output unit */
	unsigned int ops_mask;		/* bit per enum ext4dist_op */
	const char *attach;		/* "pmu", "tracefs", "multi" or NULL (auto) */
	unsigned int maxactive;
	int read_generic;		/* force generic_file_read_iter */
	unsigned long long fops_addr;	/* 0 = look it up */
	struct obj_load_opts load;	/* forced fallbacks (tests) */
	int no_multi;			/* test: as if no kprobe_multi */
	/* Test-only overrides of system paths; NULL = the real ones. */
	const char *kallsyms_path;
	const char *sysfs_kprobe;
	const struct tracefs_paths *tracefs;
	const char *filesystems_path;
};

struct tracer {
	struct bpf_obj obj;
	struct obj_load_state load;
	struct attach_ctx actx;
	int actx_ready;
	const struct attach_ops *ops;
	struct probe_link links[2 * NR_OPS];
	unsigned int nr_links;
	int multi_fd[2];		/* kprobe_multi links: return, entry */
	int hist_fd;
	int hist_percpu;
	int ncpus;
	int stale_removed;		/* stale events removed at start */
	const char *read_func;		/* function probed for reads */
};

/* Everything up to attached probes.  On failure, eb says why. */
int tracer_start(struct tracer *t, const struct tracer_config *cfg,
		 struct errbuf *eb);
/* Sums the histogram map over CPUs into out[NR_OPS] (running totals). */
int tracer_read(struct tracer *t, struct op_hist *out);
/*
 * Probe hits the kernel reports as missed for our probes so far: tracefs's
 * kprobe_profile, or the kprobe_multi links' own count (6.7+); 0 on the
 * PMU path, which does not report them.  A running total.
 */
unsigned long long tracer_missed(struct tracer *t);
/* Why hits are missed on this path, and what to do ("... : raise ..."). */
const char *tracer_missed_reason(const struct tracer *t);
/* Detaches every probe (return probes last), closes every fd. */
void tracer_stop(struct tracer *t);

#endif
