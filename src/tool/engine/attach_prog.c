// SPDX-License-Identifier: GPL-2.0
/*
 * One program loaded (and counted), and attached: a kprobe, kretprobe,
 * fentry or fexit on a traced function, or the pair of them.
 */
#include "tool/engine/attach_prog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/plan/probe.h"
#include "tool/plan/prog_select.h"
#include "tool/plan/resolve.h"

int tracer_load(struct tracer *t, struct obj_prog *p, struct errbuf *eb)
{
	int err = bpf_obj_load_prog(&t->obj, p, &t->lo, &t->load, eb);

	if (err)
		return err;
	if (t->cfg.verifier_log && t->load.verifier_log &&
	    prog_selected(p, t->cfg.prog_glob))
		fprintf(stderr, "--- verifier log of %s (accepted: %zu instructions given, %u processed) ---\n%s--- end of the verifier log of %s ---\n",
			p->section, p->sent_cnt, p->kinfo.verified_insns,
			t->load.verifier_log, p->section);
	t->rec.progs_loaded++;
	t->rec.insns_given += p->sent_cnt;
	t->rec.insns_processed += p->kinfo.verified_insns;
	if (!p->kinfo.verified_insns)
		t->rec.processed_unknown = 1;
	return 0;
}

void tracer_prog_mode(const struct tracer *t, enum attach_mode path,
		      int by_ip, struct prog_mode *m)
{
	m->path = path;
	m->slow = t->cfg.slow;
	m->percpu = t->percpu;
	m->by_ip = by_ip;
}

int tracer_attach_prog(struct tracer *t, const struct attach_ops *ops,
		       struct obj_prog *p, enum probe_kind kind,
		       const char *func, struct probe_link *link,
		       struct errbuf *eb)
{
	struct probe_spec spec = {
		.kind = kind,
		.func = func,
		.maxactive = t->rec.attach.maxactive,
	};
	int err;

	if (resolve_addr_of(&t->fn, func, &spec.addr))
		return errbuf_set(eb, -ENOENT,
				  "kernel function %s does not exist (not in %s)",
				  func, t->fn.source);
	/* The f_op probe may go where System.map says, before it is confirmed. */
	if (t->scan_at_hint && strcmp(func, t->cfg.fs->dir_release) == 0)
		resolve_hint_addr(&t->fn, func, &spec.addr);
	err = tracer_load(t, p, eb);
	if (err)
		return err;
	spec.prog_fd = p->fd;
	link->perf_fd = -1;
	err = ops->attach(&t->actx, &spec, link, eb);
	/* A program with no probe (a function this kernel lacks): unloaded. */
	if (err)
		bpf_obj_unload_prog(p);
	return err;
}

/* The operation traced at func (the generic read path's is read). */
static unsigned int op_of_func(const struct tracer *t, const char *func)
{
	const struct fs_table *fs = t->cfg.fs;
	unsigned int op;

	if (fs->generic_read && strcmp(func, fs->generic_read) == 0)
		return OP_READ;
	for (op = 0; op < NR_OPS; op++)
		if (fs->ops[op].func && strcmp(func, fs->ops[op].func) == 0)
			break;
	return op;
}

int tracer_bind_btf(struct tracer *t, struct obj_prog *p, const char *func)
{
	const struct fs_table *fs = t->cfg.fs;
	unsigned int op = op_of_func(t, func);
	int in_module = t->fids.in_module;
	uint32_t id = 0;

	if (fs->generic_read && strcmp(func, fs->generic_read) == 0) {
		id = t->fids.generic_id;
		in_module = 0;
	} else if (op < NR_OPS) {
		id = t->fids.id[op];
	}
	if (!id)
		return -ENOENT;
	p->attach_btf_id = id;
	p->attach_btf_obj_fd = in_module ? t->btf_obj_fd : 0;
	return 0;
}

/*
 * Loads and attaches the program for one kind of probe on func, on the
 * path planned; *out is the program.
 */
static int attach_one(struct tracer *t, enum probe_kind kind, const char *func,
		      struct probe_link *link, struct obj_prog **out,
		      struct errbuf *eb)
{
	struct prog_mode m;
	struct obj_prog *p;

	tracer_prog_mode(t, t->rec.attach.path, 0, &m);
	p = prog_of(&t->obj, t->cfg.fs, &m, kind, func);
	/* fentry/fexit: told func's BTF id and object, if it is known. */
	if (p && m.path == ATTACH_FENTRY && tracer_bind_btf(t, p, func))
		p = NULL;
	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no %s program for %s",
				  prog_kind_name(&m, kind), func);
	*out = p;
	return tracer_attach_prog(t, t->ops, p, kind, func, link, eb);
}

int tracer_attach_pair(struct tracer *t, const char *func, struct errbuf *eb)
{
	unsigned int op = op_of_func(t, func);
	const char *hidden = pretend_hides(t, func);
	struct obj_prog *p;
	int err;

	/* As the kernel answers for a function it does not have. */
	if (hidden)
		return errbuf_set(eb, -ENOENT,
				  "kernel function %s not found (%s: not asked)",
				  func, hidden);
	err = attach_one(t, PROBE_RETURN, func, &t->links[t->nr_links], &p,
			 eb);
	if (err)
		return err;
	t->nr_links++;
	err = attach_one(t, PROBE_ENTRY, func, &t->links[t->nr_links], &p, eb);
	if (err) {
		t->nr_links--;
		probe_detach(&t->actx, &t->links[t->nr_links]);
		return err;
	}
	t->nr_links++;
	if (op < NR_OPS)
		t->entry_prog[op] = p;
	return 0;
}
