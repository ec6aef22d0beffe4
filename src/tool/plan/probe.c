// SPDX-License-Identifier: GPL-2.0
/*
 * Capability probing: what the kernel offers for attaching, asked one
 * question at a time as the plan (plan.c) needs it, and --pretend's
 * answers for kernels older than the one running.
 */
#include "tool/plan/probe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "output/tool_name.h"
#include "tool/engine/fentry.h"

int pretend_on(const struct tracer *t, enum pretend what)
{
	return !!(t->cfg.pretend & (1u << what));
}

const char *pretend_hides(const struct tracer *t, const char *func)
{
	if (pretend_on(t, PRETEND_NO_READ_ITER) &&
	    func == t->cfg.fs->ops[OP_READ].func)
		return "--pretend=no-read-iter";
	if (pretend_on(t, PRETEND_NO_GETATTR) &&
	    func == t->cfg.fs->ops[OP_GETATTR].func)
		return "--pretend=no-getattr";
	return NULL;
}

/*
 * A traced function hidden by --pretend: kprobe_multi and fentry/fexit
 * came long after ext4's read and getattr functions (5.18 and 5.5 against
 * 4.10 and 4.11), so the paths that lack a fallback for them are off too.
 */
static int pretend_hides_traced(const struct tracer *t, struct errbuf *why,
				const char *what)
{
	unsigned int op;
	const char *p;

	for (op = 0; op < NR_OPS; op++) {
		if (!(t->cfg.ops_mask & (1u << op)) || !t->cfg.fs->ops[op].func)
			continue;
		p = pretend_hides(t, t->cfg.fs->ops[op].func);
		if (p)
			return errbuf_set(why, -EOPNOTSUPP,
					  "no %s (%s: %s is missing, as before %s, which predates them)",
					  what, p, t->cfg.fs->ops[op].func,
					  t->cfg.fs->ops[op].since);
	}
	return 0;
}

int probe_fs_registered(const struct tracer *t)
{
	return pretend_on(t, PRETEND_NO_EXT4) ? 0 : fs_registered(t->cfg.fs, NULL);
}

/*
 * fentry/fexit: the BTF id of every traced function, and for a module
 * an fd of its BTF object.  Whether trampolines can be made is found by
 * the attach itself (--attach=fentry: a refusal says why).
 */
static int probe_fentry(struct tracer *t, struct errbuf *why)
{
	int fd, err;

	if (pretend_on(t, PRETEND_NO_FENTRY))
		return errbuf_set(why, -EOPNOTSUPP,
				  "no fentry/fexit (--pretend=no-fentry)");
	if (pretend_hides_traced(t, why, "fentry/fexit"))
		return -EOPNOTSUPP;
	if (!t->percpu)
		return errbuf_set(why, -EOPNOTSUPP,
				  "the counters are plain arrays (no per-CPU maps): the fentry/fexit programs have no atomic twins");
	err = fentry_resolve(t->cfg.fs, t->cfg.ops_mask, t->cfg.read_generic, NULL,
			     t->cfg.sys_module, &t->fids, why);
	if (err)
		return errno_nofile(err) ? err : -ENOENT;
	if (t->fids.in_module) {
		fd = btf_kobj_fd(t->cfg.fs->module, why);
		if (fd < 0)
			return fd;
		t->btf_obj_fd = fd;
	}
	snprintf(t->rec.fentry_ids, sizeof(t->rec.fentry_ids),
		 "the kernel's BTF has every traced function: ids from %.280s%s; the trampolines are made at attach, which may still refuse them",
		 t->fids.source, t->fids.in_module ?
		 ", named to the verifier with an fd of the module's BTF object" :
		 "");
	vlog(1, "fentry/fexit: %s", t->rec.fentry_ids);
	return 0;
}

int probe_tracepoints(struct tracer *t, struct errbuf *why)
{
	const struct fs_tracepoints *tp = &t->cfg.fs->fsync_tp;
	const struct tp_event *x = &t->tp[1];
	int err;

	if (!tp->group)
		return errbuf_set(why, -EOPNOTSUPP,
				  "%s knows no tracepoints of %s (only %s's, around fsync)",
				  tool_name(), t->cfg.fs->name,
				  fs_with_tracepoints()->name);
	if (!t->percpu)
		return errbuf_set(why, -EOPNOTSUPP,
				  "the counters are plain arrays (no per-CPU maps): the tracepoint programs have no atomic twins");
	err = attach_probe_tracepoint(&t->actx, tp->group, tp->enter, NULL,
				      &t->tp[0], why);
	if (!err)
		err = attach_probe_tracepoint(&t->actx, tp->group, tp->exit,
					      tp->ret_field, &t->tp[1], why);
	if (err)
		return err;
	/* The program reads an int: "int ret" since the event exists. */
	if (x->field_size != 4 || !x->field_signed)
		return errbuf_set(why, -EINVAL,
				  "%s:%s's field %s is %d bytes, %s, where the program reads a signed 4-byte int",
				  x->group, x->event, x->field, x->field_size,
				  x->field_signed ? "signed" : "unsigned");
	snprintf(t->rec.tracepoints, sizeof(t->rec.tracepoints),
		 "%s:%s id %d and %s:%s id %d, %s at offset %d of its record (its format file); fsync alone: --attach=tracepoint --ops fsync",
		 t->tp[0].group, t->tp[0].event, t->tp[0].id, x->group,
		 x->event, x->id, x->field, x->field_off);
	return 0;
}

void probe_patch_tracepoints(struct tracer *t)
{
	int n = bpf_obj_patch_off16(&t->obj, PATCH_OFF_TP_RET,
				    (int16_t)t->tp[1].field_off);

	vlog(1, "tracepoint %s:%s: offset %d of field %s patched into %d load%s of the program (the placeholder %d was there)",
	     t->tp[1].group, t->tp[1].event, t->tp[1].field_off,
	     t->tp[1].field, n, n == 1 ? "" : "s", PATCH_OFF_TP_RET);
}

void probe_cap(struct tracer *t, enum cap_id id)
{
	struct cap *c = &t->rec.caps.c[id];
	struct errbuf why = { "" };
	int err;

	switch (id) {
	case CAP_MULTI:
		err = pretend_on(t, PRETEND_NO_MULTI) ?
		      errbuf_set(&why, -EOPNOTSUPP,
				 "no kprobe_multi links (--pretend=no-multi)") :
		      pretend_hides_traced(t, &why, "kprobe_multi links");
		if (!err)
			err = attach_kprobe_multi_available(&why);
		break;
	case CAP_KPROBE_EVENTS:
		err = attach_probe_tracefs(&t->actx, 1, &why);
		break;
	case CAP_MAXACTIVE:
		err = attach_probe_maxactive(&t->actx,
					     t->cfg.fs->ops[OP_FSYNC].func, &why);
		if (err && t->actx.before_4_12) {
			struct errbuf kernel = why;

			errbuf_fmt(&why, "%.400s (--pretend=no-maxactive)",
				   kernel.msg);
		}
		break;
	case CAP_FENTRY:
		err = probe_fentry(t, &why);
		break;
	case CAP_TRACEPOINT:
		err = probe_tracepoints(t, &why);
		break;
	case CAP_NO_PREEMPT:
		/* Not known: taken as none (check.c says so). */
		t->rec.preemption = kernel_preemption(NULL, why.msg,
						      sizeof(why.msg));
		err = t->rec.preemption == PREEMPT_MODEL_ON ? -EOPNOTSUPP :
		      t->rec.preemption == PREEMPT_MODEL_NOFILE ? -EMFILE : 0;
		break;
	default:
		err = pretend_on(t, PRETEND_NO_PMU) ?
		      errbuf_set(&why, -ENOENT,
				 "no kprobe PMU (--pretend=no-pmu)") :
		      attach_probe_pmu(&t->actx, &why);
		break;
	}
	/* A full file table answers nothing: start-up stops there. */
	c->state = errno_nofile(err) ? CAP_FAILED : err ? CAP_NO : CAP_YES;
	snprintf(c->why, sizeof(c->why), "%.*s", (int)sizeof(c->why) - 1,
		 why.msg);
	if (id == CAP_PMU && !err)
		t->rec.pmu_type = t->actx.pmu_type;
}

/*
 * Why the running kernel's kprobes must not be used, or NULL.  32-bit
 * MIPS: on Debian's 6.1 malta kernel (qemu) a kprobe's single-step break
 * is now and then taken for a stray one, an oops ("Break instruction in
 * kernel code"), under entry probes without BPF as under kretprobes
 * running programs (docs/platforms.md, "On MIPS, s390x and RISC-V").
 */
static const char *kprobes_unsafe(void)
{
	struct karch k;

	if (karch_running(&k) || strcmp(k.bpf_arch, "mips"))
		return NULL;
	return "on 32-bit MIPS a kprobe's single-step break can oops the kernel under load (\"Break instruction in kernel code\": Debian's 6.1 malta kernel, entry probes and return probes alike)";
}

/* A cap not asked for want of a file (CAP_FAILED): -EMFILE and why. */
static int cap_failed(const struct cap *c, struct errbuf *eb)
{
	if (c->state != CAP_FAILED)
		return 0;
	return errbuf_set(eb, -EMFILE, "%s", c->why);
}

int probe_decide_attach(struct tracer *t, struct errbuf *eb)
{
	const struct fs_tracepoints *tp = &t->cfg.fs->fsync_tp;
	char tps[160];
	struct attach_want w = {
		.mode = t->cfg.attach,
		.maxactive = t->cfg.maxactive,
		.generic_read = t->cfg.read_generic,
		.possible_cpus = (unsigned int)t->ncpus,
		.ops_mask = t->cfg.ops_mask,
		.slow = t->cfg.slow,
		.fs_name = t->cfg.fs->name,
		.tracepoints = tp->group ? tps : NULL,
		.kprobes_unsafe = kprobes_unsafe(),
	};
	enum cap_id need;
	int err;

	/* Planned again after a refusal at attach: undecided until it is. */
	t->rec.planned = 0;
	snprintf(tps, sizeof(tps), "%s:%s and %s:%s", tp->group, tp->enter,
		 tp->group, tp->exit);
	snprintf(t->rec.caps.pmu_dir, sizeof(t->rec.caps.pmu_dir), "%s",
		 t->actx.sysfs_kprobe);
	for (;;) {
		/* The tracing dir as far as known, for messages. */
		snprintf(t->rec.caps.tracing_dir,
			 sizeof(t->rec.caps.tracing_dir), "%s",
			 t->actx.tf.dir[0] ? t->actx.tf.dir :
			 !t->cfg.tracefs ? "/sys/kernel/tracing" :
			 t->cfg.tracefs->tracing ? t->cfg.tracefs->tracing :
			 t->cfg.tracefs->debugfs);
		err = plan_attach(&w, &t->rec.caps, &t->rec.attach, &need, eb);
		if (err != 1)
			break;
		probe_cap(t, need);
		err = cap_failed(&t->rec.caps.c[need], eb);
		if (err)
			return err;
	}
	if (err)
		return err;
	t->rec.planned = 1;
	vlog(1, "attach path: %s: %s", plan_path_name(t->rec.attach.path),
	     t->rec.attach.why);
	return 0;
}

int probe_kprobes_first(struct tracer *t, struct errbuf *eb)
{
	static const enum cap_id asked[] = { CAP_KPROBE_EVENTS, CAP_PMU };
	size_t i;
	int err;

	if (kprobes_unsafe())
		return 0;
	for (i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
		const struct cap *c = &t->rec.caps.c[asked[i]];

		if (c->state == CAP_UNKNOWN)
			probe_cap(t, asked[i]);
		err = cap_failed(c, eb);
		if (err)
			return err;
		if (c->state == CAP_YES)
			return 1;
	}
	return 0;
}

void tracer_probe_rest(struct tracer *t)
{
	struct cap *maxactive = &t->rec.caps.c[CAP_MAXACTIVE];
	enum cap_id id;

	if (t->rec.fs_registered < 0)
		t->rec.fs_registered = probe_fs_registered(t);
	if (!t->actx_ready || !t->scratch)
		return;
	for (id = 0; id < NR_CAPS; id++) {
		if (t->rec.caps.c[id].state != CAP_UNKNOWN)
			continue;
		if (id == CAP_MAXACTIVE &&
		    t->rec.caps.c[CAP_KPROBE_EVENTS].state != CAP_YES) {
			maxactive->state = CAP_NO;
			snprintf(maxactive->why, sizeof(maxactive->why),
				 "no kprobe_events");
			continue;
		}
		probe_cap(t, id);
	}
}

