/*
 * Attaching a loaded kprobe program to a kernel function, by one of two
 * back-ends behind one small table of operations:
 *   pmu     - perf_event_open() on the kprobe PMU (4.17+); the probe lives
 *             as long as the perf fd and leaves nothing behind.
 *   tracefs - a definition written to kprobe_events (every kernel with
 *             kprobes; the only way to set maxactive), opened as a
 *             tracepoint perf event, removed again with "-:" at detach.
 */
#ifndef EXT4DIST_ATTACH_H
#define EXT4DIST_ATTACH_H

#include <sys/types.h>

#include "loader/elf_obj.h"
#include "loader/errbuf.h"
#include "loader/tracefs.h"

struct attach_ctx {
	const char *prefix;		/* event name prefix, "ext4dist" */
	pid_t pid;			/* ours, part of every event name */
	char token[9];			/* random hex, part of every event name */
	int tracefs_sweep_only;		/* tf needed by attach_remove_stale() alone */
	char sysfs_kprobe[256];		/* ".../event_source/devices/kprobe" */
	int pmu_type;			/* -1: no kprobe PMU */
	int pmu_retprobe_bit;		/* config bit meaning "return probe" */
	struct tracefs tf;		/* dir "" when not available */
};

struct probe_spec {
	enum probe_kind kind;
	const char *func;		/* validated [A-Za-z0-9_.]+ */
	unsigned int maxactive;		/* tracefs return probes only; 0 = default */
	int prog_fd;
};

struct attach_ops;

struct probe_link {
	const struct attach_ops *ops;
	int perf_fd;
	char event[64];			/* tracefs event name, "" for pmu */
};

struct attach_ops {
	const char *name;
	int (*attach)(struct attach_ctx *ctx, const struct probe_spec *spec,
		      struct probe_link *link, struct errbuf *eb);
	void (*detach)(struct attach_ctx *ctx, struct probe_link *link);
};

extern const struct attach_ops attach_pmu_ops;
extern const struct attach_ops attach_tracefs_ops;

/*
 * Fills ctx: kprobe PMU type from sysfs (sysfs_kprobe NULL = the real one),
 * tracefs located (paths NULL = the real ones), and mounted (for this
 * process alone, see tracefs_open()) when it is not and need_tracefs is
 * set or there is no PMU: mounting costs start-up time, and the PMU path
 * needs tracefs only to look for stale events.  On that path
 * attach_remove_stale() releases tracefs again.  Each ctx draws a random
 * token for its event names: PIDs repeat across PID namespaces (two
 * containers each running ext4dist as PID 1).  Never fails for lack of a
 * back-end: the caller decides with attach_choose().
 */
void attach_ctx_init(struct attach_ctx *ctx, const char *prefix,
		     const char *sysfs_kprobe, const struct tracefs_paths *paths,
		     int need_tracefs);
void attach_ctx_release(struct attach_ctx *ctx);

/*
 * The back-end to use: want "pmu", "tracefs" or NULL for automatic (PMU
 * when present and no maxactive is asked for, else tracefs).  NULL with
 * the reason in eb when the kernel offers neither.
 */
const struct attach_ops *attach_choose(const struct attach_ctx *ctx,
				       const char *want, int need_maxactive,
				       struct errbuf *eb);

void probe_detach(struct attach_ctx *ctx, struct probe_link *link);

/*
 * One kprobe_multi link (5.18+) of prog_fd on funcs[0..n-1], cookies[i]
 * for funcs[i] (bpf_get_attach_cookie); the program must have been loaded
 * with expected_attach_type BPF_TRACE_KPROBE_MULTI.  addrs NULL: the
 * kernel looks the names up; else addrs[i] is funcs[i]'s address (the
 * names then only label messages).  *link_fd holds the probes: closing it
 * removes them all.
 */
/*
 * 0 when the kernel makes kprobe_multi links, asked with prog_fd (any
 * program loaded for BPF_TRACE_KPROBE_MULTI) without arming anything;
 * else -errno, and eb says so naming the first link ext4dist would make
 * (a kretprobe_multi link on n functions).
 */
int attach_kprobe_multi_probe(int prog_fd, unsigned int n, struct errbuf *eb);
/*
 * Calls a kprobe_multi link missed so far (its fprobe ran out of return
 * hooks, or recursion), from BPF_OBJ_GET_INFO_BY_FD (6.7+; -ENOTSUP before).
 */
int attach_kprobe_multi_missed(int link_fd, unsigned long long *missed);
int attach_kprobe_multi(int prog_fd, enum probe_kind kind,
			const char *const *funcs,
			const unsigned long long *addrs,
			const unsigned long long *cookies, unsigned int n,
			int *link_fd, struct errbuf *eb);

/*
 * Removes every kprobe_events entry named <prefix>_<pid>_* (ours, in
 * group kprobes) that no process uses: call it before attaching anything.
 * The kernel decides: removing an event that a perf fd holds open fails
 * with EBUSY (unregister_trace_kprobe(), every kernel with kprobe
 * events), and every live ext4dist holds each of its events from attach
 * to detach.  So a crashed or SIGKILLed run's events go, whatever its
 * PID, name or PID namespace, and nobody else's.  An event a live
 * instance has defined but not opened yet may go too: its attach then
 * defines it again.  Returns how many were removed; on the PMU path
 * (tracefs_sweep_only) tracefs is released afterwards.
 */
int attach_remove_stale(struct attach_ctx *ctx);

/*
 * Sum of the misses tracefs reports in kprobe_profile for the given links
 * (tracefs ones; a kretprobe misses when its maxactive instances are all
 * in use).  -ENOTSUP when none of them is a tracefs probe.
 */
int attach_tracefs_missed(struct attach_ctx *ctx,
			  const struct probe_link *links, unsigned int n,
			  unsigned long long *missed);

/*
 * One line of kprobe_events ("p:kprobes/ext4dist_123_p_ext4_file_open
 * ext4_file_open", "r10:kprobes/..."): 0 when it is an event of ours,
 * <prefix>_<pid>_... in group kprobes, with its pid and name; -ENOENT
 * for anybody else's, -ENAMETOOLONG when the name does not fit.
 */
int kprobe_event_owner(const char *line, const char *prefix, long *pid,
		       char *event, size_t size);

/* Event name for a probe: <prefix>_<pid>_<token>_<p|r>_<func>, cut to 63 chars. */
void attach_event_name(const struct attach_ctx *ctx,
		       const struct probe_spec *spec, char *buf, size_t size);

#endif
