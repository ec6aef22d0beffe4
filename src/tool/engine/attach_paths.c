// SPDX-License-Identifier: GPL-2.0
/*
 * The attach paths: every traced function's programs attached as the plan
 * decided (kprobe pairs on the PMU or tracefs, fentry/fexit, kprobe_multi,
 * the fsync tracepoints), the read path chosen on the way.
 */
#include "tool/engine/attach_paths.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include <sys/utsname.h>

#include "tool/engine/attach_prog.h"
#include "tool/engine/short_probes.h"
#include "tool/plan/probe.h"
#include "tool/plan/progs.h"
#include "tool/plan/resolve.h"

/* An operation whose function this kernel does not have: say which. */
static int missing_function(struct tracer *t, unsigned int op,
			    struct errbuf *eb)
{
	const struct fs_op *o = &t->cfg.fs->ops[op];
	const char *hidden = pretend_hides(t, o->func);
	char kernel[120];
	struct utsname u;

	if (hidden)
		snprintf(kernel, sizeof(kernel), "%s", hidden);
	else
		snprintf(kernel, sizeof(kernel), "Linux %.64s",
			 uname(&u) ? "?" : u.release);
	snprintf(t->rec.missing, sizeof(t->rec.missing),
		 "%s: no %s in %s (it arrived in %s)",
		 report_op_name(op), o->func, kernel, o->since);
	return errbuf_set(eb, -ENOENT,
			  "cannot trace %s: kernel function %s does not exist in this kernel (%s; it arrived in %s); leave %s out of --ops",
			  report_op_name(op), o->func, kernel, o->since,
			  report_op_name(op));
}

/* The file system's own read function; some never had another. */
static void read_path_own(struct tracer *t)
{
	snprintf(t->rec.read_path, sizeof(t->rec.read_path),
		 "%s (kernel %s+%s%s%s)", t->cfg.fs->ops[OP_READ].func,
		 t->cfg.fs->ops[OP_READ].since,
		 t->cfg.fs->generic_read ? "" : "; ",
		 t->cfg.fs->generic_read ? "" : t->cfg.fs->name,
		 t->cfg.fs->generic_read ? "" : " has no other");
}

static void read_path_is(struct tracer *t, const char *why)
{
	snprintf(t->rec.read_path, sizeof(t->rec.read_path),
		 "%s + f_op filter (%.180s)", t->cfg.fs->generic_read, why);
	vlog(1, "read path: %s", t->rec.read_path);
}

static int attach_read(struct tracer *t, struct errbuf *eb)
{
	const char *func = t->cfg.fs->ops[OP_READ].func;
	struct errbuf first = { "" };
	char why[200];
	int err, prepared = 0;

	if (!t->cfg.fs->generic_read) {
		err = tracer_attach_pair(t, func, eb);
		if (err == -ENOENT)
			return missing_function(t, OP_READ, eb);
		read_path_own(t);
		return err;
	}
	if (t->cfg.read_generic) {
		read_path_is(t, "forced by --read-path=generic");
		err = tracer_prepare_generic_read(t, eb);
		return err ? err : tracer_attach_pair(t, t->cfg.fs->generic_read, eb);
	}
	if (resolve_hint_lacks(&t->fn, func)) {
		/*
		 * System.map has no func: the generic path, whose f_op probe
		 * tells whether the map is this kernel's.  If it is not, try
		 * func after all.
		 */
		err = tracer_prepare_generic_read(t, &first);
		if (!err && t->fn.trusted) {
			snprintf(why, sizeof(why), "no %s in System.map: kernel before %s",
				 func, t->cfg.fs->ops[OP_READ].since);
			read_path_is(t, why);
			return tracer_attach_pair(t, t->cfg.fs->generic_read, eb);
		}
		prepared = !err;
	}
	/* Cheaper than reading kallsyms first: just try it. */
	err = tracer_attach_pair(t, func, eb);
	if (err != -ENOENT) {
		snprintf(t->rec.read_path, sizeof(t->rec.read_path),
			 "%s (kernel %s+)", func, t->cfg.fs->ops[OP_READ].since);
		return err;
	}
	vlog(1, "%s: %s; falling back to %s with an f_op filter (kernels before %s)",
	     func, eb->msg, t->cfg.fs->generic_read, t->cfg.fs->ops[OP_READ].since);
	snprintf(why, sizeof(why), "no %s: kernel before %s", func,
		 t->cfg.fs->ops[OP_READ].since);
	read_path_is(t, why);
	if (!prepared && first.msg[0])
		return errbuf_set(eb, -ENOENT, "%s", first.msg);
	if (!prepared) {
		err = tracer_prepare_generic_read(t, eb);
		if (err)
			return err;
	}
	return tracer_attach_pair(t, t->cfg.fs->generic_read, eb);
}

static int attach_kprobes(struct tracer *t, struct errbuf *eb)
{
	unsigned int op;
	int err;

	if (t->ops == &attach_tracing_ops) {
		snprintf(t->rec.addresses, sizeof(t->rec.addresses),
			 "none needed: fentry/fexit name each function by its BTF id");
		resolve_none(&t->fn);
	} else {
		resolve_addresses(&t->fn, t->cfg.fs, t->cfg.sys_module,
				  t->cfg.kallsyms_path, t->rec.addresses,
				  sizeof(t->rec.addresses));
	}
	for (op = 0; op < NR_OPS; op++) {
		if (!(t->cfg.ops_mask & (1u << op)))
			continue;
		if (op == OP_READ) {
			err = attach_read(t, eb);
		} else {
			err = tracer_attach_pair(t, t->cfg.fs->ops[op].func, eb);
			if (err == -ENOENT)
				err = missing_function(t, op, eb);
		}
		if (err)
			return err;
	}
	return 0;
}

int tracer_multi_addrs(struct tracer *t, const char *const *funcs,
		       unsigned int n, uint64_t *addrs)
{
	struct errbuf leb = { "" };
	unsigned int op, i = 0;

	if (ksym_bpf_lookup(funcs, n, addrs, NULL, &leb)) {
		vlog(1, "kprobe_multi by name: %s", leb.msg);
		return -ENOENT;
	}
	for (op = 0; op < NR_OPS; op++)
		bpf_obj_patch_imm64(&t->obj, PATCH_IP_BASE + op,
				    t->cfg.ops_mask & (1u << op) ?
				    addrs[i++] : 0);
	return 0;
}

/*
 * Every traced function under one kprobe_multi link for entries and one
 * for returns (5.18+; fprobe, so no kprobes needed).  The read path is
 * the file system's own read function here; kernels that lack it are
 * older.
 *
 * By address where the kernel tells them (ksym_bpf.c): handed names, the
 * kernel resolves them in a pass over every kernel symbol
 * (docs/performance.md).  The "ip" programs then know each function by
 * its address, patched in; by name, by the link's cookie.
 */
static int attach_multi(struct tracer *t, struct errbuf *eb)
{
	const char *funcs[NR_OPS];
	unsigned long long cookies[NR_OPS];
	uint64_t addrs[NR_OPS];
	const unsigned long long *by_addr = NULL;
	struct obj_prog *ret, *ent;
	struct prog_mode m;
	unsigned int op, n = 0;
	int err;

	for (op = 0; op < NR_OPS; op++) {
		if (!(t->cfg.ops_mask & (1u << op)))
			continue;
		funcs[n] = t->cfg.fs->ops[op].func;
		cookies[n++] = op;	/* the programs' operation id */
	}
	if (tracer_multi_addrs(t, funcs, n, addrs) == 0)
		by_addr = (const unsigned long long *)addrs;
	tracer_prog_mode(t, ATTACH_MULTI, by_addr != NULL, &m);
	ret = prog_of(&t->obj, t->cfg.fs, &m, PROBE_RETURN, NULL);
	ent = prog_of(&t->obj, t->cfg.fs, &m, PROBE_ENTRY, NULL);
	if (!ret || !ent)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no kprobe_multi programs");
	err = tracer_load(t, ret, eb);
	if (!err)
		err = tracer_load(t, ent, eb);
	if (err)
		return err;
	/* (return, entry), as every path's links[]. */
	err = attach_kprobe_multi(ret->fd, PROBE_RETURN, funcs, by_addr,
				  cookies, n, &t->links[t->nr_links], eb);
	if (err)
		return err;
	t->nr_links++;
	err = attach_kprobe_multi(ent->fd, PROBE_ENTRY, funcs, by_addr,
				  cookies, n, &t->links[t->nr_links], eb);
	if (err)
		return err;
	t->nr_links++;
	read_path_own(t);
	return 0;
}

/* One tracepoint's program loaded and put on its perf event. */
static int attach_tp_prog(struct tracer *t, struct obj_prog *p,
			  const struct tp_event *tp, struct errbuf *eb)
{
	int err = tracer_load(t, p, eb);

	if (err)
		return err;
	err = attach_tracepoint(tp, p->fd, &t->links[t->nr_links], eb);
	if (err) {
		bpf_obj_unload_prog(p);
		return err;
	}
	t->nr_links++;
	return 0;
}

/*
 * fsync through the file system's own tracepoints (--attach=tracepoint):
 * the exit first, as a kretprobe before its kprobe (tracer_attach_pair()).
 */
static int attach_tracepoints(struct tracer *t, struct errbuf *eb)
{
	const struct fs_tracepoints *tp = &t->cfg.fs->fsync_tp;
	struct obj_prog *ret, *ent;
	struct prog_mode m;
	int err;

	tracer_prog_mode(t, ATTACH_TRACEPOINT, 0, &m);
	ret = prog_of(&t->obj, t->cfg.fs, &m, PROBE_RETURN, NULL);
	ent = prog_of(&t->obj, t->cfg.fs, &m, PROBE_ENTRY, NULL);

	if (!ret || !ent)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no programs for the tracepoints %s:%s and %s:%s",
				  tp->group, tp->exit, tp->group, tp->enter);
	snprintf(t->rec.addresses, sizeof(t->rec.addresses),
		 "none needed: a tracepoint is named by its id");
	probe_patch_tracepoints(t);
	err = attach_tp_prog(t, ret, &t->tp[1], eb);
	if (!err)
		err = attach_tp_prog(t, ent, &t->tp[0], eb);
	if (!err)
		t->entry_prog[OP_FSYNC] = ent;
	return err;
}

void tracer_patch_nargs(struct tracer *t)
{
	unsigned int op, n;

	for (op = 0; op < NR_OPS; op++) {
		n = op == OP_READ && t->fids.generic_id ?
		    t->fids.generic_nargs : t->fids.nargs[op];
		if (n)
			bpf_obj_patch_imm64(&t->obj, PATCH_NARGS_BASE + op, n);
	}
}

static int attach_fentry(struct tracer *t, struct errbuf *eb)
{
	int err;

	tracer_patch_nargs(t);
	err = attach_kprobes(t, eb);
	if (!err && t->btf_obj_fd >= 0) {
		kcall_close(t->btf_obj_fd, "the module's BTF object: each program loaded for one of its functions holds it now");
		t->btf_obj_fd = -1;
	}
	return err;
}

/* The kprobe pairs' missed returns and unseen calls (PMU and tracefs). */
#define KPROBE_UNSEEN { NULL, "kprobe", 6, 7 }

/*
 * The paths, one implementation each: the loader's attach_ops for their
 * links (links[], (return, entry) pairs, which tracer_stop_entries() and
 * tracer_stop() take off the same way on every path; each link's program
 * runs from its attach: a perf event enabled there, a BPF link from its
 * creation), what attaches every traced function on it, the attach
 * error that is the kernel refusing the path itself (REFUSED_ANY: every
 * one; 0: none), and what the path's counts mean: why a return goes
 * uncounted and whether the kernel counts the entry program's skipped
 * runs.  Drains read the maps alike on every path.
 */
#define REFUSED_ANY 1

static const struct path {
	enum attach_mode path;
	const struct attach_ops *ops;
	int (*attach)(struct tracer *t, struct errbuf *eb);
	int refused;
	const char *missed;
	struct path_unseen unseen;
} paths[] = {
	/*
	 * No trampolines (Debian's arm64 6.1: error 524), or none for a
	 * function.  A trampoline has no instances to run out of.
	 */
	{ ATTACH_FENTRY, &attach_tracing_ops, attach_fentry, REFUSED_ANY,
	  "fexit has no instance limit: a return goes uncounted only when its program did not run (the kernel skips a program already running on that CPU)",
	  { NULL, "fentry", 0, 0 } },
	/* 6.12's fprobe keeps 2 return hooks per CPU and function. */
	{ ATTACH_MULTI, &attach_multi_ops, attach_multi, 0,
	  "kprobe_multi return hooks exhausted: --attach=tracefs --maxactive N allows more",
	  { "not counted on kprobe_multi (one entry program for every function: the kernel's count of its skipped runs names none)",
	    NULL, 0, 0 } },
	/* No kprobe on a traceable function's entry (riscv64 6.12). */
	{ ATTACH_TRACEFS, &attach_tracefs_ops, attach_kprobes, -EOPNOTSUPP,
	  "kretprobe instances exhausted: raise --maxactive", KPROBE_UNSEEN },
	{ ATTACH_PMU, &attach_pmu_ops, attach_kprobes, -EOPNOTSUPP,
	  "kretprobe instances exhausted: the kprobe PMU cannot raise them; --attach=tracefs --maxactive N can",
	  KPROBE_UNSEEN },
	/* Nothing to run out of: the exit event fires at every return. */
	{ ATTACH_TRACEPOINT, &attach_tp_ops, attach_tracepoints, 0,
	  "a tracepoint has no instances to run out of: the exit event did not fire for it",
	  { NULL, "tracepoint", 6, 7 } },
};

static const struct path *path_of(enum attach_mode mode)
{
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (paths[i].path == mode)
			return &paths[i];
	return NULL;
}

const char *tracer_missed_reason(const struct tracer *t)
{
	const struct path *p = path_of(t->rec.attach.path);

	if (p && p->path != ATTACH_TRACEFS)
		return p->missed;
	if (t->rec.caps.c[CAP_MAXACTIVE].state == CAP_NO)
		return "kretprobe instances exhausted: kprobe_events cannot raise the kernel's default before 4.12";
	return path_of(ATTACH_TRACEFS)->missed;
}

int tracer_path_refused(const struct tracer *t, int err, int *tracing)
{
	const struct path *p = path_of(t->rec.attach.path);

	if (!p || !err || !p->refused ||
	    (p->refused != REFUSED_ANY && err != p->refused))
		return 0;
	*tracing = p->ops == &attach_tracing_ops;
	return 1;
}

const struct path_unseen *tracer_path_unseen(const struct tracer *t)
{
	const struct path *p = path_of(t->rec.attach.path);

	return p ? &p->unseen : &path_of(ATTACH_PMU)->unseen;
}

void tracer_set_ops(struct tracer *t)
{
	const struct path *p = path_of(t->rec.attach.path);

	t->ops = p ? p->ops : NULL;
}

int tracer_attach_chosen(struct tracer *t, struct errbuf *eb)
{
	const struct path *p = path_of(t->rec.attach.path);

	tracer_set_ops(t);
	if (!p)
		return errbuf_set(eb, -EINVAL, "no attach path planned");
	return p->attach(t, eb);
}
