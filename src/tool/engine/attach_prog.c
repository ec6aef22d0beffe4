// SPDX-License-Identifier: GPL-2.0
/*
 * One program loaded and attached: a kprobe, kretprobe, fentry or fexit
 * on a traced function, or the pair of them.
 */
#include "tool/engine/attach_prog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "tool/plan/probe.h"
#include "tool/plan/progs.h"
#include "tool/plan/resolve.h"

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
	err = bpf_obj_load_prog(&t->obj, p, &t->lo, &t->load, eb);
	if (err)
		return err;
	tracer_note_load(t, p);
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
	unsigned int op;

	if (t->cfg.fs->generic_read && strcmp(func, t->cfg.fs->generic_read) == 0)
		return OP_READ;
	for (op = 0; op < NR_OPS; op++)
		if (t->cfg.fs->ops[op].func && strcmp(func, t->cfg.fs->ops[op].func) == 0)
			break;
	return op;
}

/*
 * The fentry or fexit program of func, told its BTF id and object; NULL
 * when there is none or func's id is not known.
 */
static struct obj_prog *tracing_prog(struct tracer *t, enum probe_kind kind,
				     const char *func)
{
	struct obj_prog *p = bpf_obj_find_tracing(&t->obj, kind,
						  fs_prog_func(t->cfg.fs, func),
						  t->cfg.slow ? PROG_SLOW : NULL);
	uint32_t id = 0;
	unsigned int op = op_of_func(t, func);
	int in_module = t->fids.in_module;

	if (t->cfg.fs->generic_read && strcmp(func, t->cfg.fs->generic_read) == 0) {
		id = t->fids.generic_id;
		in_module = 0;
	} else if (op < NR_OPS) {
		id = t->fids.id[op];
	}
	if (!p || !id)
		return NULL;
	p->attach_btf_id = id;
	p->attach_btf_obj_fd = in_module ? t->btf_obj_fd : 0;
	return p;
}

/*
 * Loads and attaches the program (variant) for one kind of probe on func;
 * *out is the program.
 */
static int attach_one(struct tracer *t, enum probe_kind kind, const char *func,
		      const char *variant, struct probe_link *link,
		      struct obj_prog **out, struct errbuf *eb)
{
	struct obj_prog *p = t->ops == &attach_tracing_ops ?
			     tracing_prog(t, kind, func) :
			     bpf_obj_find_prog(&t->obj, kind,
					       fs_prog_func(t->cfg.fs, func),
					       variant);

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no %s program for %s",
				  t->ops == &attach_tracing_ops ?
				  (kind == PROBE_RETURN ? "fexit" : "fentry") :
				  kind == PROBE_RETURN ? "kretprobe" : "kprobe",
				  func);
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
	err = attach_one(t, PROBE_RETURN, func, prog_variant(t->cfg.slow, t->percpu, 0),
			 &t->links[t->nr_links], &p, eb);
	if (err)
		return err;
	t->nr_links++;
	err = attach_one(t, PROBE_ENTRY, func, prog_variant(t->cfg.slow, t->percpu, 0),
			 &t->links[t->nr_links], &p, eb);
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

void tracer_set_ops(struct tracer *t)
{
	switch (t->rec.attach.path) {
	case ATTACH_FENTRY:
		t->ops = &attach_tracing_ops;
		break;
	case ATTACH_PMU:
		t->ops = &attach_pmu_ops;
		break;
	case ATTACH_TRACEFS:
		t->ops = &attach_tracefs_ops;
		break;
	default:
		t->ops = NULL;
	}
}
