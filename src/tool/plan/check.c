// SPDX-License-Identifier: GPL-2.0
/*
 * --check: the start-up of a run, carried out for real with the same
 * options (programs patched and verified, probes attached) and undone
 * again, printed step by step.  Its verdict is the run's by construction:
 * the same code decides, and a failure is the run's own message.
 */
#include "tool/plan/check.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/loader.h"
#include "output/report.h"
#include "tool/run/outq.h"
#include "tool/run/stop_signals.h"

#define ROW "%-22s %s\n"

static void row(FILE *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void row(FILE *out, const char *name, const char *fmt, ...)
{
	char value[768];
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
	    errno_nofile(perr) ? "not checked (too many open files)" :
	    perr ? "fails" : parsed == code ? "agrees" : "differs");
}

/* "yes (detail)", "no: why", or "not asked (why not)". */
static void cap_row(FILE *out, const char *name, const struct cap *c,
		    const char *yes)
{
	if (c->state == CAP_YES)
		row(out, name, "yes%s%s%s", yes[0] ? " (" : "", yes,
		    yes[0] ? ")" : "");
	else if (c->state == CAP_NO)
		row(out, name, "no: %s", c->why);
	else if (c->state == CAP_FAILED)
		row(out, name, "unknown: %s", c->why);
	else
		row(out, name, "not asked (start-up stopped before)");
}

static void print_caps(FILE *out, const struct tracer_record *rec)
{
	const struct attach_caps *caps = &rec->caps;
	char pmu[64];

	snprintf(pmu, sizeof(pmu), "perf type %d", rec->pmu_type);
	cap_row(out, "fentry/fexit", &caps->c[CAP_FENTRY], rec->fentry_ids);
	cap_row(out, "kprobe_multi", &caps->c[CAP_MULTI],
		"one link arms every traced function");
	cap_row(out, "kprobe PMU", &caps->c[CAP_PMU], pmu);
	if (rec->tracing_dir[0])
		row(out, "tracing dir", "%s", rec->tracing_dir);
	cap_row(out, "kprobe_events", &caps->c[CAP_KPROBE_EVENTS], "");
	cap_row(out, "maxactive", &caps->c[CAP_MAXACTIVE],
		"kprobe_events sizes return probes: \"rN:\"");
	cap_row(out, "tracepoints", &caps->c[CAP_TRACEPOINT],
		rec->tracepoints);
	if (caps->c[CAP_NO_PREEMPT].state == CAP_YES &&
	    rec->preemption == PREEMPT_MODEL_UNKNOWN)
		row(out, "preemption", "%s; taken as none: fentry/fexit is not passed over, and the calls it would skip are reported as unseen",
		    caps->c[CAP_NO_PREEMPT].why);
	else if (caps->c[CAP_NO_PREEMPT].state == CAP_YES)
		row(out, "preemption", "%s: no task is preempted inside a BPF program",
		    caps->c[CAP_NO_PREEMPT].why);
	else if (caps->c[CAP_NO_PREEMPT].state == CAP_NO)
		row(out, "preemption", "%s: a task can be preempted inside an fentry program, and the kernel skips that program for other calls on its CPU meanwhile; kprobes run with preemption off",
		    caps->c[CAP_NO_PREEMPT].why);
	else if (caps->c[CAP_NO_PREEMPT].state == CAP_FAILED)
		row(out, "preemption", "unknown: %s",
		    caps->c[CAP_NO_PREEMPT].why);
	else
		row(out, "preemption", "not asked (start-up stopped before)");
}

static void print_fs(FILE *out, const struct tracer_config *cfg,
		     const struct tracer_record *rec)
{
	const struct fs_table *fs = cfg->fs;
	char initstate[300];

	/* Only modules have an initstate; built-in code has none. */
	snprintf(initstate, sizeof(initstate), "%s/%s/initstate",
		 cfg->sys_module ? cfg->sys_module : "/sys/module",
		 fs->module);
	if (rec->fs_registered > 0)
		row(out, fs->name, "%s", access(initstate, F_OK) ?
		    "built into the kernel" : "loaded (module)");
	else if (rec->fs_registered == 0)
		row(out, fs->name, "not loaded: run 'modprobe %s'", fs->module);
	else
		row(out, fs->name, "not asked (start-up stopped before)");
}

/* The function of each operation a run traces, as the table says. */
static void print_traced(FILE *out, const struct tracer_config *cfg)
{
	const struct fs_table *fs = cfg->fs;
	char line[512];
	size_t n = 0;
	unsigned int op;

	line[0] = '\0';
	for (op = 0; op < NR_OPS && n < sizeof(line); op++) {
		if (!(cfg->ops_mask & (1u << op)))
			continue;
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s %s",
				      n ? ", " : "", report_op_name(op),
				      fs->ops[op].func ? fs->ops[op].func :
				      "(none)");
	}
	row(out, "traces", "%s%s%s", line,
	    fs->generic_read ? "; reads of older kernels: " : "",
	    fs->generic_read ? fs->generic_read : "");
}

/*
 * net.core.bpf_jit_enable: 0 interprets, 1 compiles (2 also dumps);
 * without CONFIG_BPF_JIT the file is not there.  With JIT on, the programs
 * loaded above went through the JIT too.
 */
static void print_jit(FILE *out, const struct tracer_record *rec)
{
	static const char path[] = "/proc/sys/net/core/bpf_jit_enable";
	char buf[16] = "";
	FILE *f = fopen(path, "re");
	int on;

	if (!f && errno_nofile(-errno)) {
		struct errbuf eb;

		errbuf_nofile(&eb, -errno, "cannot open %s", path);
		row(out, "bpf JIT", "unknown: %s", eb.msg);
		return;
	}
	if (!f && errno == ENOENT) {
		row(out, "bpf JIT", "none (no %s: no CONFIG_BPF_JIT): programs are interpreted",
		    path);
		return;
	}
	if (!f) {
		row(out, "bpf JIT", "unknown: cannot read %s: %s", path,
		    strerror(errno));
		return;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	on = buf[0] && buf[0] != '0';
	row(out, "bpf JIT", "%s (net.core.bpf_jit_enable=%.*s)%s", on ? "on" :
	    "off: programs are interpreted", (int)strcspn(buf, "\n"), buf,
	    on && rec->progs_loaded ? ": the programs above were compiled by it" : "");
}

/* How much code the verifier walked: its own count from 5.16. */
static void processed_text(const struct tracer_record *rec, char *buf,
			   size_t size)
{
	if (rec->processed_unknown)
		snprintf(buf, size, "the kernel does not say how many it processed (verified_insns: 5.16+)");
	else
		snprintf(buf, size, "%lu processed", rec->insns_processed);
}

static void print_progs(FILE *out, const struct tracer_record *rec)
{
	char processed[128];

	if (!rec->progs_loaded)
		return;
	processed_text(rec, processed, sizeof(processed));
	row(out, "bpf programs", "yes: %u programs patched as a run patches them and verified: %lu instructions given to the verifier, %s; %zu maps (histograms in a %s map%s), %s",
	    rec->progs_loaded, rec->insns_given, processed, rec->nr_maps,
	    rec->hist_type,
	    rec->names_ok ? ", named" :
	    rec->names_pretend ? ", unnamed (--pretend=no-names)" :
	    ", unnamed: kernel before 4.15",
	    rec->percpu ? "plain adds" : "atomic adds (no per-CPU maps)");
	if (rec->verified_only)
		row(out, "", "loaded for this check alone and closed again: a run stops before loading them (see the verdict)");
}

static void print_plan(FILE *out, const struct fs_table *fs,
		       const struct tracer_record *rec)
{
	if (rec->object[0])
		row(out, "bpf object", "%s", rec->object);
	print_progs(out, rec);
	print_jit(out, rec);
	if (rec->read_path[0])
		row(out, "read path", "%s", rec->read_path);
	if (rec->addresses[0])
		row(out, "kprobes", "%s", rec->addresses);
	if (rec->fops[0])
		row(out, fs->fops_symbol, "%s", rec->fops);
	if (rec->planned) {
		row(out, "attach path", "%s", plan_path_name(rec->attach.path));
		row(out, "", "%s", rec->attach.why);
	} else {
		row(out, "attach path", "none");
	}
}

/* What the run holds: maps and programs in the kernel, its own peak RSS. */
static void print_memory(FILE *out, const struct tracer *t,
			 const struct tracer_record *rec)
{
	char text[256];

	if (rec->start_slots)
		row(out, "start records", "%u slots of %u bytes: %s",
		    rec->start_slots, rec->start_slot_bytes,
		    rec->start_why);
	tracer_kmem_text(t, text, sizeof(text));
	row(out, "kernel memory", "%s", text);
	own_peak_rss_text(text, sizeof(text));
	row(out, "peak RSS", "%s", text);
}

int check_run(FILE *out, const struct tracer_config *cfg)
{
	struct errbuf eb = { "" }, veb = { "" };
	const struct tracer_record *rec;
	struct tracer *t = tracer_new();
	struct utsname u;
	int err, verr, sig, tp_only;

	if (!t) {
		fprintf(stderr, "%s: out of memory\n", cfg->fs->tool);
		return 1;
	}
	uname(&u);
	row(out, "kernel", "%s", u.release);
	check_kern_version(out);
	err = tracer_start(t, cfg, &eb);
	/*
	 * A stop signal during the start-up (they are blocked, and wait):
	 * the rest is not done, the probes go.
	 */
	sig = stop_take();
	if (!sig)
		sig = outq_stop_signal();	/* taken by a write that waited */
	if (sig) {
		tracer_free(t);
		return 128 + sig;
	}
	rec = tracer_record(t);
	if (!rec->privileged) {
		row(out, "privileges", "no: run as root (or with CAP_BPF and CAP_PERFMON)");
	} else if (errno_nofile(err)) {
		/* Every further question would meet the same full table. */
		row(out, "privileges", "yes");
	} else {
		row(out, "privileges", "yes");
		tracer_probe_rest(t);
		verr = tracer_verify_unattached(t, &veb);
		if (verr)
			row(out, "bpf programs", "%s: %s",
			    errno_nofile(verr) ? "unknown" : "no", veb.msg);
		print_caps(out, rec);
		print_fs(out, cfg, rec);
		print_traced(out, cfg);
		print_plan(out, cfg->fs, rec);
	}
	if (rec->privileged && !errno_nofile(err))
		print_memory(out, t, rec);
	/* No attach path, but the fsync tracepoints: what can be done. */
	tp_only = !rec->planned && cfg->attach == ATTACH_AUTO &&
		  rec->caps.c[CAP_TRACEPOINT].state == CAP_YES;
	tracer_free(t);
	if (err) {
		row(out, "verdict", "%s cannot trace here: %s", cfg->fs->tool,
		    eb.msg[0] ? eb.msg : strerror(-err));
		if (tp_only)
			row(out, "", "fsync alone can be traced here, through the file system's tracepoints: %s --attach=tracepoint --ops fsync",
			    cfg->fs->tool);
		return 1;
	}
	row(out, "verdict", "%s can trace here", cfg->fs->tool);
	return 0;
}
