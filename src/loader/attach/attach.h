/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attaching a loaded program to the kernel, each kind behind the same
 * small table of operations (struct attach_ops), its link a probe_link:
 *   pmu          - perf_event_open() on the kprobe PMU (4.17+); the probe
 *                  lives as long as the perf fd and leaves nothing behind.
 *   tracefs      - a definition written to kprobe_events (every kernel
 *                  with kprobes; the only way to set maxactive), opened as
 *                  a tracepoint perf event, removed again with "-:".
 *   tracing      - fentry/fexit links (5.5+).
 *   kprobe_multi - one link on every function at once (5.18+).
 *   tracepoint   - a kernel tracepoint's perf event.
 */
#ifndef EXT4DIST_LOADER_ATTACH_ATTACH_H
#define EXT4DIST_LOADER_ATTACH_ATTACH_H

#include <sys/types.h>

#include "loader/obj/elf_obj.h"
#include "loader/util/errbuf.h"
#include "loader/attach/tracefs.h"

struct attach_ctx {
	const char *prefix;		/* event name prefix, "ext4dist" */
	pid_t pid;			/* ours, part of every event name */
	char token[9];			/* random hex, part of every event name */
	char sysfs_kprobe[256];		/* ".../event_source/devices/kprobe" */
	int pmu_type;			/* -1: no kprobe PMU (or not asked) */
	int pmu_retprobe_bit;		/* config bit meaning "return probe" */
	const struct tracefs_paths *paths;
	struct tracefs tf;		/* dir "" when not available */
	/*
	 * kprobe_events refused a return probe on an address ("Return
	 * probe point must be a symbol", before 4.12): the rest go by name.
	 */
	int ret_by_name;
	/*
	 * Answer for kprobe_events as a kernel before 4.12 would, without
	 * asking it (--pretend=no-maxactive): its README does not mention
	 * "rN:", and a return probe on an address is refused with EINVAL.
	 */
	int before_4_12;
};

struct probe_spec {
	enum probe_kind kind;
	const char *func;		/* validated [A-Za-z0-9_.]+ */
	/*
	 * func's address, 0 = let the kernel look the name up (which 5.10
	 * does by a scan of every symbol, per probe).
	 */
	unsigned long long addr;
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
 * fentry/fexit (5.5+): spec->prog_fd a tracing program loaded for
 * spec->func, spec->kind entry or return; the link fd is in perf_fd.
 */
extern const struct attach_ops attach_tracing_ops;
/*
 * A kernel tracepoint's perf event (attach_tracepoint() makes the link,
 * this table's detach undoes it; its attach is NULL: a tracepoint is
 * named by group and event, not by a probe_spec).
 */
extern const struct attach_ops attach_tp_ops;
/*
 * A kprobe_multi link (attach_kprobe_multi() makes it, on every function
 * at once; this table's detach closes it, taking them all off).
 */
extern const struct attach_ops attach_multi_ops;

/* A kernel tracepoint, and one field of its record (its format file). */
struct tp_event {
	char group[32];			/* "ext4" */
	char event[64];			/* "ext4_sync_file_exit" */
	int id;				/* events/GROUP/EVENT/id */
	char field[32];			/* "ret", "" when none was asked */
	int field_off;			/* its offset in the record */
	int field_size;			/* bytes */
	int field_signed;
};

/*
 * 0 when tracefs (mounted for this process where none is) has the
 * tracepoint group:event, with its id in tp; with field, also that
 * field's place in the record, from the event's format file.  Else
 * -errno, and why says what is missing.
 */
int attach_probe_tracepoint(struct attach_ctx *ctx, const char *group,
			    const char *event, const char *field,
			    struct tp_event *tp, struct errbuf *why);
/*
 * The tracepoint as a perf event (PERF_TYPE_TRACEPOINT, config its id),
 * prog_fd (a BPF_PROG_TYPE_TRACEPOINT program) set on it and enabled;
 * link holds it.  probe_detach() closes it.
 */
int attach_tracepoint(const struct tp_event *tp, int prog_fd,
		      struct probe_link *link, struct errbuf *eb);
/*
 * The offset, size and signedness of field in a tracepoint's format file
 * text ("\tfield:int ret;\toffset:24;\tsize:4;\tsigned:1;"): 0, or
 * -ENOENT when it has no such field, -EINVAL when its line is malformed.
 */
int tp_format_field(const char *format, const char *field, int *off,
		    int *size, int *is_signed);

/*
 * Fills ctx with what no probing needs: the event name prefix and our pid,
 * where the kprobe PMU's sysfs directory is (sysfs_kprobe NULL = the real
 * one) and where to look for tracefs (paths NULL = the real ones).  What
 * the kernel offers is asked by the attach_probe_*() functions, only when
 * it matters: each one costs start-up time.
 * Each ctx draws a random token for its event names: PIDs repeat across
 * PID namespaces (two containers each running ext4dist as PID 1).
 */
void attach_ctx_init(struct attach_ctx *ctx, const char *prefix,
		     const char *sysfs_kprobe, const struct tracefs_paths *paths);
void attach_ctx_release(struct attach_ctx *ctx);
/* Lets go of tracefs (its fd, a mount of ours) once it is not needed. */
void attach_tracefs_release(struct attach_ctx *ctx);

/* 0 when the kprobe PMU is there (4.17+); else -ENOENT, why says so. */
int attach_probe_pmu(struct attach_ctx *ctx, struct errbuf *why);
/*
 * 0 when tracefs (or debugfs's tracing dir) has kprobe_events, mounting
 * tracefs when none is mounted and may_mount is set; else -ENOENT.
 */
int attach_probe_tracefs(struct attach_ctx *ctx, int may_mount,
			 struct errbuf *why);
/*
 * 0 when kprobe_events honours a return probe's instance count ("rN:",
 * 4.12+), asked on func.  The kernel's README says so from 4.14; before,
 * one definition is tried: before 4.12 the kernel takes "r1:kprobes/NAME"
 * but ignores both the count and the name, creating an event named
 * r_<func>_0, which is removed again.
 */
int attach_probe_maxactive(struct attach_ctx *ctx, const char *func,
			   struct errbuf *why);

void probe_detach(struct attach_ctx *ctx, struct probe_link *link);

/*
 * A kprobe or kretprobe (what, "kprobe ext4_file_read_iter") on func
 * refused with EINVAL: -EOPNOTSUPP with the reason in eb where func is
 * one ftrace can trace (the kernel then refuses kprobes on its entry:
 * ftrace_refused.c), else 0 (not known why; eb untouched).
 */
int attach_refused_on_ftrace(const struct attach_ctx *ctx, const char *what,
			     const char *func, struct errbuf *eb);

/*
 * Writes one line to kprobe_events, or refuses it as the kernel would
 * under ctx->before_4_12.  For the tracefs back-end's own files.
 */
int kprobe_events_write(struct attach_ctx *ctx, const char *line);

/*
 * 0 when the kernel makes kprobe_multi links, asked with prog_fd (any
 * program loaded for BPF_TRACE_KPROBE_MULTI) without arming anything:
 * one entry link on one address that cannot be read (see
 * attach_multi.c); else -errno, and eb says what the kernel answered.
 */
int attach_kprobe_multi_probe(int prog_fd, struct errbuf *eb);
/*
 * The same with a program of the loader's own (r0 = 0; exit), loaded
 * for the question and closed: 0 when kprobe_multi links can be made.
 */
int attach_kprobe_multi_available(struct errbuf *eb);
/*
 * One kprobe_multi link (5.18+) of prog_fd on funcs[0..n-1], cookies[i]
 * for funcs[i] (bpf_get_attach_cookie); the program must have been loaded
 * with expected_attach_type BPF_TRACE_KPROBE_MULTI.  addrs NULL: the
 * kernel looks the names up; else addrs[i] is funcs[i]'s address (the
 * names then only label messages).  link holds the probes: its detach
 * (attach_multi_ops) removes them all.
 */
int attach_kprobe_multi(int prog_fd, enum probe_kind kind,
			const char *const *funcs,
			const unsigned long long *addrs,
			const unsigned long long *cookies, unsigned int n,
			struct probe_link *link, struct errbuf *eb);

/*
 * Removes every kprobe_events entry named <prefix>_<pid>_* (ours, in
 * group kprobes) that no process uses: call it before attaching anything.
 * The kernel decides: removing an event that a perf fd holds open fails
 * with EBUSY (unregister_trace_kprobe(), every kernel with kprobe
 * events), and every live ext4dist holds each of its events from attach
 * to detach.  So a crashed or SIGKILLed run's events go, whatever its
 * PID, name or PID namespace, and nobody else's.  An event a live
 * instance has defined but not opened yet may go too: its attach then
 * defines it again.  Returns how many were removed; tracefs stays open
 * (attach_tracefs_release() lets it go where the path needs no more).
 */
int attach_remove_stale(struct attach_ctx *ctx);


/*
 * One line of kprobe_events ("p:kprobes/ext4dist_123_p_ext4_file_open
 * ext4_file_open", "r10:kprobes/..."): 0 when it is an event of ours,
 * <prefix>_<pid>_... in group kprobes, with its pid and name; -ENOENT
 * for anybody else's, -ENAMETOOLONG when the name does not fit.
 */
int kprobe_event_owner(const char *line, const char *prefix, long *pid,
		       char *event, size_t size);

/*
 * Event name for a probe: <prefix>_<pid>_<token>_<p|r>_<func>, cut to 63
 * chars, every character kprobe_events does not take ('.') made '_'.
 */
void attach_event_name(const struct attach_ctx *ctx,
		       const struct probe_spec *spec, char *buf, size_t size);

#endif
