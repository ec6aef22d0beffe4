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
#include "output/tool_name.h"
#include "tool/engine/attach_paths.h"
#include "tool/engine/bpf_blob.h"
#include "tool/engine/short_probes.h"
#include "tool/engine/start_slots.h"
#include "tool/engine/fentry.h"
#include "tool/discover/name_discover.h"
#include "tool/discover/pid_filter.h"
#include "tool/plan/plan.h"
#include "tool/plan/probe.h"
#include "tool/plan/progs.h"
#include "tool/plan/prog_select.h"
#include "tool/plan/resolve.h"
#include "tool/discover/read_path.h"

/*
 * The prefix of every kprobe event this tool makes, whatever name it runs
 * as: one instance sweeps what a dead one of any name left behind.
 */
#define EVENT_OWNER "ext4dist"

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

static int section_is(const char *section, const char *kind)
{
	size_t n = strlen(kind);

	return !strncmp(section, kind, n) && section[n] == '/';
}

/* The programs a run of this mode may load (progs.h). */
static int run_loads(const char *section, void *arg)
{
	const struct tracer *t = arg;
	enum cap_state multi = t->rec.caps.c[CAP_MULTI].state;
	int kprobe = section_is(section, "kprobe") ||
		     section_is(section, "kretprobe");
	int is_multi = section_is(section, "kprobe.multi") ||
		       section_is(section, "kretprobe.multi");

	/*
	 * A run told to use kprobes (--attach=pmu or tracefs) never moves
	 * to another path, and an automatic one without kprobe_multi reads
	 * the object again if it does (read_for_plan()): the other kinds'
	 * programs are not kept, and the object's members that hold only
	 * those are not even inflated.
	 */
	if ((t->cfg.attach == ATTACH_PMU || t->cfg.attach == ATTACH_TRACEFS ||
	     t->kprobes_only) && !kprobe)
		return 0;
	/*
	 * An automatic run asked about kprobe_multi first (ask_multi()):
	 * without it no plan takes those programs; with it the plan takes
	 * nothing else and never moves (a refused link is an error, not a
	 * replan: attach_paths.c), except slow mode, whose name discovery
	 * may put its kprobe on.
	 */
	if (multi == CAP_NO && is_multi)
		return 0;
	if (multi == CAP_YES && !t->cfg.slow && !is_multi)
		return 0;
	return prog_run_keeps(section, t->cfg.slow);
}

/*
 * An automatic run whose plan starts with kprobe_multi (plan.c: not with
 * --maxactive or the generic read path) asks that question before the
 * object is read, so that run_loads() keeps one path's programs: 0, or
 * -EMFILE when no descriptor was left to ask it.  Not the dumps
 * (tracer_prepare()): they plan nothing and show the kprobe pairs.
 */
static int ask_multi(struct tracer *t, struct errbuf *eb)
{
	const struct cap *c = &t->rec.caps.c[CAP_MULTI];

	if (t->cfg.attach != ATTACH_AUTO || t->cfg.maxactive ||
	    t->cfg.read_generic)
		return 0;
	probe_cap(t, CAP_MULTI);
	if (c->state == CAP_FAILED)
		return errbuf_set(eb, -EMFILE, "%s", c->why);
	return 0;
}

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
				  "this %s carries BPF programs for %s kernels, not for this %s kernel: use the %s built for %s",
				  tool_name(), bpf_blob_own_arch(), k.machine,
				  tool_name(), k.machine);
	snprintf(t->rec.object, sizeof(t->rec.object),
		 "for %s kernels (uname -m %s; %u-byte kernel pointers)%s",
		 blob->arch, k.machine, k.word,
		 strcmp(blob->arch, bpf_blob_own_arch()) ?
		 ", not this binary's own" : "");
	return 0;
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
static void size_slow_maps(struct tracer *t)
{
	struct obj_map *ev = bpf_obj_find_map(&t->obj, "events");

	t->lo.skip_maps = tracer_maps_skipped(t->cfg.slow);
	if (!t->cfg.slow)
		return;
	if (ev)
		ev->def.max_entries = (unsigned int)t->ncpus;
}

/*
 * calls: a row per CPU, as many rows as the mask of the CPU's id needs
 * (ext4dist_abi.h, struct calls_row).
 */
static void size_calls(struct tracer *t)
{
	struct obj_map *m = bpf_obj_find_map(&t->obj, "calls");

	t->calls_rows = CALLS_ROWS(t->ncpus);
	if (m)
		m->def.value_size = t->calls_rows *
				    (unsigned int)sizeof(struct calls_row);
	bpf_obj_patch_alu64_imm(&t->obj, BPF_AND, PATCH_CPU_MASK,
				(int32_t)(t->calls_rows - 1));
}

static size_t maps_created(const struct bpf_obj *obj)
{
	size_t i, n = 0;

	for (i = 0; i < obj->nr_maps; i++)
		n += obj->maps[i].fd >= 0;
	return n;
}

static const char *const by_address[] = { "ctl", "start", "calls", NULL };

static int load_object(struct tracer *t, int run, struct errbuf *eb)
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
	err = run ? ask_multi(t, eb) : 0;
	/*
	 * Without kprobe_multi an automatic run plans kprobes wherever the
	 * kernel makes them, asked here: then fentry/fexit's programs are
	 * read only if the kernel refuses the kprobes at attach
	 * (read_for_plan()), tracepoints' never.
	 */
	t->kprobes_only = 0;
	if (!err && run && t->cfg.attach == ATTACH_AUTO &&
	    t->rec.caps.c[CAP_MULTI].state != CAP_YES) {
		err = probe_kprobes_first(t, eb);
		t->kprobes_only = err > 0;
		err = err < 0 ? err : 0;
	}
	if (!err)
		err = pick_object(t, &blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(blob.data, blob.size, &keep, &t->obj, eb);
	size = blob.size;
	bpf_blob_release_room(&blob);
	if (err)
		return err;
	vlog(1, "embedded BPF object %s: %zu bytes, license \"%s\", %zu programs for this mode, %zu maps",
	     t->rec.object, size, t->obj.license, t->obj.nr_progs,
	     t->obj.nr_maps);
	t->lo = t->cfg.load;
	/* One value, key 0 alone: the interval word, start records, calls. */
	t->lo.value_maps = by_address;
	/* kern_version must match the running kernel before 5.0. */
	err = kversion_running(&code, &source);
	if (err)
		vlog(1, "cannot tell the kernel version (%s): kern_version 0",
		     strerror(-err));
	t->lo.kern_version = code;
	vlog(1, "kern_version 0x%06x (%u.%u.%u) from the %s", code, code >> 16,
	     (code >> 8) & 0xff, code & 0xff, source);
	n = bpf_obj_patch_imm64(&t->obj, PATCH_TGID, t->cfg.tgid);
	if (t->cfg.tgid)
		vlog(1, "PID filter: tgid %u patched into %d instructions (entry and return programs)",
		     t->cfg.tgid, n);
	bpf_obj_patch_imm64(&t->obj, PATCH_FACTOR, t->cfg.factor);
	/* The programs compare the initial PID namespace's numbers. */
	err = pid_filter_self(&self, eb);
	if (err)
		return err;
	bpf_obj_patch_imm64(&t->obj, PATCH_SELF, self);
	n = bpf_obj_patch_imm64(&t->obj, PATCH_SLOW_NS, t->cfg.slow_ns);
	if (t->cfg.slow)
		vlog(1, "slow mode: an event for each call of at least %llu ns (patched into %d return programs)",
		     t->cfg.slow_ns, n);
	t->ncpus = cpus_possible();
	if (errbuf_nofile(eb, t->ncpus,
			  "cannot read /sys/devices/system/cpu/possible"))
		return t->ncpus;
	if (t->ncpus < 0)
		return errbuf_set(eb, t->ncpus,
				  "cannot read /sys/devices/system/cpu/possible: %s",
				  strerror(-t->ncpus));
	start_slots_apply(t);
	size_calls(t);
	size_slow_maps(t);
	privileges_raise_memlock();
	err = bpf_obj_create_maps(&t->obj, &t->lo, &t->load, eb);
	if (err)
		return err;
	t->calls_fd = find_map(t, "calls",
			       t->calls_rows * sizeof(struct calls_row), eb);
	t->hist_fd = find_map(t, "hist", sizeof(struct op_hist), eb);
	t->ctl_fd = find_map(t, "ctl", sizeof(struct ctl), eb);
	if (t->calls_fd < 0 || t->hist_fd < 0 || t->ctl_fd < 0)
		return -EINVAL;
	t->percpu = bpf_obj_find_map(&t->obj, "hist")->def.type ==
		    BPF_MAP_TYPE_PERCPU_ARRAY;
	vlog(1, "counters: %s", t->percpu ?
	     "plain adds (per-CPU maps: no atomic instruction needed)" :
	     "atomic adds (plain arrays: several CPUs share each value)");
	if (t->cfg.slow) {
		t->events_fd = find_map(t, "events", sizeof(__u32), eb);
		t->slow_stats_fd = find_map(t, "slow_stats",
					    sizeof(struct slow_stats), eb);
		if (t->events_fd < 0 || t->slow_stats_fd < 0)
			return -EINVAL;
	}
	/*
	 * Per-CPU values come one per possible CPU, each 8-byte aligned;
	 * calls' one value is fewer bytes (at most 2 * ncpus rows of 128).
	 */
	_Static_assert(2 * sizeof(struct calls_row) <= sizeof(struct op_hist),
		       "calls' value fits in the hist values' scratch");
	t->scratch = calloc((size_t)t->ncpus, sizeof(struct op_hist));
	if (!t->scratch)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	return 0;
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
 * An attach refused part of the way: its links undone, and its programs
 * unloaded (tracing: fentry/fexit's, else the kprobes').
 */
static void undo_attach(struct tracer *t, int tracing)
{
	size_t i;

	tracer_stop_entries(t);
	for (i = t->nr_links; i-- > 0;)
		probe_detach(&t->actx, &t->links[i]);
	t->nr_links = 0;
	memset(t->entry_prog, 0, sizeof(t->entry_prog));
	for (i = 0; i < t->obj.nr_progs; i++)
		if (!t->obj.progs[i].tracing == !tracing &&
		    t->obj.progs[i].fd >= 0)
			bpf_obj_unload_prog(&t->obj.progs[i]);
}

/* What the record says of the object's maps. */
static void note_maps(struct tracer *t)
{
	t->rec.nr_maps = maps_created(&t->obj);
	t->rec.hist_type = map_type_name(bpf_obj_find_map(&t->obj,
							  "hist")->def.type);
	t->rec.names_ok = t->load.names_ok;
	t->rec.names_pretend = t->cfg.load.no_names;
	t->rec.percpu = t->percpu;
}

/*
 * A plan that took fentry/fexit from an object read for kprobes alone:
 * the object read again with them, its maps made anew, and with again
 * (start-up done up to the attach) slow mode's rings and the file names'
 * offsets too.
 */
static int read_for_plan(struct tracer *t, int again, struct errbuf *eb)
{
	int err;

	if (!t->kprobes_only || t->rec.attach.path == ATTACH_PMU ||
	    t->rec.attach.path == ATTACH_TRACEFS)
		return 0;
	vlog(1, "the embedded BPF object read again for the %s path",
	     plan_path_name(t->rec.attach.path));
	perf_buf_close(&t->events);
	obj_load_state_free(&t->load);
	bpf_obj_free(&t->obj);
	free(t->scratch);
	t->scratch = NULL;
	t->calls_fd = t->hist_fd = t->ctl_fd = -1;
	t->events_fd = t->slow_stats_fd = -1;
	err = load_object(t, 0, eb);
	if (err)
		return err;
	note_maps(t);
	if (!again)
		return 0;
	if (t->cfg.slow) {
		err = perf_buf_open(&t->events, t->events_fd,
				    t->cfg.slow_pages ? t->cfg.slow_pages : 64, eb);
		if (err)
			return err;
	}
	tracer_patch_names(t);
	return 0;
}

/*
 * The path taken by default, and the kernel refused it at attach:
 * fentry/fexit (tracing: Debian's arm64 6.1 makes no trampolines; a
 * function may not take one), or kprobes where it puts none on a
 * traceable function's entry (riscv64 6.12, ftrace_refused.c).  What was
 * made is undone, the path's capabilities are "no" with the kernel's
 * reason, and the plan is made again without them.
 */
static int replan_refused(struct tracer *t, int tracing, struct errbuf *eb)
{
	static const enum cap_id kprobe_caps[] = {
		CAP_KPROBE_EVENTS, CAP_MAXACTIVE, CAP_PMU,
	};
	static const enum cap_id fentry_caps[] = { CAP_FENTRY };
	const enum cap_id *caps = tracing ? fentry_caps : kprobe_caps;
	size_t i, n = tracing ? 1 : sizeof(kprobe_caps) / sizeof(kprobe_caps[0]);
	int err;

	vlog(1, "%s refused at attach (%s): planning again without %s",
	     tracing ? "fentry/fexit" : "kprobes", eb->msg,
	     tracing ? "it" : "them");
	undo_attach(t, tracing);
	if (tracing && t->btf_obj_fd >= 0) {
		kcall_close(t->btf_obj_fd, "the module's BTF object: fentry/fexit was refused, kprobes need no BTF");
		t->btf_obj_fd = -1;
	}
	for (i = 0; i < n; i++) {
		struct cap *c = &t->rec.caps.c[caps[i]];

		c->state = CAP_NO;
		snprintf(c->why, sizeof(c->why), "%.*s",
			 (int)sizeof(c->why) - 1, eb->msg);
	}
	t->rec.read_path[0] = t->rec.addresses[0] = '\0';
	eb->msg[0] = '\0';
	/* Undecided again: --check must not print a path no plan chose. */
	t->rec.planned = 0;
	err = probe_decide_attach(t, eb);
	if (!err)
		err = read_for_plan(t, 1, eb);
	if (err)
		return err;
	/* start() let tracefs go when fentry was chosen. */
	if (t->rec.attach.path == ATTACH_TRACEFS && !t->actx.tf.dir[0]) {
		err = attach_probe_tracefs(&t->actx, 1, eb);
		if (err)
			return err;
		note_tracing_dir(t);
	}
	return tracer_attach_chosen(t, eb);
}

/*
 * The run's configuration taken, up to maps made and constants patched:
 * nothing attached.  run: 1 for a run or --check, 0 for the dumps.
 */
static int prepare(struct tracer *t, const struct tracer_config *cfg,
		   int run, struct errbuf *eb)
{
	int err;

	t->cfg = *cfg;
	if (cfg->slow && (cfg->ops_mask & (1u << OP_GETATTR)))
		return errbuf_set(eb, -EINVAL,
				  "getattr has no slow mode (BCC's %s traces read, write, open and fsync): leave getattr out of --ops",
				  cfg->fs->slower_tool);
	err = fs_check_wanted(cfg->fs, cfg->ops_mask, cfg->read_generic, eb);
	if (err)
		return err;
	if (privileges_check())
		return errbuf_set(eb, -EPERM,
				  "permission denied: %s loads BPF programs and creates kprobes; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)",
				  tool_name());
	t->rec.privileged = 1;
	attach_ctx_init(&t->actx, EVENT_OWNER, cfg->sysfs_kprobe, cfg->tracefs);
	t->actx.before_4_12 = pretend_on(t, PRETEND_NO_MAXACTIVE);
	t->actx_ready = 1;
	return load_object(t, run, eb);
}

/*
 * Whether the kernel counts the calls it gave no entry program (it skips
 * a program already running on that CPU: tally.c's "unseen"), asked once,
 * and said with -v.
 */
static void note_unseen(struct tracer *t)
{
	const struct path_unseen *u = tracer_path_unseen(t);
	unsigned long long n;
	unsigned int op, code;
	const char *source;

	if (u->none) {
		vlog(1, "unseen calls: %s", u->none);
		return;
	}
	for (op = 0; op < NR_OPS && !t->entry_prog[op]; op++)
		;
	if (op == NR_OPS)
		return;
	kcall_why("does this kernel count the runs of an entry program it skips (bpf_prog_info's recursion_misses, 5.12+)?");
	if (bpf_prog_recursion_misses(t->entry_prog[op]->fd, &n) < 0)
		vlog(1, "unseen calls: not counted (the kernel's bpf_prog_info has no recursion_misses before 5.12)");
	else if (u->major && kversion_running(&code, &source) == 0 &&
		 code < kversion_code(u->major, u->minor, 0))
		vlog(1, "unseen calls: not counted (the kernel counts skipped kprobe and tracepoint programs from 6.7; they run with preemption off, so only an interrupting one is skipped)");
	else {
		t->unseen_counted = 1;
		vlog(1, "unseen calls: counted (each %s program's recursion_misses)",
		     u->kind);
	}
}

/*
 * Every program is in the kernel: their instructions go, and the heap
 * they and the start-up's other buffers took goes back to the kernel
 * (glibc keeps freed memory inside its heap until asked).  The text goes
 * after the banner (run_loop(), slow_loop()).
 */
static void give_back(struct tracer *t)
{
	bpf_obj_drop_insns(&t->obj);
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static int start(struct tracer *t, struct errbuf *eb)
{
	int err, tracing;

	note_maps(t);
	err = probe_decide_attach(t, eb);
	if (!err)
		err = read_for_plan(t, 0, eb);
	if (err)
		return err;
	/* A tracefs run killed earlier left events: only look, never mount. */
	if (!t->actx.tf.dir[0])
		attach_probe_tracefs(&t->actx, 0, NULL);
	t->stale_removed = attach_remove_stale(&t->actx);
	if (t->stale_removed)
		fprintf(stderr, "%s: removed %d stale kprobe event%s left by %s processes that are gone\n",
			tool_name(), t->stale_removed,
			t->stale_removed == 1 ? "" : "s", EVENT_OWNER);
	note_tracing_dir(t);
	/* Off the tracefs path it served the sweep alone: no fd kept. */
	if (t->rec.attach.path != ATTACH_TRACEFS)
		attach_tracefs_release(&t->actx);
	/* The rings before the probes: no event finds its CPU without one. */
	if (t->cfg.slow) {
		err = perf_buf_open(&t->events, t->events_fd,
				    t->cfg.slow_pages ? t->cfg.slow_pages : 64, eb);
		if (err)
			return err;
	}
	t->rec.fs_registered = probe_fs_registered(t);
	if (errbuf_nofile(eb, t->rec.fs_registered,
			  "cannot read /proc/filesystems"))
		return t->rec.fs_registered;
	if (t->rec.fs_registered < 0)
		return errbuf_set(eb, t->rec.fs_registered,
				  "cannot tell whether %s is loaded: cannot read /proc/filesystems: %s",
				  t->cfg.fs->name,
				  strerror(-t->rec.fs_registered));
	if (t->rec.fs_registered == 0)
		return errbuf_set(eb, -ENOENT,
				  "%s is not loaded in this kernel (no %s in /proc/filesystems): run 'modprobe %s' or mount an %s file system, then try again",
				  t->cfg.fs->name, t->cfg.fs->name, t->cfg.fs->module,
				  t->cfg.fs->name);
	/* Name discovery's probe: the tracer's kind, where it is a kprobe. */
	tracer_set_ops(t);
	tracer_prepare_names(t);
	err = tracer_attach_chosen(t, eb);
	if (t->cfg.attach == ATTACH_AUTO &&
	    tracer_path_refused(t, err, &tracing))
		err = replan_refused(t, tracing, eb);
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
	err = prepare(t, cfg, 1, eb);
	if (!err)
		err = start(t, eb);
	if (!err && vlog_level() >= 1) {
		char text[256];

		tracer_kmem_text(t, text, sizeof(text));
		vlog(1, "kernel memory: %s", text);
		own_peak_rss_text(text, sizeof(text));
		vlog(1, "peak RSS: %s", text);
	}
	t->rec.verifier_log = t->load.verifier_log && t->load.verifier_log[0] ?
			      t->load.verifier_log : NULL;
	return err;
}

int tracer_prepare(struct tracer *t, const struct tracer_config *cfg,
		   struct errbuf *eb)
{
	init(t);
	return prepare(t, cfg, 0, eb);
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
	return t->cfg.fs;
}

unsigned int tracer_ops_mask(const struct tracer *t)
{
	return t->cfg.ops_mask;
}

void tracer_stop_entries(struct tracer *t)
{
	unsigned int i;

	/* links[] holds (return, entry) pairs. */
	for (i = t->nr_links; i-- > 0;)
		if (i % 2 == 1)
			probe_detach(&t->actx, &t->links[i]);
}

void tracer_stop(struct tracer *t)
{
	unsigned int i;

	/* Entry probes first, so calls in flight still meet their return. */
	tracer_stop_entries(t);
	for (i = t->nr_links; i-- > 0;)
		probe_detach(&t->actx, &t->links[i]);
	t->nr_links = 0;
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
