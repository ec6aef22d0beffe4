#include "tool/check.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/kallsyms.h"
#include "loader/ksym_bpf.h"
#include "loader/kversion.h"
#include "loader/obj_load.h"
#include "loader/privileges.h"
#include "tool/bpf_blob.h"
#include "tool/ext4_ops.h"

#define ROW "%-22s %s\n"

static void row(FILE *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void row(FILE *out, const char *name, const char *fmt, ...)
{
	char value[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	fprintf(out, ROW, name, value);
}

/* The code from the vDSO, and whether parsing uname strings agrees. */
static void check_kern_version(FILE *out)
{
	unsigned int code = 0, parsed = 0;
	const char *source;
	int perr;

	if (kversion_running(&code, &source)) {
		row(out, "kern_version", "unknown (0 is used)");
		return;
	}
	perr = kversion_get(NULL, &parsed);
	row(out, "kern_version", "0x%06x (%u.%u.%u) from the %s; uname parsing %s",
	    code, code >> 16, (code >> 8) & 0xff, code & 0xff, source,
	    perr ? "fails" : parsed == code ? "agrees" : "differs");
}

/*
 * kprobe_multi (5.18+, CONFIG_FPROBE): the programs load, and a link on
 * ext4_sync_file can be made (and is closed again at once), by the address
 * the kernel's kallsyms gives through BPF as ext4dist attaches, else by name.
 */
static int check_multi(FILE *out, struct bpf_obj *obj,
		       const struct obj_load_opts *o,
		       struct obj_load_state *st, int ext4)
{
	struct obj_prog *p = bpf_obj_find_multi(obj, PROBE_ENTRY, "ext4", NULL);
	const char *funcs[] = { "ext4_sync_file" };
	unsigned long long cookie = OP_FSYNC;
	struct errbuf eb = { "" }, leb = { "" };
	uint64_t addr;
	int fd, by_addr;

	if (!p || bpf_obj_load_prog(obj, p, o, st, &eb)) {
		row(out, "kprobe_multi", "no: its programs do not load (kernel before 5.18)");
		return 0;
	}
	if (!ext4) {
		row(out, "kprobe_multi", "programs load; links untried (ext4 not loaded)");
		return 0;
	}
	by_addr = ksym_bpf_lookup(obj, o, st, funcs, 1, &addr, &leb) == 0;
	if (attach_kprobe_multi(p->fd, PROBE_ENTRY, funcs,
				by_addr ? (unsigned long long *)&addr : NULL,
				&cookie, 1, &fd, &eb)) {
		row(out, "kprobe_multi", "no: %s", eb.msg);
		return 0;
	}
	close(fd);
	if (by_addr)
		row(out, "kprobe_multi", "yes (one link arms every traced function; addresses from kallsyms via BPF)");
	else
		row(out, "kprobe_multi", "yes (one link arms every traced function; by name: %s)",
		    leb.msg);
	return 1;
}

/* Loads every program of the embedded object; 0 when all pass. */
static int check_programs(FILE *out, int ext4, int *multi_ok)
{
	struct obj_load_state st = { 0 };
	struct obj_load_opts o = { 0 };
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	struct obj_map *h;
	unsigned int code = 0;
	const char *source;
	size_t i, n = 0;
	int err;

	err = bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj,
			    &eb);
	if (err) {
		row(out, "bpf programs", "no: %s", eb.msg);
		return err;
	}
	kversion_running(&code, &source);
	o.kern_version = code;
	privileges_raise_memlock();
	err = bpf_obj_create_maps(&obj, &o, &st, &eb);
	/*
	 * The legacy programs; the kprobe_multi ones and the syscall symbol
	 * lookup are optional (5.18+, 5.16+).
	 */
	for (i = 0; !err && i < obj.nr_progs; i++) {
		if (obj.progs[i].multi || obj.progs[i].syscall)
			continue;
		err = bpf_obj_load_prog(&obj, &obj.progs[i], &o, &st, &eb);
		n++;
	}
	if (err) {
		row(out, "bpf programs", "no: %s", eb.msg);
	} else {
		h = bpf_obj_find_map(&obj, "hist");
		row(out, "bpf programs", "yes: %zu programs pass the verifier, %zu maps created (histograms in a %s map%s)",
		    n, obj.nr_maps, h ? map_type_name(h->def.type) : "?",
		    st.names_ok ? ", named" : ", unnamed: kernel before 4.15");
		*multi_ok = check_multi(out, &obj, &o, &st, ext4);
	}
	obj_load_state_free(&st);
	bpf_obj_free(&obj);
	return err;
}

/*
 * Tries an "r1:" definition: maxactive arrived in 4.12.  Named as every
 * ext4dist event, so a --check killed here leaves one the next start removes.
 */
static const char *check_maxactive(struct attach_ctx *ctx, int ext4)
{
	const struct probe_spec spec = {
		.kind = PROBE_RETURN,
		.func = "ext4_sync_file",
		.maxactive = 1,
		.prog_fd = -1,
	};
	char def[160], rm[128], ev[64];
	int err;

	if (!ctx->tf.has_kprobe_events)
		return "no (no kprobe_events)";
	if (!ext4)
		return "unknown (ext4 not loaded to try it on)";
	attach_event_name(ctx, &spec, ev, sizeof(ev));
	snprintf(def, sizeof(def), "r%u:kprobes/%s %s\n", spec.maxactive, ev,
		 spec.func);
	err = tracefs_write(&ctx->tf, "kprobe_events", def);
	if (err)
		return "no (kernel before 4.12: return probes use the default)";
	snprintf(rm, sizeof(rm), "-:kprobes/%s\n", ev);
	tracefs_write(&ctx->tf, "kprobe_events", rm);
	return "yes";
}

int check_run(FILE *out, const struct tracer_config *cfg)
{
	const char *names[] = { "ext4_file_read_iter", GENERIC_READ_FUNC,
				FOPS_SYMBOL };
	struct ksym_result ks[3];
	struct attach_ctx actx;
	const struct attach_ops *ops;
	struct errbuf eb = { "" }, why = { "" };
	struct utsname u;
	int priv, ext4, progs, nks, can = 1, multi_ok = 0, forced_multi;
	const char *kpath = cfg->kallsyms_path ? cfg->kallsyms_path :
						 KALLSYMS_PATH;

	uname(&u);
	row(out, "kernel", "%s", u.release);
	check_kern_version(out);
	ext4 = ext4_fs_registered(cfg->filesystems_path) > 0;
	priv = privileges_check();
	row(out, "privileges", "%s", priv ? "no: run as root (or with CAP_BPF and CAP_PERFMON)" : "yes");
	if (priv) {
		can = 0;
		errbuf_set(&why, -EPERM, "not enough privileges: run as root");
	} else {
		progs = check_programs(out, ext4, &multi_ok);
		if (progs) {
			can = 0;
			errbuf_set(&why, progs, "the BPF programs do not load here");
		}
	}

	attach_ctx_init(&actx, "ext4dist", cfg->sysfs_kprobe, cfg->tracefs, 1);
	if (actx.pmu_type >= 0)
		row(out, "kprobe PMU", "yes (perf type %d)", actx.pmu_type);
	else
		row(out, "kprobe PMU", "no (%s/type missing: kernel before 4.17, or no kprobes)",
		    actx.sysfs_kprobe);
	if (actx.tf.dir[0])
		row(out, "tracing dir", "%s%s", actx.tf.dir,
		    actx.tf.mounted[0] ? " (mounted for this check, unmounted again)" : "");
	else
		row(out, "tracing dir", "none (tracefs/debugfs not mountable)");
	row(out, "kprobe_events", "%s", actx.tf.has_kprobe_events ? "yes" : "no");
	row(out, "ext4", "%s", ext4 ? "loaded" : "not loaded: run 'modprobe ext4'");
	row(out, "maxactive", "%s", check_maxactive(&actx, ext4));

	nks = kallsyms_lookup(kpath, names, 3, 0, ks, NULL);
	if (nks == -EPERM) {
		row(out, "kallsyms", "addresses hidden (kernel.kptr_restrict): run as root");
	} else if (nks < 0) {
		row(out, "kallsyms", "unreadable: %s", strerror(-nks));
	} else {
		row(out, "read path", "%s", ks[0].found ?
		    "ext4_file_read_iter (kernel 4.10+)" :
		    "generic_file_read_iter + f_op filter (no ext4_file_read_iter)");
		if (ks[2].found)
			row(out, FOPS_SYMBOL, "0x%llx%s%s%s", ks[2].addr,
			    ks[2].module[0] ? " [" : "", ks[2].module,
			    ks[2].module[0] ? "]" : "");
		else
			row(out, FOPS_SYMBOL, "%s", ext4 ?
			    "not in kallsyms (CONFIG_KALLSYMS_ALL off): needed only by the generic read path; System.map, the module file or --fops-addr can stand in" :
			    "not in kallsyms (ext4 not loaded)");
	}

	forced_multi = cfg->attach && strcmp(cfg->attach, "multi") == 0;
	ops = attach_choose(&actx, forced_multi ? NULL : cfg->attach,
			    cfg->maxactive != 0, &eb);
	/* As tracer_start: kprobe_multi first, unless a kprobe path is asked. */
	if (multi_ok && (!cfg->attach || forced_multi) && !cfg->maxactive &&
	    !cfg->read_generic)
		row(out, "attach path", "kprobe_multi");
	else if (!ops && multi_ok)
		row(out, "attach path", "none with these options; kprobe_multi works without --maxactive and --read-path=generic");
	else
		row(out, "attach path", "%s", ops ? ops->name : "none");
	/* kprobe_multi rides on fprobe: it works without kprobes too. */
	if (!ops && !multi_ok && can) {
		can = 0;
		why = eb;
	} else if (!ops && !multi_ok) {
		fprintf(out, ROW, "", eb.msg);
	}
	if (!ext4 && can) {
		can = 0;
		errbuf_set(&why, -ENOENT, "ext4 is not loaded: run 'modprobe ext4'");
	}
	attach_ctx_release(&actx);
	if (can)
		row(out, "verdict", "ext4dist can trace here");
	else
		row(out, "verdict", "ext4dist cannot trace here: %s", why.msg);
	return can ? 0 : 1;
}
