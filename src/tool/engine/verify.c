// SPDX-License-Identifier: GPL-2.0
/*
 * What the verifier was given: every load a start-up makes is counted
 * here, and --check, when start-up stopped before loading any program
 * (no attach path, ext4 not loaded), still hands the verifier the
 * programs a run would load, patched exactly as a run patches them
 * (tracer.c's load_object() patched the PID filter, the time unit and
 * ext4dist's own tgid before the maps were made).  The placeholders
 * left unpatched would make the verifier prove the PID test always
 * false and skip everything after it as dead code.
 */
#include <errno.h>
#include <stdio.h>

#include "loader/loader.h"
#include "tool/plan/probe.h"
#include "tool/plan/prog_select.h"
#include "tool/engine/tracer_priv.h"

void tracer_note_load(struct tracer *t, const struct obj_prog *p)
{
	if (t->cfg.verifier_log && t->load.verifier_log &&
	    prog_selected(p, t->cfg.prog_glob))
		fprintf(stderr, "--- verifier log of %s (accepted: %zu instructions given, %u processed) ---\n%s--- end of the verifier log of %s ---\n",
			p->section, p->insn_cnt, p->kinfo.verified_insns,
			t->load.verifier_log, p->section);
	t->rec.progs_loaded++;
	t->rec.insns_given += p->insn_cnt;
	t->rec.insns_processed += p->kinfo.verified_insns;
	if (!p->kinfo.verified_insns)
		t->rec.processed_unknown = 1;
}

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
	err = bpf_obj_load_prog(&t->obj, p, &t->lo, &t->load, eb);
	if (err)
		return err;
	tracer_note_load(t, p);
	if (each && each->fn)
		each->fn(each->arg, p);
	bpf_obj_unload_prog(p);
	return 0;
}

/* The per-CPU programs, or their atomic twins before 4.6. */
static const char *twin(const struct tracer *t)
{
	return t->percpu ? NULL : PROG_ATOMIC;
}

static int verify_multi(struct tracer *t, const struct verify_each *each,
			struct errbuf *eb)
{
	int err = verify_one(t, bpf_obj_find_multi(&t->obj, PROBE_RETURN,
						   "ext4", twin(t)), each, eb);

	return err ? err : verify_one(t, bpf_obj_find_multi(&t->obj,
					PROBE_ENTRY, "ext4", twin(t)), each, eb);
}

/*
 * The fsync tracepoints' programs: their field's offset asked of the
 * kernel where start-up did not (the dumps), and patched in.
 */
static int verify_tracepoints(struct tracer *t, const struct verify_each *each,
			      struct errbuf *eb)
{
	const struct fs_tracepoints *tp = &t->cfg.fs->fsync_tp;
	int err;

	if (!t->tp[1].id) {
		err = probe_tracepoints(t, eb);
		if (err)
			return err;
	}
	probe_patch_tracepoints(t);
	err = verify_one(t, bpf_obj_find_tracepoint(&t->obj, tp->group,
						    tp->exit), each, eb);
	return err ? err : verify_one(t, bpf_obj_find_tracepoint(&t->obj,
					tp->group, tp->enter), each, eb);
}

int tracer_verify_unattached(struct tracer *t, struct errbuf *eb)
{
	return tracer_verify_each(t, NULL, NULL, eb);
}

int tracer_verify_each(struct tracer *t,
		       void (*fn)(void *arg, const struct obj_prog *p),
		       void *arg, struct errbuf *eb)
{
	const struct verify_each each = { fn, arg };
	unsigned int op;
	int err = 0;

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
	 * The generic read path's f_op constants come from its probe,
	 * which needs an attach path: 0 here, as harmless to the verifier
	 * as the real ones (one compare, one probe_read offset).
	 */
	if (t->cfg.read_generic) {
		bpf_obj_patch_imm64(&t->obj, PATCH_FOPS, 0);
		bpf_obj_patch_imm64(&t->obj, PATCH_FOP_OFF, 0);
	}
	for (op = 0; op < NR_OPS && !err; op++) {
		const char *func = t->cfg.fs->ops[op].func;

		if (!(t->cfg.ops_mask & (1u << op)) || !func)
			continue;
		if (op == OP_READ && t->cfg.read_generic)
			func = t->cfg.fs->generic_read;
		func = fs_prog_func(t->cfg.fs, func);
		err = verify_one(t, bpf_obj_find_prog(&t->obj, PROBE_RETURN,
						      func, twin(t)), &each, eb);
		if (!err)
			err = verify_one(t, bpf_obj_find_prog(&t->obj,
						PROBE_ENTRY, func, twin(t)),
					 &each, eb);
	}
	return err;
}
