// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dist: summarize ext4 operation latency as power-of-2 histograms, or
 * (as ext4slower, or with --slower) print each slow operation.  The
 * command line, then tracer (load + attach), run loop, clean stop.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "output/file_replace.h"
#include "output/report.h"
#include "tool/args.h"
#include "tool/check.h"
#include "tool/dump_bpf.h"
#include "tool/exporter.h"
#include "tool/fleet.h"
#include "tool/fs.h"
#include "tool/pid_filter.h"
#include "tool/run_loop.h"
#include "tool/slow_loop.h"
#include "tool/tracer.h"

static void config_from_args(const struct ext4dist_args *a,
			     struct tracer_config *cfg,
			     struct tracefs_paths *tracefs)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->fs = a->fs;
	cfg->kallsyms_path = a->test_kallsyms;
	cfg->sysfs_kprobe = a->test_sysfs_kprobe;
	if (a->test_tracing || a->test_debugfs ||
	    (a->pretend & (1u << PRETEND_NO_TRACEFS))) {
		tracefs->tracing = a->test_tracing ? a->test_tracing :
						     "/sys/kernel/tracing";
		/* As before 4.1: only debugfs's tracing dir. */
		if (a->pretend & (1u << PRETEND_NO_TRACEFS))
			tracefs->tracing = NULL;
		tracefs->debugfs = a->test_debugfs ? a->test_debugfs :
						     "/sys/kernel/debug";
		cfg->tracefs = tracefs;
	}
	cfg->pretend = a->pretend;
	cfg->load.no_percpu = !!(a->pretend & (1u << PRETEND_NO_PERCPU));
	cfg->load.no_names = !!(a->pretend & (1u << PRETEND_NO_NAMES));
	cfg->tgid = a->pid;
	cfg->factor = a->milliseconds ? 1000000ULL : 1000ULL;
	cfg->ops_mask = a->ops_mask;
	cfg->attach = a->attach;
	cfg->maxactive = a->maxactive;
	cfg->read_generic = a->read_path == READ_PATH_GENERIC;
	cfg->fops_addr = a->fops_addr;
	/*
	 * BCC's ext4slower prints a call when its latency in whole us is
	 * above min_ms * 1000: at least (min_ms * 1000 + 1) us, in ns.
	 */
	cfg->slow = a->slower;
	cfg->slow_ns = a->min_ms ? (a->min_ms * 1000ULL + 1) * 1000ULL : 0;
	cfg->slow_pages = a->ring_pages;
	cfg->verifier_log = a->verifier_log;
	cfg->dump_maps = a->dump_maps;
	cfg->load.log_always = a->verifier_log;
}

static void report_error(const struct tracer *t, const struct errbuf *eb,
			 int err)
{
	const char *log = t ? tracer_record(t)->verifier_log : NULL;

	fprintf(stderr, "%s: %s\n", t ? tracer_fs(t)->tool : "ext4dist",
		eb->msg[0] ? eb->msg : strerror(-err));
	if (log)
		fprintf(stderr, "--- verifier log ---\n%s--- end of verifier log ---\n",
			log);
}

/* --check of each file system -t names: 0 when every one can trace. */
static int check_each(const struct ext4dist_args *a, struct tracer_config *cfg)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < a->nr_fs; i++) {
		cfg->fs = a->fs_list[i];
		if (i)
			putchar('\n');
		if (check_run(stdout, cfg))
			rc = 1;
	}
	return rc;
}

/* The outputs a run replaces and the exporter's sockets, before tracing. */
static int open_outputs(const struct ext4dist_args *a, struct exporter **x,
			struct errbuf *eb)
{
	if (a->prometheus &&
	    report_prom_check_file(a->prometheus, eb->msg, sizeof(eb->msg)))
		return -EINVAL;
	if (a->heatmap &&
	    file_replace_check("--heatmap", a->heatmap, eb->msg,
			       sizeof(eb->msg)))
		return -EINVAL;
	return a->listen ? exporter_open(x, a->listen, eb) : 0;
}

static int run(const struct ext4dist_args *args, struct tracer_config *cfg,
	       struct exporter *x)
{
	struct fleet fl;
	struct errbuf eb = { "" };
	unsigned int failed = 0;
	int err;

	err = fleet_start(&fl, cfg, args, &eb, &failed);
	if (err) {
		report_error(fl.t[failed], &eb, err);
		fleet_free(&fl);
		return 1;
	}
	if (x)
		exporter_serve(x, &fl);
	err = args->slower ? slow_loop(fl.t[0], args, stdout) :
			     run_loop(&fl, x, args, stdout);
	fleet_free(&fl);
	if (err < 0) {
		fprintf(stderr, "%s: stopped: %s (probes removed)\n",
			args->prog, strerror(-err));
		return 1;
	}
	return run_loop_stopped_by(err, stderr);
}

int main(int argc, char **argv)
{
	struct ext4dist_args args;
	struct tracer_config cfg;
	struct tracefs_paths tracefs;
	struct exporter *x = NULL;
	struct errbuf eb = { "" };
	static char prefix[32];
	int err, rc;

	/* The same binary as ext4slower (make install links the name). */
	if (argc > 0 && args_invoked_as_slower(argv[0]))
		err = args_parse_slower(argc, argv, &args, stdout, stderr);
	else
		err = args_parse(argc, argv, &args, stdout, stderr);
	if (err)
		return args_exit_code(err);
	snprintf(prefix, sizeof(prefix), "%s: ", args.prog);
	vlog_set(args.verbose, stderr, prefix);
	config_from_args(&args, &cfg, &tracefs);
	if (args.dump_bpf) {
		err = args.dump_bpf == DUMP_BPF_XLATED ?
		      dump_xlated(stdout, &cfg, &eb) :
		      args.dump_bpf == DUMP_BPF_ELF ? dump_elf(stdout, &eb) :
		      args.dump_bpf == DUMP_BPF_REFUSED ?
		      dump_refused(stdout, &cfg, &eb) :
		      dump_bpf(stdout, &eb);
		if (err)
			fprintf(stderr, "%s: %s\n", args.prog, eb.msg);
		return err ? 1 : 0;
	}
	/* --check follows a run to the end of its start-up: these too. */
	if (open_outputs(&args, &x, &eb)) {
		fprintf(stderr, "%s: %s\n", args.prog, eb.msg);
		return 1;
	}
	if (args.pid && pid_filter_resolve(args.pid, &cfg.tgid, &eb)) {
		fprintf(stderr, "%s: %s\n", args.prog, eb.msg);
		exporter_close(x);
		return 1;
	}
	if (args.check) {
		exporter_close(x);
		return check_each(&args, &cfg);
	}
	err = run_loop_signals_setup();
	if (err) {
		fprintf(stderr, "%s: cannot set up signal handling: %s\n",
			args.prog, strerror(-err));
		exporter_close(x);
		return 1;
	}
	rc = run(&args, &cfg, x);
	exporter_close(x);
	return rc;
}
