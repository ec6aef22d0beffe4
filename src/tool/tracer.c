#include "tool/tracer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/bpf_sys.h"
#include "loader/ksym_bpf.h"
#include "loader/kversion.h"
#include "loader/privileges.h"
#include "loader/vlog.h"
#include "tool/bpf_blob.h"
#include "tool/ext4_ops.h"
#include "tool/read_path.h"

#define TOOL_NAME "ext4dist"

static int load_object(struct tracer *t, const struct tracer_config *cfg,
		       struct obj_load_opts *lo, struct errbuf *eb)
{
	unsigned int code = 0;
	const char *source;
	int err;

	err = bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &t->obj,
			    eb);
	if (err)
		return err;
	vlog(1, "embedded BPF object: %zu bytes, license \"%s\", %zu programs, %zu maps",
	     ext4dist_bpf_obj_size(), t->obj.license, t->obj.nr_progs,
	     t->obj.nr_maps);
	*lo = cfg->load;
	/* kern_version must match the running kernel before 5.0. */
	err = kversion_running(&code, &source);
	if (err)
		vlog(1, "cannot tell the kernel version (%s): kern_version 0",
		     strerror(-err));
	lo->kern_version = code;
	vlog(1, "kern_version 0x%06x (%u.%u.%u) from the %s", code, code >> 16,
	     (code >> 8) & 0xff, code & 0xff, source);
	bpf_obj_patch_imm64(&t->obj, PATCH_TGID, cfg->tgid);
	bpf_obj_patch_imm64(&t->obj, PATCH_FACTOR, cfg->factor);
	if (cfg->tgid)
		vlog(1, "PID filter: tgid %u patched into the entry programs",
		     cfg->tgid);
	privileges_raise_memlock();
	err = bpf_obj_create_maps(&t->obj, lo, &t->load, eb);
	if (err)
		return err;
	{
		struct obj_map *h = bpf_obj_find_map(&t->obj, "hist");

		if (!h || h->def.value_size != sizeof(struct op_hist))
			return errbuf_set(eb, -EINVAL,
					  "BPF object: no \"hist\" map of struct op_hist");
		t->hist_fd = h->fd;
		t->hist_percpu = h->def.type == BPF_MAP_TYPE_PERCPU_ARRAY;
		h = bpf_obj_find_map(&t->obj, "start");
		if (!h || h->def.value_size != sizeof(struct start_slot))
			return errbuf_set(eb, -EINVAL,
					  "BPF object: no \"start\" map of struct start_slot");
	}
	t->ncpus = possible_cpus();
	if (t->ncpus < 0)
		return errbuf_set(eb, t->ncpus,
				  "cannot read /sys/devices/system/cpu/possible: %s",
				  strerror(-t->ncpus));
	return 0;
}

/* Loads and attaches one kind of probe on func. */
static int attach_one(struct tracer *t, const struct tracer_config *cfg,
		      const struct obj_load_opts *lo, enum probe_kind kind,
		      const char *func, struct errbuf *eb)
{
	struct obj_prog *p = bpf_obj_find_prog(&t->obj, kind, func, NULL);
	struct probe_spec spec = {
		.kind = kind,
		.func = func,
		.maxactive = cfg->maxactive,
	};
	struct probe_link *link = &t->links[t->nr_links];
	int err;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no %s program for %s",
				  kind == PROBE_RETURN ? "kretprobe" : "kprobe",
				  func);
	err = bpf_obj_load_prog(&t->obj, p, lo, &t->load, eb);
	if (err)
		return err;
	spec.prog_fd = p->fd;
	link->perf_fd = -1;
	err = t->ops->attach(&t->actx, &spec, link, eb);
	if (err)
		return err;
	t->nr_links++;
	return 0;
}

/*
 * Return probe first: a return without a recorded entry is ignored, while
 * an entry whose return probe is not there yet would stay in the map.
 */
static int attach_pair(struct tracer *t, const struct tracer_config *cfg,
		       const struct obj_load_opts *lo, const char *func,
		       struct errbuf *eb)
{
	int err = attach_one(t, cfg, lo, PROBE_RETURN, func, eb);

	if (err)
		return err;
	err = attach_one(t, cfg, lo, PROBE_ENTRY, func, eb);
	if (err) {
		t->nr_links--;
		probe_detach(&t->actx, &t->links[t->nr_links]);
	}
	return err;
}

static int attach_read(struct tracer *t, const struct tracer_config *cfg,
		       const struct obj_load_opts *lo, struct errbuf *eb)
{
	const char *func = ext4_op_get(OP_READ)->func;
	int err;

	if (!cfg->read_generic) {
		/* Cheaper than reading kallsyms first: just try it. */
		err = attach_pair(t, cfg, lo, func, eb);
		if (err != -ENOENT) {
			t->read_func = func;
			if (!err)
				vlog(1, "read path: %s (kernel 4.10+)", func);
			return err;
		}
		vlog(1, "%s: %s; falling back to %s with an f_op filter (kernels before 4.10)",
		     func, eb->msg, GENERIC_READ_FUNC);
	} else {
		vlog(1, "read path: %s forced by --read-path=generic",
		     GENERIC_READ_FUNC);
	}
	err = read_path_prepare_generic(t, cfg, lo, eb);
	if (err)
		return err;
	t->read_func = GENERIC_READ_FUNC;
	return attach_pair(t, cfg, lo, GENERIC_READ_FUNC, eb);
}

/*
 * Whether kprobe_multi links can be made here, asked with the small
 * "kprobe.multi/probe" program (loaded, asked, unloaded).
 */
static int multi_available(struct tracer *t, const struct obj_load_opts *lo,
			   unsigned int n, struct errbuf *eb)
{
	struct obj_prog *p = bpf_obj_find_multi(&t->obj, PROBE_ENTRY, "probe",
						NULL);
	int err;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no kprobe.multi/probe program");
	err = bpf_obj_load_prog(&t->obj, p, lo, &t->load, eb);
	if (err)
		return errbuf_set(eb, err,
				  "cannot load a kprobe_multi program: %s (kprobe_multi needs 5.18+ with CONFIG_FPROBE)",
				  strerror(-err));
	err = attach_kprobe_multi_probe(p->fd, n, eb);
	bpf_obj_unload_prog(p);
	return err;
}

/*
 * Every traced function under one kprobe_multi link for entries and one
 * for returns (5.18+; fprobe, so no kprobes needed).  The read path is
 * ext4_file_read_iter here; kernels that lack it are older.
 *
 * By address where the kernel tells them (ksym_bpf.c): handed names, the
 * kernel resolves them in a pass over every kernel symbol, 88 % of the
 * start-up on 6.12 (make bench).  The "ip" programs then know each
 * function by its address, patched in; by name, by the link's cookie.
 * On failure nothing stays loaded or attached, so a caller can fall back.
 */
static int attach_multi(struct tracer *t, const struct tracer_config *cfg,
			const struct obj_load_opts *lo, struct errbuf *eb)
{
	const char *funcs[NR_OPS], *variant = NULL;
	unsigned long long cookies[NR_OPS];
	uint64_t addrs[NR_OPS];
	const unsigned long long *by_addr = NULL;
	struct obj_prog *ret, *ent;
	unsigned int op, n = 0;
	struct errbuf leb = { "" };
	int err;

	for (op = 0; op < NR_OPS; op++) {
		if (!(cfg->ops_mask & (1u << op)))
			continue;
		funcs[n] = ext4_op_get(op)->func;
		cookies[n++] = op;	/* the programs' operation id */
	}
	if (cfg->no_multi)
		return errbuf_set(eb, -EOPNOTSUPP,
				  "kprobe_multi links ruled out (test hook)");
	err = multi_available(t, lo, n, eb);
	if (err)
		return err;
	if (ksym_bpf_lookup(&t->obj, lo, &t->load, funcs, n, addrs, &leb) == 0) {
		unsigned int i = 0;

		for (op = 0; op < NR_OPS; op++)
			bpf_obj_patch_imm64(&t->obj, PATCH_IP_BASE + op,
					    cfg->ops_mask & (1u << op) ?
					    addrs[i++] : 0);
		by_addr = (const unsigned long long *)addrs;
		variant = "ip";
	} else {
		vlog(1, "kprobe_multi by name: %s", leb.msg);
	}
	ret = bpf_obj_find_multi(&t->obj, PROBE_RETURN, "ext4", variant);
	ent = bpf_obj_find_multi(&t->obj, PROBE_ENTRY, "ext4", variant);
	if (!ret || !ent)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no kprobe_multi programs");
	err = bpf_obj_load_prog(&t->obj, ret, lo, &t->load, eb);
	if (!err)
		err = bpf_obj_load_prog(&t->obj, ent, lo, &t->load, eb);
	if (!err)
		err = attach_kprobe_multi(ret->fd, PROBE_RETURN, funcs, by_addr,
					  cookies, n, &t->multi_fd[0], eb);
	if (!err) {
		err = attach_kprobe_multi(ent->fd, PROBE_ENTRY, funcs, by_addr,
					  cookies, n, &t->multi_fd[1], eb);
		if (err) {
			close(t->multi_fd[0]);
			t->multi_fd[0] = -1;
		}
	}
	if (err) {
		bpf_obj_unload_prog(ret);
		bpf_obj_unload_prog(ent);
		return err;
	}
	t->read_func = ext4_op_get(OP_READ)->func;
	vlog(1, "attach path: kprobe_multi (one link for the entries, one for the returns)");
	return 0;
}

int tracer_start(struct tracer *t, const struct tracer_config *cfg,
		 struct errbuf *eb)
{
	int forced_multi = cfg->attach && strcmp(cfg->attach, "multi") == 0;
	/*
	 * kprobe_multi first unless a kprobe path is asked for: on 6.12 it
	 * reaches the banner in a quarter of the kprobes' time and exits in
	 * about half (make bench: two ftrace updates for every function at
	 * once, where each kprobe makes its own, and no per-probe checks).
	 * Not with --maxactive (kretprobes only) or the generic read path
	 * (its f_op filter is in the kprobe programs).
	 */
	int try_multi = (forced_multi || !cfg->attach) && !cfg->maxactive &&
			!cfg->read_generic;
	struct errbuf meb = { "" };
	struct obj_load_opts lo;
	unsigned int op;
	int err;

	memset(t, 0, sizeof(*t));
	t->hist_fd = -1;
	t->multi_fd[0] = t->multi_fd[1] = -1;
	if (forced_multi && !try_multi)
		return errbuf_set(eb, -EINVAL,
				  "--attach=multi cannot be combined with --maxactive or --read-path=generic");
	if (privileges_check())
		return errbuf_set(eb, -EPERM,
				  "permission denied: ext4dist loads BPF programs and creates kprobes; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)");
	attach_ctx_init(&t->actx, TOOL_NAME, cfg->sysfs_kprobe, cfg->tracefs,
			(cfg->attach && strcmp(cfg->attach, "tracefs") == 0) ||
			cfg->maxactive);
	t->actx_ready = 1;
	t->ops = attach_choose(&t->actx, forced_multi ? NULL : cfg->attach,
			       cfg->maxactive != 0, eb);
	/* kprobe_multi rides on fprobe, not on kprobes: it may still work. */
	if (!t->ops && !try_multi)
		return -EOPNOTSUPP;
	t->stale_removed = attach_remove_stale(&t->actx);
	if (t->stale_removed)
		fprintf(stderr, "ext4dist: removed %d stale kprobe event%s left by %s processes that are gone\n",
			t->stale_removed, t->stale_removed == 1 ? "" : "s",
			TOOL_NAME);
	err = ext4_fs_registered(cfg->filesystems_path);
	if (err <= 0)
		return errbuf_set(eb, -ENOENT,
				  "ext4 is not loaded in this kernel (no ext4 in /proc/filesystems): run 'modprobe ext4' or mount an ext4 file system, then try again");
	err = load_object(t, cfg, &lo, eb);
	if (err)
		return err;
	if (try_multi) {
		/* Forced: its error is the error.  Auto: kprobes next. */
		err = attach_multi(t, cfg, &lo, forced_multi ? eb : &meb);
		if (!err || forced_multi)
			return err;
		vlog(1, "kprobe_multi not used: %s", meb.msg);
		if (!t->ops)
			return -EOPNOTSUPP;	/* eb: attach_choose's reason */
	}
	vlog(1, "attach path: %s", t->ops->name);
	for (op = 0; op < NR_OPS; op++) {
		if (!(cfg->ops_mask & (1u << op)))
			continue;
		if (op == OP_READ)
			err = attach_read(t, cfg, &lo, eb);
		else
			err = attach_pair(t, cfg, &lo, ext4_op_get(op)->func,
					  eb);
		if (err)
			return err;
	}
	return 0;
}

int tracer_read(struct tracer *t, struct op_hist *out)
{
	size_t n = t->hist_percpu ? (size_t)t->ncpus : 1;
	struct op_hist *vals;
	unsigned int op, c, s;
	int err = 0;

	/* Per-CPU values come one per possible CPU, each 8-byte aligned. */
	vals = calloc(n, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	memset(out, 0, NR_OPS * sizeof(*out));
	for (op = 0; op < NR_OPS; op++) {
		err = bpf_map_lookup(t->hist_fd, &op, vals);
		if (err)
			break;
		for (c = 0; c < n; c++) {
			for (s = 0; s < NR_SLOTS; s++)
				out[op].slots[s] += vals[c].slots[s];
			out[op].sum_ns += vals[c].sum_ns;
			out[op].lost += vals[c].lost;
			if (vals[c].max_ns > out[op].max_ns)
				out[op].max_ns = vals[c].max_ns;
		}
	}
	free(vals);
	return err;
}

unsigned long long tracer_missed(struct tracer *t)
{
	unsigned long long missed = 0, m;
	unsigned int i;

	attach_tracefs_missed(&t->actx, t->links, t->nr_links, &missed);
	for (i = 0; i < 2; i++)
		if (t->multi_fd[i] >= 0 &&
		    attach_kprobe_multi_missed(t->multi_fd[i], &m) == 0)
			missed += m;
	return missed;
}

const char *tracer_missed_reason(const struct tracer *t)
{
	/* 6.12's fprobe keeps 2 return hooks per CPU and traced function. */
	if (t->multi_fd[0] >= 0)
		return "kprobe_multi return hooks exhausted: --attach=tracefs --maxactive N allows more";
	return "kretprobe instances exhausted: raise --maxactive";
}

void tracer_stop(struct tracer *t)
{
	unsigned int i;

	/*
	 * links[] holds (return, entry) pairs.  Entry probes go first, so
	 * calls in flight still meet their return probe.
	 */
	for (i = t->nr_links; i-- > 0;)
		if (i % 2 == 1)
			probe_detach(&t->actx, &t->links[i]);
	for (i = t->nr_links; i-- > 0;)
		probe_detach(&t->actx, &t->links[i]);
	t->nr_links = 0;
	/* Entries first here too: multi_fd[1], then multi_fd[0]. */
	for (i = 2; i-- > 0;) {
		if (t->multi_fd[i] >= 0)
			close(t->multi_fd[i]);
		t->multi_fd[i] = -1;
	}
	if (t->actx_ready)
		attach_ctx_release(&t->actx);
	t->actx_ready = 0;
	obj_load_state_free(&t->load);
	bpf_obj_free(&t->obj);
	t->hist_fd = -1;
}
