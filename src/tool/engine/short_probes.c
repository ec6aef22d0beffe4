// SPDX-License-Identifier: GPL-2.0
/*
 * The short-lived probes of start-up's discoveries: the f_op scan of the
 * generic read path (read_path.c) and slow mode's file name peek
 * (name_discover.c), both kprobes whatever the run's path.
 */
#include "tool/engine/short_probes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "output/tool_name.h"
#include "tool/discover/btf_offsets.h"
#include "tool/discover/name_discover.h"
#include "tool/discover/read_path.h"
#include "tool/engine/attach_prog.h"
#include "tool/plan/probe.h"
#include "tool/plan/resolve.h"

/*
 * The f_op scan program, for the file system's directories' ->release
 * (read_path.c may put it on libfs's instead).
 */
static struct obj_prog *scan_prog(struct tracer *t)
{
	return bpf_obj_find_prog(&t->obj, PROBE_ENTRY, PROG_DIR_RELEASE,
				 "scan_release");
}

/*
 * The probe kind for the discoveries' probes: the tracer's own where it
 * is a kprobe, else (fentry, kprobe_multi, the tracepoints) the PMU, else
 * tracefs, whichever is there.
 */
static const struct attach_ops *short_ops(struct tracer *t)
{
	struct cap *c = t->rec.caps.c;

	if (t->ops == &attach_pmu_ops || t->ops == &attach_tracefs_ops)
		return t->ops;
	if (c[CAP_PMU].state == CAP_UNKNOWN)
		probe_cap(t, CAP_PMU);
	if (c[CAP_PMU].state == CAP_YES)
		return &attach_pmu_ops;
	if (t->actx.tf.dir[0] && c[CAP_KPROBE_EVENTS].state == CAP_UNKNOWN)
		probe_cap(t, CAP_KPROBE_EVENTS);
	return c[CAP_KPROBE_EVENTS].state == CAP_YES ? &attach_tracefs_ops :
						      NULL;
}

/*
 * A short-lived kprobe running p on func: prog and target name the
 * program when the object lacks it, probe the probe when no kind of
 * kprobe is there.
 */
static int attach_short(struct tracer *t, struct obj_prog *p, const char *func,
			const char *prog, const char *target,
			const char *probe, struct probe_link *link,
			struct errbuf *eb)
{
	const struct attach_ops *ops;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no %s program for %s", prog,
				  target);
	ops = short_ops(t);
	if (!ops)
		return errbuf_set(eb, -ENOTSUP,
				  "no kprobe PMU and no kprobe_events for %s on %s",
				  probe, func);
	return tracer_attach_prog(t, ops, p, PROBE_ENTRY, func, link, eb);
}

/* Its probe and program gone (the link knows its own kind of probe). */
static void detach_short(struct tracer *t, struct obj_prog *p,
			 struct probe_link *link)
{
	probe_detach(&t->actx, link);
	/* Needed once: the program goes with its probe. */
	bpf_obj_unload_prog(p);
}

/* read_path.c's f_op discovery. */
static int attach_scan(void *arg, const char *func, struct probe_link *link,
		       struct errbuf *eb)
{
	struct tracer *t = arg;

	return attach_short(t, scan_prog(t), func, "f_op scan",
			    t->cfg.fs->dir_release, "the f_op probe", link, eb);
}

static void detach_scan(void *arg, struct probe_link *link)
{
	struct tracer *t = arg;

	detach_short(t, scan_prog(t), link);
}

static struct obj_prog *peek_prog(struct tracer *t)
{
	return bpf_obj_find_prog(&t->obj, PROBE_ENTRY, NAME_PEEK_FUNC, "peek");
}

/* name_discover.c's. */
static int attach_peek(void *arg, const char *func, struct probe_link *link,
		       struct errbuf *eb)
{
	struct tracer *t = arg;

	return attach_short(t, peek_prog(t), func, "peek", func,
			    "the discovery's probe", link, eb);
}

static void detach_peek(void *arg, struct probe_link *link)
{
	struct tracer *t = arg;

	detach_short(t, peek_prog(t), link);
}

/*
 * The kernel refused the discovery's kprobe (riscv64: none on a traceable
 * function's entry): its BTF, where it has one, says the same.
 */
static int names_from_btf(struct name_found *found, struct errbuf *why)
{
	struct file_offsets o = { 0 };
	struct errbuf refused = *why;
	int err = btf_file_offsets(NULL, &o, why);

	if (err)
		return err;
	vlog(1, "file names: %s; f_path.dentry at %d and d_name.name at %d from the kernel's BTF (%s) instead",
	     refused.msg, o.dentry, o.dname, o.source);
	found->dentry_off = o.dentry;
	found->dname_off = o.dname;
	return 0;
}

void tracer_prepare_names(struct tracer *t)
{
	struct name_env env = {
		.obj = &t->obj,
		.attach_peek = attach_peek,
		.detach_peek = detach_peek,
		.arg = t,
	};
	struct name_found found = { 0 };
	struct errbuf why = { "" };
	int err = -ENOENT;

	karch_or_own(&env.k);
	if (t->cfg.slow) {
		err = name_discover(&env, &found, &why);
		if (err == -EOPNOTSUPP)
			err = names_from_btf(&found, &why);
		if (err) {
			fprintf(stderr, "%s: file names will show as [unknown]: cannot find where the kernel keeps them: %s\n",
				tool_name(), why.msg);
			/* The record keeps what fits; stderr had it whole. */
			snprintf(t->rec.names, sizeof(t->rec.names),
				 "unknown: %.*s",
				 (int)(sizeof(t->rec.names) - sizeof("unknown: ")),
				 why.msg);
		} else {
			snprintf(t->rec.names, sizeof(t->rec.names),
				 "f_path.dentry at %d, d_name.name at %d",
				 found.dentry_off, found.dname_off);
		}
	}
	t->names_off[0] = err ? 0 : found.dentry_off;
	t->names_off[1] = err ? 0 : found.dname_off;
	tracer_patch_names(t);
}

void tracer_patch_names(struct tracer *t)
{
	bpf_obj_patch_imm64(&t->obj, PATCH_DENTRY_OFF,
			    (unsigned long long)t->names_off[0]);
	bpf_obj_patch_imm64(&t->obj, PATCH_DNAME_OFF,
			    (unsigned long long)t->names_off[1]);
}

int tracer_prepare_generic_read(struct tracer *t, struct errbuf *eb)
{
	const struct sym_set map = {
		.path = t->fn.sysmap_path,
		.names = t->fn.names,
		.addrs = t->fn.addrs,
		.found = t->fn.found,
		.n = t->fn.nr_syms,
	};
	const struct read_path_env env = {
		.fs = t->cfg.fs,
		.obj = &t->obj,
		.attach_scan = attach_scan,
		.detach_scan = detach_scan,
		.arg = t,
		.fops_addr = t->cfg.fops_addr,
		.kallsyms_path = t->cfg.kallsyms_path,
		.kallsyms_no_data = pretend_on(t, PRETEND_NO_KALLSYMS_DATA),
		.sys_module = t->cfg.sys_module,
		.sysmap_path = t->fn.sysmap_path[0] ? t->fn.sysmap_path : NULL,
		.sysmap = t->fn.nr_syms ? &map : NULL,
		.tracing_fd = t->actx.tf.dir[0] ? t->actx.tf.dirfd : -1,
		.tracing_dir = t->actx.tf.dir,
		.sysmap_agrees = &t->fn.sysmap_agrees,
	};
	int err;

	/*
	 * System.map's address for the f_op probe spares the kernel a name
	 * lookup.  Should the map not be this kernel's, the probe does not
	 * run, or sees nothing System.map or kallsyms agree with (no
	 * --fops-addr, which nothing checks): then by name.
	 */
	t->scan_at_hint = t->fn.nr_syms && !t->fn.trusted && !t->cfg.fops_addr;
	err = read_path_prepare_generic(&env, t->rec.fops, sizeof(t->rec.fops),
					eb);
	if (err == -EOPNOTSUPP) {
		struct file_offsets o = { 0 };

		vlog(1, "f_op discovery: %s; from the kernel's BTF instead",
		     eb->msg);
		t->scan_at_hint = 0;
		err = btf_file_offsets(NULL, &o, eb);
		return err ? err :
		       read_path_prepare_btf(&env, o.fop, o.source,
					     t->rec.fops, sizeof(t->rec.fops),
					     eb);
	}
	if (err && t->scan_at_hint) {
		vlog(1, "the f_op probe at System.map's address of %s: %s; again by name",
		     t->cfg.fs->dir_release, eb->msg);
		t->scan_at_hint = 0;
		t->fn.sysmap_agrees = 0;
		err = read_path_prepare_generic(&env, t->rec.fops,
						sizeof(t->rec.fops), eb);
	}
	t->scan_at_hint = 0;
	if (!err)
		resolve_trust_sysmap(&t->fn, t->rec.addresses,
				     sizeof(t->rec.addresses));
	return err;
}
