// SPDX-License-Identifier: GPL-2.0
#include "tool/engine/tracer_priv.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/loader.h"
#include "tool/engine/bpf_blob.h"
#include "tool/engine/fentry.h"
#include "tool/discover/name_discover.h"
#include "tool/discover/pid_filter.h"
#include "tool/plan/probe.h"
#include "tool/plan/prog_select.h"
#include "tool/plan/resolve.h"
#include "tool/discover/read_path.h"

#define TOOL_NAME "ext4dist"

/* The map called name, whose values are value_size bytes: its fd. */
static int find_map(struct tracer *t, const char *name, size_t value_size,
		    struct errbuf *eb)
{
	struct obj_map *m = bpf_obj_find_map(&t->obj, name);

	if (!m || m->def.value_size != value_size)
		return errbuf_set(eb, -EINVAL,
				  "BPF object: no \"%s\" map of %zu-byte values",
				  name, value_size);
	return m->fd;
}

static int run_loads(const char *section, void *arg);

/*
 * The embedded object for the kernel's architecture, not this binary's:
 * a 32-bit ARM ext4dist on a 64-bit ARM kernel needs the programs that
 * read arm64's pt_regs and 8-byte pointers.
 */
static int pick_object(struct tracer *t, struct bpf_blob *blob,
		       struct errbuf *eb)
{
	struct karch k;
	int err;

	err = karch_running(&k);
	if (!err)
		err = bpf_blob_for_run(k.bpf_arch, run_loads, t, blob);
	if (err == -ENOMEM || err == -EINVAL) {
		bpf_blob_error(err, blob, eb);
		return err;
	}
	if (err)
		return errbuf_set(eb, -ENOEXEC,
				  "this ext4dist carries BPF programs for %s kernels, not for this %s kernel: use the ext4dist built for %s",
				  bpf_blob_own_arch(), k.machine, k.machine);
	snprintf(t->rec.object, sizeof(t->rec.object),
		 "for %s kernels (uname -m %s; %u-byte kernel pointers)%s",
		 blob->arch, k.machine, k.word,
		 strcmp(blob->arch, bpf_blob_own_arch()) ?
		 ", not this binary's own" : "");
	return 0;
}

/*
 * Plain adds where the counters are per-CPU, the atomic twins for the
 * plain arrays before 4.6 (ext4dist_abi.h, PROG_ATOMIC): 32-bit ARM's JIT
 * has no atomic add.  Slow mode has programs of its own (PROG_SLOW); ip
 * picks the kprobe_multi programs by address.
 */
static const char *variant_of(const struct tracer *t, int ip)
{
	static const char *const names[2][2][2] = {	/* [ip][slow][atomic] */
		{ { "", PROG_ATOMIC },
		  { PROG_SLOW, PROG_SLOW "." PROG_ATOMIC } },
		{ { "ip", "ip." PROG_ATOMIC },
		  { "ip." PROG_SLOW, "ip." PROG_SLOW "." PROG_ATOMIC } },
	};

	return names[!!ip][!!t->slow][!t->percpu];
}

/*
 * The maps a run does not create: the lessons' (only --dump-bpf=refused
 * loads their programs), and in the histogram mode those only slow mode
 * uses.
 */
static const char *const hist_skips[] = {
	"events", "slow_start", "slow_stats", "peek", "lesson_hash", NULL
};
static const char *const slow_skips[] = { "lesson_hash", NULL };

const char *const *tracer_maps_skipped(int slow)
{
	return slow ? slow_skips : hist_skips;
}

/*
 * Slow mode's maps: the perf event array gets an index per possible CPU
 * (bpf_perf_event_output() with BPF_F_CURRENT_CPU uses the CPU's id).
 */
static void size_slow_maps(struct tracer *t, const struct tracer_config *cfg)
{
	struct obj_map *ev = bpf_obj_find_map(&t->obj, "events");

	t->slow = cfg->slow;
	t->lo.skip_maps = tracer_maps_skipped(t->slow);
	if (!t->slow)
		return;
	if (ev)
		ev->def.max_entries = (unsigned int)t->ncpus;
}

/* Whether word is one of the '.'-separated words of the variant v. */
static int variant_has(const char *v, const char *word)
{
	size_t n = strlen(word);

	for (; v; v = strchr(v, '.'), v = v ? v + 1 : NULL)
		if (!strncmp(v, word, n) && (v[n] == '.' || !v[n]))
			return 1;
	return 0;
}

/*
 * The programs a run of this mode may load, on any path it may take
 * (the fallbacks too): slow mode's and name discovery's ("peek") in
 * slow mode, the histogram ones otherwise, the f_op scan in both, never
 * the lessons (--dump-bpf=refused's).  The object's others are not kept.
 */
static int run_loads(const char *section, void *arg)
{
	const char *t = strchr(section, '/'), *v = t ? strchr(t + 1, '/') : NULL;
	const struct tracer *tr = arg;

	if (t && v && (size_t)(v - t - 1) == strlen(LESSON_TARGET) &&
	    !strncmp(t + 1, LESSON_TARGET, v - t - 1))
		return 0;
	v = v ? v + 1 : "";
	if (variant_has(v, "scan_release"))
		return 1;
	return tr->slow == (variant_has(v, PROG_SLOW) || variant_has(v, "peek"));
}

static size_t maps_created(const struct bpf_obj *obj)
{
	size_t i, n = 0;

	for (i = 0; i < obj->nr_maps; i++)
		n += obj->maps[i].fd >= 0;
	return n;
}

static int load_object(struct tracer *t, const struct tracer_config *cfg,
		       struct errbuf *eb)
{
	struct bpf_blob blob = { NULL, NULL, 0 };
	const struct obj_parse_opts keep = { .keep = run_loads, .arg = t };
	unsigned int code = 0, self = 0;
	const char *source;
	size_t size;
	int err, n;

	/*
	 * Only this mode's programs inflated and kept, parsed where they
	 * were inflated, and the inflated object given back before maps and
	 * programs are made.
	 */
	t->slow = cfg->slow;
	err = pick_object(t, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &keep, &t->obj, eb);
	size = blob.size;
	bpf_blob_release(&blob);
	if (err)
		return err;
	vlog(1, "embedded BPF object %s: %zu bytes, license \"%s\", %zu programs for this mode, %zu maps",
	     t->rec.object, size, t->obj.license, t->obj.nr_progs,
	     t->obj.nr_maps);
	t->lo = cfg->load;
	/* kern_version must match the running kernel before 5.0. */
	err = kversion_running(&code, &source);
	if (err)
		vlog(1, "cannot tell the kernel version (%s): kern_version 0",
		     strerror(-err));
	t->lo.kern_version = code;
	vlog(1, "kern_version 0x%06x (%u.%u.%u) from the %s", code, code >> 16,
	     (code >> 8) & 0xff, code & 0xff, source);
	n = bpf_obj_patch_imm64(&t->obj, PATCH_TGID, cfg->tgid);
	if (cfg->tgid)
		vlog(1, "PID filter: tgid %u patched into %d instructions (entry and return programs)",
		     cfg->tgid, n);
	bpf_obj_patch_imm64(&t->obj, PATCH_FACTOR, cfg->factor);
	/* The programs compare the initial PID namespace's numbers. */
	err = pid_filter_self(&self, eb);
	if (err)
		return err;
	bpf_obj_patch_imm64(&t->obj, PATCH_SELF, self);
	n = bpf_obj_patch_imm64(&t->obj, PATCH_SLOW_NS, cfg->slow_ns);
	if (cfg->slow)
		vlog(1, "slow mode: an event for each call of at least %llu ns (patched into %d return programs)",
		     cfg->slow_ns, n);
	t->ncpus = cpus_possible();
	if (errbuf_nofile(eb, t->ncpus,
			  "cannot read /sys/devices/system/cpu/possible"))
		return t->ncpus;
	if (t->ncpus < 0)
		return errbuf_set(eb, t->ncpus,
				  "cannot read /sys/devices/system/cpu/possible: %s",
				  strerror(-t->ncpus));
	size_slow_maps(t, cfg);
	privileges_raise_memlock();
	err = bpf_obj_create_maps(&t->obj, &t->lo, &t->load, eb);
	if (err)
		return err;
	t->calls_fd = find_map(t, "calls", sizeof(struct op_calls), eb);
	t->hist_fd = find_map(t, "hist", sizeof(struct op_hist), eb);
	t->ctl_fd = find_map(t, "ctl", sizeof(struct ctl), eb);
	if (t->calls_fd < 0 || t->hist_fd < 0 || t->ctl_fd < 0)
		return -EINVAL;
	t->percpu = bpf_obj_find_map(&t->obj, "hist")->def.type ==
		    BPF_MAP_TYPE_PERCPU_ARRAY;
	vlog(1, "counters: %s", t->percpu ?
	     "plain adds (per-CPU maps: no atomic instruction needed)" :
	     "atomic adds (plain arrays: several CPUs share each value)");
	if (t->slow) {
		t->events_fd = find_map(t, "events", sizeof(__u32), eb);
		t->slow_stats_fd = find_map(t, "slow_stats",
					    sizeof(struct slow_stats), eb);
		if (t->events_fd < 0 || t->slow_stats_fd < 0)
			return -EINVAL;
	}
	/* Per-CPU values come one per possible CPU, each 8-byte aligned. */
	t->scratch = calloc((size_t)t->ncpus, sizeof(struct op_hist));
	if (!t->scratch)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	return 0;
}

/* Loads p and attaches it as one kind of probe on func. */
static int attach_prog(struct tracer *t, struct obj_prog *p,
		       enum probe_kind kind, const char *func,
		       struct probe_link *link, struct errbuf *eb)
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
	if (t->scan_at_hint && strcmp(func, t->fs->dir_release) == 0)
		resolve_hint_addr(&t->fn, func, &spec.addr);
	err = bpf_obj_load_prog(&t->obj, p, &t->lo, &t->load, eb);
	if (err)
		return err;
	tracer_note_load(t, p);
	spec.prog_fd = p->fd;
	link->perf_fd = -1;
	err = t->ops->attach(&t->actx, &spec, link, eb);
	/* A program with no probe (a function this kernel lacks): unloaded. */
	if (err)
		bpf_obj_unload_prog(p);
	return err;
}

/* The operation traced at func (the generic read path's is read). */
static unsigned int op_of_func(const struct tracer *t, const char *func)
{
	unsigned int op;

	if (t->fs->generic_read && strcmp(func, t->fs->generic_read) == 0)
		return OP_READ;
	for (op = 0; op < NR_OPS; op++)
		if (t->fs->ops[op].func && strcmp(func, t->fs->ops[op].func) == 0)
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
						  fs_prog_func(t->fs, func),
						  t->slow ? PROG_SLOW : NULL);
	uint32_t id = 0;
	unsigned int op = op_of_func(t, func);
	int in_module = t->fids.in_module;

	if (t->fs->generic_read && strcmp(func, t->fs->generic_read) == 0) {
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
					       fs_prog_func(t->fs, func),
					       variant);

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no %s program for %s",
				  t->ops == &attach_tracing_ops ?
				  (kind == PROBE_RETURN ? "fexit" : "fentry") :
				  kind == PROBE_RETURN ? "kretprobe" : "kprobe",
				  func);
	*out = p;
	return attach_prog(t, p, kind, func, link, eb);
}

/*
 * Return probe first: a return without a recorded entry is ignored, while
 * an entry whose return probe is not there yet would stay in the map.
 */
static int attach_pair(struct tracer *t, const char *func, struct errbuf *eb)
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
	err = attach_one(t, PROBE_RETURN, func, variant_of(t, 0),
			 &t->links[t->nr_links], &p, eb);
	if (err)
		return err;
	t->nr_links++;
	err = attach_one(t, PROBE_ENTRY, func, variant_of(t, 0),
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

/*
 * The f_op scan program: its section names the file system's directory
 * ->release, but read_path.c may put it on libfs's instead.
 */
static struct obj_prog *scan_prog(struct tracer *t)
{
	return bpf_obj_find_prog(&t->obj, PROBE_ENTRY,
				 fs_prog_func(t->fs, t->fs->dir_release),
				 "scan_release");
}

static const struct attach_ops *peek_ops(struct tracer *t);

/* A short-lived probe for read_path.c's f_op discovery. */
static int attach_scan(void *arg, const char *func, struct probe_link *link,
		       struct errbuf *eb)
{
	struct tracer *t = arg;
	const struct attach_ops *saved = t->ops;
	struct obj_prog *p = scan_prog(t);
	int err;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no f_op scan program for %s",
				  t->fs->dir_release);
	/* A kprobe, also on the fentry path (peek_ops()). */
	t->ops = peek_ops(t);
	if (!t->ops) {
		t->ops = saved;
		return errbuf_set(eb, -ENOTSUP,
				  "no kprobe PMU and no kprobe_events for the f_op probe on %s",
				  func);
	}
	err = attach_prog(t, p, PROBE_ENTRY, func, link, eb);
	t->ops = saved;
	return err;
}

static void detach_scan(void *arg, struct probe_link *link)
{
	struct tracer *t = arg;

	probe_detach(&t->actx, link);
	/* Needed once: the program goes with its probe. */
	bpf_obj_unload_prog(scan_prog(t));
}

/*
 * The probe kind for the name discovery's peek: the tracer's own, or on
 * the kprobe_multi path the PMU, else tracefs, whichever is there.
 */
static const struct attach_ops *peek_ops(struct tracer *t)
{
	struct cap *c = t->rec.caps.c;

	if (t->ops && t->ops != &attach_tracing_ops)
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

static struct obj_prog *peek_prog(struct tracer *t)
{
	return bpf_obj_find_prog(&t->obj, PROBE_ENTRY, NAME_PEEK_FUNC, "peek");
}

/* name_discover.c's short-lived probe. */
static int attach_peek(void *arg, const char *func, struct probe_link *link,
		       struct errbuf *eb)
{
	struct tracer *t = arg;
	const struct attach_ops *saved = t->ops;
	struct obj_prog *p = peek_prog(t);
	int err;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no peek program for %s", func);
	t->ops = peek_ops(t);
	if (!t->ops) {
		t->ops = saved;
		return errbuf_set(eb, -ENOTSUP,
				  "no kprobe PMU and no kprobe_events for the discovery's probe on %s",
				  func);
	}
	err = attach_prog(t, p, PROBE_ENTRY, func, link, eb);
	t->ops = saved;
	return err;
}

static void detach_peek(void *arg, struct probe_link *link)
{
	struct tracer *t = arg;

	/* The link knows its own kind of probe. */
	probe_detach(&t->actx, link);
	bpf_obj_unload_prog(peek_prog(t));
}

/*
 * Slow mode's file names: the two offsets discovered and patched in, or
 * 0 (the events say the name is unknown) with a warning saying why.
 */
static void prepare_names(struct tracer *t)
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
	if (t->slow) {
		err = name_discover(&env, &found, &why);
		if (err) {
			fprintf(stderr, "%s: file names will show as [unknown]: cannot find where the kernel keeps them: %s\n",
				TOOL_NAME, why.msg);
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
	bpf_obj_patch_imm64(&t->obj, PATCH_DENTRY_OFF,
			    err ? 0 : (unsigned long long)found.dentry_off);
	bpf_obj_patch_imm64(&t->obj, PATCH_DNAME_OFF,
			    err ? 0 : (unsigned long long)found.dname_off);
}

/* The generic read path's two numbers, patched in (read_path.c). */
static int prepare_generic_read(struct tracer *t,
				const struct tracer_config *cfg,
				struct errbuf *eb)
{
	const struct sym_set map = {
		.path = t->fn.sysmap_path,
		.names = t->fn.names,
		.addrs = t->fn.addrs,
		.found = t->fn.found,
		.n = t->fn.nr_syms,
	};
	const struct read_path_env env = {
		.fs = t->fs,
		.obj = &t->obj,
		.attach_scan = attach_scan,
		.detach_scan = detach_scan,
		.arg = t,
		.fops_addr = cfg->fops_addr,
		.kallsyms_path = cfg->kallsyms_path,
		.kallsyms_no_data = pretend_on(t, PRETEND_NO_KALLSYMS_DATA),
		.sys_module = cfg->sys_module,
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
	t->scan_at_hint = t->fn.nr_syms && !t->fn.trusted && !cfg->fops_addr;
	err = read_path_prepare_generic(&env, t->rec.fops, sizeof(t->rec.fops),
					eb);
	if (err && t->scan_at_hint) {
		vlog(1, "the f_op probe at System.map's address of %s: %s; again by name",
		     t->fs->dir_release, eb->msg);
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

/* An operation whose function this kernel does not have: say which. */
static int missing_function(struct tracer *t, unsigned int op,
			    struct errbuf *eb)
{
	const struct fs_op *o = &t->fs->ops[op];
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
		 "%s (kernel %s+%s%s%s)", t->fs->ops[OP_READ].func,
		 t->fs->ops[OP_READ].since,
		 t->fs->generic_read ? "" : "; ",
		 t->fs->generic_read ? "" : t->fs->name,
		 t->fs->generic_read ? "" : " has no other");
}

static void read_path_is(struct tracer *t, const char *why)
{
	snprintf(t->rec.read_path, sizeof(t->rec.read_path),
		 "%s + f_op filter (%.180s)", t->fs->generic_read, why);
	vlog(1, "read path: %s", t->rec.read_path);
}

static int attach_read(struct tracer *t, const struct tracer_config *cfg,
		       struct errbuf *eb)
{
	const char *func = t->fs->ops[OP_READ].func;
	struct errbuf first = { "" };
	char why[200];
	int err, prepared = 0;

	if (!t->fs->generic_read) {
		err = attach_pair(t, func, eb);
		if (err == -ENOENT)
			return missing_function(t, OP_READ, eb);
		read_path_own(t);
		return err;
	}
	if (cfg->read_generic) {
		read_path_is(t, "forced by --read-path=generic");
		err = prepare_generic_read(t, cfg, eb);
		return err ? err : attach_pair(t, t->fs->generic_read, eb);
	}
	if (resolve_hint_lacks(&t->fn, func)) {
		/*
		 * System.map has no func: the generic path, whose f_op probe
		 * tells whether the map is this kernel's.  If it is not, try
		 * func after all.
		 */
		err = prepare_generic_read(t, cfg, &first);
		if (!err && t->fn.trusted) {
			snprintf(why, sizeof(why), "no %s in System.map: kernel before %s",
				 func, t->fs->ops[OP_READ].since);
			read_path_is(t, why);
			return attach_pair(t, t->fs->generic_read, eb);
		}
		prepared = !err;
	}
	/* Cheaper than reading kallsyms first: just try it. */
	err = attach_pair(t, func, eb);
	if (err != -ENOENT) {
		snprintf(t->rec.read_path, sizeof(t->rec.read_path),
			 "%s (kernel %s+)", func, t->fs->ops[OP_READ].since);
		return err;
	}
	vlog(1, "%s: %s; falling back to %s with an f_op filter (kernels before %s)",
	     func, eb->msg, t->fs->generic_read, t->fs->ops[OP_READ].since);
	snprintf(why, sizeof(why), "no %s: kernel before %s", func,
		 t->fs->ops[OP_READ].since);
	read_path_is(t, why);
	if (!prepared && first.msg[0])
		return errbuf_set(eb, -ENOENT, "%s", first.msg);
	if (!prepared) {
		err = prepare_generic_read(t, cfg, eb);
		if (err)
			return err;
	}
	return attach_pair(t, t->fs->generic_read, eb);
}

static int attach_kprobes(struct tracer *t, const struct tracer_config *cfg,
			  struct errbuf *eb)
{
	unsigned int op;
	int err;

	if (t->ops == &attach_tracing_ops) {
		snprintf(t->rec.addresses, sizeof(t->rec.addresses),
			 "none needed: fentry/fexit name each function by its BTF id");
		resolve_none(&t->fn);
	} else {
		resolve_addresses(&t->fn, t->fs, cfg->sys_module,
				  cfg->kallsyms_path, t->rec.addresses,
				  sizeof(t->rec.addresses));
	}
	for (op = 0; op < NR_OPS; op++) {
		if (!(t->ops_mask & (1u << op)))
			continue;
		if (op == OP_READ) {
			err = attach_read(t, cfg, eb);
		} else {
			err = attach_pair(t, t->fs->ops[op].func, eb);
			if (err == -ENOENT)
				err = missing_function(t, op, eb);
		}
		if (err)
			return err;
	}
	return 0;
}

/*
 * Every traced function under one kprobe_multi link for entries and one
 * for returns (5.18+; fprobe, so no kprobes needed).  The read path is
 * ext4_file_read_iter here; kernels that lack it are older.
 *
 * By address where the kernel tells them (ksym_bpf.c): handed names, the
 * kernel resolves them in a pass over every kernel symbol
 * (tests/bench/README.md).  The "ip" programs then know each function by
 * its address, patched in; by name, by the link's cookie.
 */
static int attach_multi(struct tracer *t, struct errbuf *eb)
{
	const char *funcs[NR_OPS], *variant;
	unsigned long long cookies[NR_OPS];
	uint64_t addrs[NR_OPS];
	const unsigned long long *by_addr = NULL;
	struct obj_prog *ret, *ent;
	unsigned int op, n = 0;
	struct errbuf leb = { "" };
	int err;

	for (op = 0; op < NR_OPS; op++) {
		if (!(t->ops_mask & (1u << op)))
			continue;
		funcs[n] = t->fs->ops[op].func;
		cookies[n++] = op;	/* the programs' operation id */
	}
	int ip = 0;

	if (ksym_bpf_lookup(funcs, n, addrs, &leb) == 0) {
		unsigned int i = 0;

		for (op = 0; op < NR_OPS; op++)
			bpf_obj_patch_imm64(&t->obj, PATCH_IP_BASE + op,
					    t->ops_mask & (1u << op) ?
					    addrs[i++] : 0);
		by_addr = (const unsigned long long *)addrs;
		ip = 1;
	} else {
		vlog(1, "kprobe_multi by name: %s", leb.msg);
	}
	variant = variant_of(t, ip);
	ret = bpf_obj_find_multi(&t->obj, PROBE_RETURN, "ext4", variant);
	ent = bpf_obj_find_multi(&t->obj, PROBE_ENTRY, "ext4", variant);
	if (!ret || !ent)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no kprobe_multi programs");
	err = bpf_obj_load_prog(&t->obj, ret, &t->lo, &t->load, eb);
	if (!err)
		err = bpf_obj_load_prog(&t->obj, ent, &t->lo, &t->load, eb);
	if (err)
		return err;
	tracer_note_load(t, ret);
	tracer_note_load(t, ent);
	err = attach_kprobe_multi(ret->fd, PROBE_RETURN, funcs, by_addr,
				  cookies, n, &t->multi_fd[0], eb);
	if (err)
		return err;
	err = attach_kprobe_multi(ent->fd, PROBE_ENTRY, funcs, by_addr,
				  cookies, n, &t->multi_fd[1], eb);
	if (err)
		return err;
	read_path_own(t);
	return 0;
}

/* One tracepoint's program loaded and put on its perf event. */
static int attach_tp_prog(struct tracer *t, struct obj_prog *p,
			  const struct tp_event *tp, struct errbuf *eb)
{
	int err = bpf_obj_load_prog(&t->obj, p, &t->lo, &t->load, eb);

	if (err)
		return err;
	tracer_note_load(t, p);
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
 * the exit first, as a kretprobe before its kprobe (attach_pair()).
 */
static int attach_tracepoints(struct tracer *t, struct errbuf *eb)
{
	const struct fs_tracepoints *tp = &t->fs->fsync_tp;
	struct obj_prog *ret = bpf_obj_find_tracepoint(&t->obj, tp->group,
						       tp->exit);
	struct obj_prog *ent = bpf_obj_find_tracepoint(&t->obj, tp->group,
						       tp->enter);
	int err;

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

static void set_ops(struct tracer *t)
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

/* Each fexit program's argument count, from the BTF prototype. */
static void patch_nargs(struct tracer *t)
{
	unsigned int op, n;

	for (op = 0; op < NR_OPS; op++) {
		n = op == OP_READ && t->fids.generic_id ?
		    t->fids.generic_nargs : t->fids.nargs[op];
		if (n)
			bpf_obj_patch_imm64(&t->obj, PATCH_NARGS_BASE + op, n);
	}
}

static int attach_chosen(struct tracer *t, const struct tracer_config *cfg,
			 struct errbuf *eb)
{
	int err;

	set_ops(t);
	if (t->rec.attach.path == ATTACH_FENTRY) {
		patch_nargs(t);
		err = attach_kprobes(t, cfg, eb);
		if (!err && t->btf_obj_fd >= 0) {
			kcall_close(t->btf_obj_fd, "the module's BTF object: each program loaded for one of its functions holds it now");
			t->btf_obj_fd = -1;
		}
		return err;
	}
	if (t->rec.attach.path == ATTACH_MULTI)
		return attach_multi(t, eb);
	if (t->rec.attach.path == ATTACH_TRACEPOINT)
		return attach_tracepoints(t, eb);
	return attach_kprobes(t, cfg, eb);
}

/* The tracing dir in use, for --check and -v. */
static void note_tracing_dir(struct tracer *t)
{
	if (t->actx.tf.dir[0])
		snprintf(t->rec.tracing_dir, sizeof(t->rec.tracing_dir),
			 "%s%s", t->actx.tf.dir, t->actx.tf.mounted[0] ?
			 " (mounted for this process alone)" : "");
}

/*
 * fentry/fexit taken by default, and the kernel refused it at attach
 * (Debian's arm64 6.1 makes no trampolines; a function may not take
 * one): what it made is undone, the capability is "no" with the
 * kernel's reason, and the plan is made again without it.
 */
static int fentry_refused(struct tracer *t, const struct tracer_config *cfg,
			  struct errbuf *eb)
{
	struct cap *c = &t->rec.caps.c[CAP_FENTRY];
	size_t i;
	int err;

	vlog(1, "fentry/fexit refused at attach (%s): planning again without it",
	     eb->msg);
	tracer_stop_entries(t);
	for (i = t->nr_links; i-- > 0;)
		probe_detach(&t->actx, &t->links[i]);
	t->nr_links = 0;
	memset(t->entry_prog, 0, sizeof(t->entry_prog));
	for (i = 0; i < t->obj.nr_progs; i++)
		if (t->obj.progs[i].tracing && t->obj.progs[i].fd >= 0)
			bpf_obj_unload_prog(&t->obj.progs[i]);
	if (t->btf_obj_fd >= 0)
		kcall_close(t->btf_obj_fd, "the module's BTF object: fentry/fexit was refused, kprobes need no BTF");
	t->btf_obj_fd = -1;
	c->state = CAP_NO;
	snprintf(c->why, sizeof(c->why), "%.*s",
		 (int)sizeof(c->why) - 1, eb->msg);
	t->rec.read_path[0] = t->rec.addresses[0] = '\0';
	eb->msg[0] = '\0';
	/* Undecided again: --check must not print a path no plan chose. */
	t->rec.planned = 0;
	err = probe_decide_attach(t, cfg, eb);
	if (err)
		return err;
	/* start() let tracefs go when fentry was chosen. */
	if (t->rec.attach.path == ATTACH_TRACEFS && !t->actx.tf.dir[0]) {
		err = attach_probe_tracefs(&t->actx, 1, eb);
		if (err)
			return err;
		note_tracing_dir(t);
	}
	return attach_chosen(t, cfg, eb);
}

/* Up to maps made and constants patched: nothing attached. */
static int prepare(struct tracer *t, const struct tracer_config *cfg,
		   struct errbuf *eb)
{
	int err;

	t->fs = cfg->fs;
	t->ops_mask = cfg->ops_mask;
	t->pretend = cfg->pretend;
	t->sys_module = cfg->sys_module;
	t->read_generic = cfg->read_generic;
	if (cfg->slow && (cfg->ops_mask & (1u << OP_GETATTR)))
		return errbuf_set(eb, -EINVAL,
				  "getattr has no slow mode (BCC's ext4slower traces read, write, open and fsync): leave getattr out of --ops");
	err = fs_check_wanted(t->fs, cfg->ops_mask, cfg->read_generic, eb);
	if (err)
		return err;
	t->verifier_log = cfg->verifier_log;
	t->prog_glob = cfg->prog_glob;
	t->dump_maps = cfg->dump_maps;
	t->unit = cfg->factor == 1000000ULL ? "msecs" : "usecs";
	if (privileges_check())
		return errbuf_set(eb, -EPERM,
				  "permission denied: ext4dist loads BPF programs and creates kprobes; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)");
	t->rec.privileged = 1;
	attach_ctx_init(&t->actx, TOOL_NAME, cfg->sysfs_kprobe, cfg->tracefs);
	t->actx.before_4_12 = pretend_on(t, PRETEND_NO_MAXACTIVE);
	t->actx_ready = 1;
	return load_object(t, cfg, eb);
}

/*
 * Whether the kernel counts the calls it gave no entry program (it skips
 * a program already running on that CPU: tally.c's "unseen"), asked once,
 * and said with -v.
 */
static void note_unseen(struct tracer *t)
{
	unsigned long long n;
	unsigned int op, code;
	const char *source;

	if (t->rec.attach.path == ATTACH_MULTI) {
		vlog(1, "unseen calls: not counted on kprobe_multi (one entry program for every function: the kernel's count of its skipped runs names none)");
		return;
	}
	for (op = 0; op < NR_OPS && !t->entry_prog[op]; op++)
		;
	if (op == NR_OPS)
		return;
	kcall_why("does this kernel count the runs of an entry program it skips (bpf_prog_info's recursion_misses, 5.12+)?");
	if (bpf_prog_recursion_misses(t->entry_prog[op]->fd, &n) < 0)
		vlog(1, "unseen calls: not counted (the kernel's bpf_prog_info has no recursion_misses before 5.12)");
	else if (t->rec.attach.path != ATTACH_FENTRY &&
		 kversion_running(&code, &source) == 0 &&
		 code < kversion_code(6, 7, 0))
		vlog(1, "unseen calls: not counted (the kernel counts skipped kprobe and tracepoint programs from 6.7; they run with preemption off, so only an interrupting one is skipped)");
	else {
		t->unseen_counted = 1;
		vlog(1, "unseen calls: counted (each %s program's recursion_misses)",
		     t->rec.attach.path == ATTACH_FENTRY ? "fentry" :
		     t->rec.attach.path == ATTACH_TRACEPOINT ? "tracepoint" :
		     "kprobe");
	}
}

/*
 * Every program is in the kernel: their instructions go, and the heap
 * they and the start-up's other buffers took goes back to the kernel
 * (glibc keeps freed memory inside its heap until asked).
 */
static void give_back(struct tracer *t)
{
	bpf_obj_drop_insns(&t->obj);
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static int start(struct tracer *t, const struct tracer_config *cfg,
		 struct errbuf *eb)
{
	int err;

	err = prepare(t, cfg, eb);
	if (err)
		return err;
	t->rec.nr_maps = maps_created(&t->obj);
	t->rec.hist_type = map_type_name(bpf_obj_find_map(&t->obj,
							  "hist")->def.type);
	t->rec.names_ok = t->load.names_ok;
	t->rec.names_pretend = cfg->load.no_names;
	t->rec.percpu = t->percpu;
	err = probe_decide_attach(t, cfg, eb);
	if (err)
		return err;
	/* A tracefs run killed earlier left events: only look, never mount. */
	if (!t->actx.tf.dir[0])
		attach_probe_tracefs(&t->actx, 0, NULL);
	t->stale_removed = attach_remove_stale(&t->actx);
	if (t->stale_removed)
		fprintf(stderr, "ext4dist: removed %d stale kprobe event%s left by %s processes that are gone\n",
			t->stale_removed, t->stale_removed == 1 ? "" : "s",
			TOOL_NAME);
	note_tracing_dir(t);
	/* Off the tracefs path it served the sweep alone: no fd kept. */
	if (t->rec.attach.path != ATTACH_TRACEFS)
		attach_tracefs_release(&t->actx);
	/* The rings before the probes: no event finds its CPU without one. */
	if (t->slow) {
		err = perf_buf_open(&t->events, t->events_fd,
				    cfg->slow_pages ? cfg->slow_pages : 64, eb);
		if (err)
			return err;
	}
	t->rec.fs_registered = probe_fs_registered(t, cfg->filesystems_path);
	if (errbuf_nofile(eb, t->rec.fs_registered, "cannot read %s",
			  cfg->filesystems_path ? cfg->filesystems_path :
			  "/proc/filesystems"))
		return t->rec.fs_registered;
	if (t->rec.fs_registered < 0)
		return errbuf_set(eb, t->rec.fs_registered,
				  "cannot tell whether %s is loaded: cannot read %s: %s",
				  t->fs->name, cfg->filesystems_path ?
				  cfg->filesystems_path : "/proc/filesystems",
				  strerror(-t->rec.fs_registered));
	if (t->rec.fs_registered == 0)
		return errbuf_set(eb, -ENOENT,
				  "%s is not loaded in this kernel (no %s in /proc/filesystems): run 'modprobe %s' or mount an %s file system, then try again",
				  t->fs->name, t->fs->name, t->fs->module,
				  t->fs->name);
	/* Name discovery's probe: the tracer's kind, where it is a kprobe. */
	set_ops(t);
	prepare_names(t);
	err = attach_chosen(t, cfg, eb);
	if (err && t->rec.attach.path == ATTACH_FENTRY &&
	    cfg->attach == ATTACH_AUTO)
		err = fentry_refused(t, cfg, eb);
	if (!err)
		note_unseen(t);
	if (!err)
		give_back(t);
	return err;
}

/* Nothing open: what tracer_stop() finds after any failure. */
static void init(struct tracer *t)
{
	memset(t, 0, sizeof(*t));
	t->calls_fd = t->hist_fd = t->ctl_fd = -1;
	t->events_fd = t->slow_stats_fd = -1;
	t->multi_fd[0] = t->multi_fd[1] = -1;
	t->btf_obj_fd = -1;
	t->rec.fs_registered = -ENOENT;
	t->rec.pmu_type = -1;
}

struct tracer *tracer_new(void)
{
	struct tracer *t = malloc(sizeof(*t));

	if (t)
		init(t);
	return t;
}

void tracer_free(struct tracer *t)
{
	if (!t)
		return;
	tracer_stop(t);
	free(t);
}

int tracer_start(struct tracer *t, const struct tracer_config *cfg,
		 struct errbuf *eb)
{
	int err;

	init(t);
	err = start(t, cfg, eb);
	t->rec.verifier_log = t->load.verifier_log && t->load.verifier_log[0] ?
			      t->load.verifier_log : NULL;
	return err;
}

int tracer_prepare(struct tracer *t, const struct tracer_config *cfg,
		   struct errbuf *eb)
{
	init(t);
	return prepare(t, cfg, eb);
}

const struct bpf_obj *tracer_obj(const struct tracer *t)
{
	return &t->obj;
}

const struct tracer_record *tracer_record(const struct tracer *t)
{
	return &t->rec;
}

const struct fs_table *tracer_fs(const struct tracer *t)
{
	return t->fs;
}

unsigned int tracer_ops_mask(const struct tracer *t)
{
	return t->ops_mask;
}

const char *tracer_missed_reason(const struct tracer *t)
{
	switch (t->rec.attach.path) {
	case ATTACH_FENTRY:
		/* A trampoline has no instances to run out of. */
		return "fexit has no instance limit: a return goes uncounted only when its program did not run (the kernel skips a program already running on that CPU)";
	case ATTACH_MULTI:
		/* 6.12's fprobe keeps 2 return hooks per CPU and function. */
		return "kprobe_multi return hooks exhausted: --attach=tracefs --maxactive N allows more";
	case ATTACH_PMU:
		return "kretprobe instances exhausted: the kprobe PMU cannot raise them; --attach=tracefs --maxactive N can";
	case ATTACH_TRACEPOINT:
		/* Nothing to run out of: the exit event fires at every return. */
		return "a tracepoint has no instances to run out of: the exit event did not fire for it";
	default:
		if (t->rec.caps.c[CAP_MAXACTIVE].state == CAP_NO)
			return "kretprobe instances exhausted: kprobe_events cannot raise the kernel's default before 4.12";
		return "kretprobe instances exhausted: raise --maxactive";
	}
}

void tracer_stop_entries(struct tracer *t)
{
	unsigned int i;

	/* links[] holds (return, entry) pairs. */
	for (i = t->nr_links; i-- > 0;)
		if (i % 2 == 1)
			probe_detach(&t->actx, &t->links[i]);
	if (t->multi_fd[1] >= 0)
		kcall_close(t->multi_fd[1], "the kprobe_multi entry link: closing it removes every entry probe at once (entries first: calls in flight still meet their return)");
	t->multi_fd[1] = -1;
}

void tracer_stop(struct tracer *t)
{
	unsigned int i;

	/* Entry probes first, so calls in flight still meet their return. */
	tracer_stop_entries(t);
	for (i = t->nr_links; i-- > 0;)
		probe_detach(&t->actx, &t->links[i]);
	t->nr_links = 0;
	if (t->multi_fd[0] >= 0)
		kcall_close(t->multi_fd[0], "the kprobe_multi return link: closing it removes every return probe");
	t->multi_fd[0] = -1;
	if (t->actx_ready)
		attach_ctx_release(&t->actx);
	t->actx_ready = 0;
	perf_buf_close(&t->events);
	obj_load_state_free(&t->load);
	bpf_obj_free(&t->obj);
	if (t->btf_obj_fd >= 0)
		kcall_close(t->btf_obj_fd, "the module's BTF object: the programs loaded for its functions hold it themselves");
	t->btf_obj_fd = -1;
	free(t->scratch);
	t->scratch = NULL;
	t->calls_fd = t->hist_fd = t->ctl_fd = -1;
	t->events_fd = t->slow_stats_fd = -1;
}

struct perf_buf *tracer_events(struct tracer *t)
{
	return &t->events;
}

int tracer_slow_stats(struct tracer *t, struct slow_stats *sum)
{
	const struct slow_stats *v = t->scratch;
	unsigned int key = 0;
	int i, n = t->percpu ? t->ncpus : 1, err;

	memset(sum, 0, sizeof(*sum));
	if (t->slow_stats_fd < 0)
		return -EBADF;
	/* Per-CPU values: one struct per possible CPU (scratch holds them). */
	err = bpf_map_lookup(t->slow_stats_fd, &key, t->scratch);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		sum->sent += v[i].sent;
		sum->failed += v[i].failed;
	}
	return 0;
}
