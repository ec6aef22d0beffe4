// SPDX-License-Identifier: GPL-2.0
/*
 * --check, when start-up stopped before loading any program (no attach
 * path, the file system not loaded), still hands the verifier the
 * programs a run would load: the same programs (progs.h's prog_of(), as
 * the run's attach_prog.c and attach_paths.c pick them), patched exactly
 * as a run patches them (tracer.c's load_object() patched the PID
 * filter, the time unit and the tool's own tgid before the maps were
 * made).  The placeholders left unpatched would make the verifier prove
 * the PID test always false and skip everything after it as dead code.
 */
#include <errno.h>
#include <stdio.h>

#include "loader/loader.h"
#include "tool/engine/attach_paths.h"
#include "tool/engine/attach_prog.h"
#include "tool/plan/probe.h"

struct verify_each {
	void (*fn)(void *arg, const struct obj_prog *p);
	void *arg;
};

/* Loads p (patched as it is), counts it, closes it again. */
static int verify_one(struct tracer *t, struct obj_prog *p,
		      const struct verify_each *each, struct errbuf *eb)
{
	int err;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object lacks a program a run would load");
	err = tracer_load(t, p, eb);
	if (err)
		return err;
	if (each && each->fn)
		each->fn(each->arg, p);
	bpf_obj_unload_prog(p);
	return 0;
}

/* func's return and entry programs, as attach_one() picks them. */
static int verify_pair(struct tracer *t, const struct prog_mode *m,
		       const char *func, const struct verify_each *each,
		       struct errbuf *eb)
{
	enum probe_kind kinds[2] = { PROBE_RETURN, PROBE_ENTRY };
	struct obj_prog *p;
	unsigned int i;
	int err = 0;

	for (i = 0; i < 2 && !err; i++) {
		p = prog_of(&t->obj, t->cfg.fs, m, kinds[i], func);
		if (p && m->path == ATTACH_FENTRY && tracer_bind_btf(t, p, func))
			p = NULL;
		err = verify_one(t, p, each, eb);
	}
	return err;
}

/* The functions' addresses asked and patched as attach_multi() does. */
static int verify_multi(struct tracer *t, const struct verify_each *each,
			struct errbuf *eb)
{
	const char *funcs[NR_OPS];
	uint64_t addrs[NR_OPS];
	struct prog_mode m;
	unsigned int op, n = 0;

	for (op = 0; op < NR_OPS; op++)
		if (t->cfg.ops_mask & (1u << op))
			funcs[n++] = t->cfg.fs->ops[op].func;
	tracer_prog_mode(t, ATTACH_MULTI,
			 tracer_multi_addrs(t, funcs, n, addrs) == 0, &m);
	return verify_pair(t, &m, NULL, each, eb);
}

/*
 * The fsync tracepoints' programs: their field's offset asked of the
 * kernel where start-up did not (the dumps), and patched in.
 */
static int verify_tracepoints(struct tracer *t, const struct verify_each *each,
			      struct errbuf *eb)
{
	struct prog_mode m;
	int err;

	if (!t->tp[1].id) {
		err = probe_tracepoints(t, eb);
		if (err)
			return err;
	}
	probe_patch_tracepoints(t);
	tracer_prog_mode(t, ATTACH_TRACEPOINT, 0, &m);
	return verify_pair(t, &m, NULL, each, eb);
}

int tracer_verify_unattached(struct tracer *t, struct errbuf *eb)
{
	return tracer_verify_each(t, NULL, NULL, eb);
}

/* Every traced function's pair on m's path (the read path's as asked). */
static int verify_pairs(struct tracer *t, const struct prog_mode *m,
			const struct verify_each *each, struct errbuf *eb)
{
	const struct fs_table *fs = t->cfg.fs;
	unsigned int op;
	int err = 0;

	for (op = 0; op < NR_OPS && !err; op++) {
		const char *func = fs->ops[op].func;

		if (!(t->cfg.ops_mask & (1u << op)) || !func)
			continue;
		if (op == OP_READ && t->cfg.read_generic)
			func = fs->generic_read;
		err = verify_pair(t, m, func, each, eb);
	}
	return err;
}

int tracer_verify_each(struct tracer *t,
		       void (*fn)(void *arg, const struct obj_prog *p),
		       void *arg, struct errbuf *eb)
{
	const struct verify_each each = { fn, arg };
	struct tracer_record before;
	struct prog_mode m;
	int err;

	/* Nothing parsed, or maps not made: nothing a run would load yet. */
	if (!t->scratch || t->rec.progs_loaded)
		return 0;
	t->rec.verified_only = 1;
	if (t->rec.planned && t->rec.attach.path == ATTACH_MULTI)
		return verify_multi(t, &each, eb);
	/* Planned, or asked for by the dumps, which plan nothing. */
	if ((t->rec.planned && t->rec.attach.path == ATTACH_TRACEPOINT) ||
	    (!t->rec.planned && t->cfg.attach == ATTACH_TRACEPOINT))
		return verify_tracepoints(t, &each, eb);
	/*
	 * The path planned (fentry/fexit, or the kprobe pairs of the PMU
	 * and tracefs), the kprobe pairs when none was.
	 */
	tracer_prog_mode(t, t->rec.planned ? t->rec.attach.path : ATTACH_AUTO,
			 0, &m);
	/*
	 * The generic read path's f_op constants come from its probe,
	 * which needs an attach path: 0 here, as harmless to the verifier
	 * as the real ones (one compare, one probe_read offset).
	 */
	if (t->cfg.read_generic) {
		bpf_obj_patch_imm64(&t->obj, PATCH_FOPS, 0);
		bpf_obj_patch_imm64(&t->obj, PATCH_FOP_OFF, 0);
	}
	/*
	 * Slow mode's file name offsets come from the name discovery's
	 * probe, which start-up runs just before attaching: 0 here, as a
	 * run patches them when the discovery fails (the placeholders make
	 * the verifier refuse fexit's reads).
	 */
	if (t->cfg.slow) {
		bpf_obj_patch_imm64(&t->obj, PATCH_DENTRY_OFF, 0);
		bpf_obj_patch_imm64(&t->obj, PATCH_DNAME_OFF, 0);
	}
	/* fexit reads the return value after the arguments: their count. */
	if (m.path == ATTACH_FENTRY)
		tracer_patch_nargs(t);
	before = t->rec;
	err = verify_pairs(t, &m, &each, eb);
	/*
	 * fentry/fexit refused in the automatic order: a run plans again
	 * without them (tracer.c's replan_refused()), and loads the kprobe
	 * pairs instead; --attach=fentry would stop there.
	 */
	if (err && m.path == ATTACH_FENTRY && t->cfg.attach == ATTACH_AUTO &&
	    !errno_nofile(err)) {
		vlog(1, "fentry/fexit refused (%s): the kprobe pairs verified instead, as a run falls back to them",
		     eb->msg);
		t->rec = before;
		eb->msg[0] = '\0';
		m.path = ATTACH_AUTO;
		err = verify_pairs(t, &m, &each, eb);
	}
	return err;
}
