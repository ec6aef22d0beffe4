// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dist: summarize ext4 operation latency as power-of-2 histograms, or
 * (as ext4slower, or with --slower) print each slow operation.  The
 * command line, then tracer (load + attach), run loop, clean stop.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "output/report.h"
#include "tool/args.h"
#include "tool/check.h"
#include "tool/dump_bpf.h"
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
	cfg->ops_given = a->ops_given;
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
	cfg->prog_glob = a->prog_glob;
	cfg->dump_maps = a->dump_maps;
	cfg->load.log_always = !!a->verifier_log;
	cfg->load.log_level = (unsigned int)a->verifier_log;
}

static void report_error(const struct tracer *t, const struct errbuf *eb,
			 int err)
{
	const char *log = tracer_record(t)->verifier_log;

	fprintf(stderr, "%s: %s\n", tracer_fs(t)->tool,
		eb->msg[0] ? eb->msg : strerror(-err));
	if (log)
		fprintf(stderr, "--- verifier log ---\n%s--- end of verifier log ---\n",
			log);
}

int main(int argc, char **argv)
{
	struct ext4dist_args args;
	struct tracer_config cfg;
	struct tracefs_paths tracefs;
	struct tracer *t;
	struct errbuf eb = { "" };
	static char prefix[32];
	int err;

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
		err = dump_bpf_mode(args.dump_bpf, stdout, &cfg, &eb);
		if (err)
			fprintf(stderr, "%s: %s\n", args.prog, eb.msg);
		return err ? 1 : 0;
	}
	/* --check follows a run to the end of its start-up: these too. */
	if (args.prometheus &&
	    report_prom_check_file(args.prometheus, eb.msg, sizeof(eb.msg))) {
		fprintf(stderr, "%s: %s\n", args.prog, eb.msg);
		return 1;
	}
	if (args.pid && pid_filter_resolve(args.pid, &cfg.tgid, &eb)) {
		fprintf(stderr, "%s: %s\n", args.prog, eb.msg);
		return 1;
	}
	if (args.check)
		return check_run(stdout, &cfg);
	err = run_loop_signals_setup();
	if (err) {
		fprintf(stderr, "%s: cannot set up signal handling: %s\n",
			args.prog, strerror(-err));
		return 1;
	}
	t = tracer_new();
	if (!t) {
		fprintf(stderr, "%s: out of memory\n", args.prog);
		return 1;
	}
	err = tracer_start(t, &cfg, &eb);
	if (err) {
		report_error(t, &eb, err);
		tracer_free(t);
		return 1;
	}
	err = args.slower ? slow_loop(t, &args, stdout) :
			    run_loop(t, &args, stdout);
	tracer_free(t);
	if (err < 0) {
		fprintf(stderr, "%s: stopped: %s (probes removed)\n",
			args.prog, strerror(-err));
		return 1;
	}
	return run_loop_stopped_by(err, stderr);
}
