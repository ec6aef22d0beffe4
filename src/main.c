// SPDX-License-Identifier: GPL-2.0
/*
 * ext4dist: summarize ext4 operation latency as power-of-2 histograms, or
 * (as ext4slower, or with --slower) print each slow operation.  The
 * command line, then tracer (load + attach), run loop, clean stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "output/file_replace.h"
#include "output/report.h"
#include "output/tool_name.h"
#include "tool/cli/args.h"
#include "tool/plan/check.h"
#include "tool/dump/dump_bpf.h"
#include "tool/run/exporter.h"
#include "tool/run/fleet.h"
#include "tool/fs/fs.h"
#include "tool/run/outq.h"
#include "tool/discover/pid_filter.h"
#include "tool/run/run_loop.h"
#include "tool/run/stop_signals.h"
#include "tool/run/slow_loop.h"
#include "tool/engine/tracer.h"

_Static_assert(ARGS_MAX_FS <= FLEET_MAX_FS, "a tracer for each file system -t names");

static void config_from_args(const struct ext4dist_args *a,
			     struct tracer_config *cfg,
			     struct tracefs_paths *tracefs)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->fs = a->fs;
	cfg->kallsyms_path = a->test_kallsyms;
	cfg->sysfs_kprobe = a->test_sysfs_kprobe;
	cfg->sys_module = a->test_sys_module;
	cfg->meminfo = a->test_meminfo;
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
	cfg->load.no_map_value = !!(a->pretend & (1u << PRETEND_NO_MAP_VALUE));
	cfg->tgid = a->pid;
	cfg->factor = a->milliseconds ? 1000000ULL : 1000ULL;
	cfg->unit = a->milliseconds ? "msecs" : "usecs";
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
	cfg->start_slots = a->start_slots;
	cfg->load.log_always = !!a->verifier_log;
	cfg->load.log_level = (unsigned int)a->verifier_log;
}

/* What the run loops print, and when. */
static void print_from_args(const struct ext4dist_args *a,
			    struct run_print *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->interval = a->interval;
	pr->count = a->count;
	pr->json = a->json;
	pr->csv = a->csv;
	pr->milliseconds = a->milliseconds;
	pr->notimestamp = a->notimestamp;
	pr->extended = a->extended;
	pr->pid_filter = a->pid != 0;
	pr->heatmap = a->heatmap;
	pr->prometheus = a->prometheus;
	pr->slower = a->slower;
	pr->min_ms = a->min_ms;
}

static void report_error(const struct tracer *t, const struct errbuf *eb,
			 int err)
{
	const char *log = t ? tracer_record(t)->verifier_log : NULL;

	fprintf(stderr, "%s: %s\n", tool_name(),
		eb->msg[0] ? eb->msg : strerror(-err));
	if (log)
		fprintf(stderr, "--- verifier log ---\n%s--- end of verifier log ---\n",
			log);
}

/*
 * --check of each file system -t names: 0 when every one can trace, 1
 * when one cannot, or 128 + the signal that stopped it (said).
 */
static int check_each(const struct ext4dist_args *a, struct tracer_config *cfg)
{
	unsigned int i;
	int rc = 0, err;

	for (i = 0; i < a->nr_fs; i++) {
		cfg->fs = a->fs_list[i];
		if (i)
			putchar('\n');
		err = check_run(stdout, cfg);
		if (err > 1) {
			fprintf(stderr, "%s: --check stopped by SIG%s (probes removed)\n",
				tool_name(), stop_signal_name(err - 128));
			return err;
		}
		if (err)
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

/*
 * A standard stream that is closed gets /dev/null in its place, so that
 * no descriptor ext4dist opens takes its number (text meant for stderr
 * written to a BPF map).  Returns 1 when stdout was the closed one: its
 * output could not reach anyone, which main() says.
 */
static int stdio_reserve(void)
{
	int fd, stdout_closed = 0;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		stdout_closed |= fd == 1;
		/* The lowest free number: fd itself. */
		if (open("/dev/null", O_RDWR) != fd)
			break;
	}
	return stdout_closed;
}

/*
 * stdout flushed and never failed: 0; else 1 after a line on stderr
 * (stdio keeps a write's error until here: --version > /dev/full).
 */
static int stdout_done(const char *prog)
{
	int err = 0;

	if (fflush(stdout) == EOF)
		err = errno;
	else if (ferror(stdout))
		err = EIO;
	if (!err)
		return 0;
	fprintf(stderr, "%s: cannot write to standard output: %s\n", prog,
		strerror(err));
	return 1;
}

/*
 * A run: start-up (a refusal said on stderr), the loop, the stop.  The
 * exit status, or -errno after a failed output (said).
 */
static int run(const struct ext4dist_args *args, struct tracer_config *cfg,
	       struct exporter *x)
{
	struct fleet fl;
	struct run_print pr;
	struct errbuf eb = { "" };
	unsigned int failed = 0;
	int err;

	print_from_args(args, &pr);
	err = fleet_start(&fl, cfg, args->fs_list, args->nr_fs, &pr, &eb,
			  &failed);
	if (err) {
		report_error(fl.t[failed], &eb, err);
		fleet_free(&fl);
		return 1;
	}
	if (x)
		exporter_serve(x, &fl);
	err = args->slower ? slow_loop(fl.t[0], &pr, stdout) :
			     run_loop(&fl, x, &pr, stdout);
	fleet_free(&fl);
	if (err < 0) {
		fprintf(stderr, "%s: stopped: %s (probes removed)\n",
			tool_name(), strerror(-err));
		return err;
	}
	return run_loop_stopped_by(err, stderr);
}

/*
 * --check, or a run, once what they would replace, serve and filter is
 * found fit (--check follows a run to the end of its start-up: these
 * too).
 */
static int traced(struct ext4dist_args *args, struct tracer_config *cfg)
{
	struct errbuf eb = { "" };
	struct exporter *x = NULL;
	int rc;

	if (open_outputs(args, &x, &eb) ||
	    (args->pid && pid_filter_resolve(args->pid, &cfg->tgid, &eb)) ||
	    (args->slower &&
	     slow_loop_rings_fit(args->ring_pages, args->test_meminfo, &eb))) {
		fprintf(stderr, "%s: %s\n", tool_name(), eb.msg);
		exporter_close(x);
		return 1;
	}
	rc = args->check ? check_each(args, cfg) : run(args, cfg, x);
	exporter_close(x);
	return rc;
}

/* outq_finish()'s line when the reader took not all the output. */
static void lost_line(char *buf, size_t size, const struct outq_result *r,
		      void *arg)
{
	snprintf(buf, size, "%s: stopped with %llu bytes of output not written: standard output was not read for %u.%u s after the end (probes removed)\n",
		 (const char *)arg, r->lost, r->waited_ms / 1000,
		 r->waited_ms % 1000 / 100);
}

/*
 * The output written out, as far as its reader allows (outq.h): the exit
 * status rc, or 1 when output was lost or could not be written (said,
 * unless the run said so already: rc -errno).
 */
static int finish(const char *prog, int rc, int check)
{
	struct outq_result r;

	outq_finish(&r, lost_line, (void *)prog);
	if (r.lost)
		return 1;
	if (r.err && rc >= 0) {
		fprintf(stderr, check ?
			"%s: cannot write to standard output: %s\n" :
			"%s: stopped: %s (probes removed)\n",
			prog, strerror(-r.err));
		return 1;
	}
	return rc < 0 ? 1 : rc;
}

int main(int argc, char **argv)
{
	struct ext4dist_args args;
	struct tracer_config cfg;
	struct tracefs_paths tracefs;
	struct errbuf eb = { "" };
	static char prefix[32];
	int stdout_closed = stdio_reserve();
	int err;

	/* The same binary as ext4slower (make install links the name). */
	if (argc > 0 && args_invoked_as_slower(argv[0]))
		err = args_parse_slower(argc, argv, &args, stdout, stderr);
	else
		err = args_parse(argc, argv, &args, stdout, stderr);
	tool_name_set(args.prog);
	if (err == ARGS_ERR_USAGE || err == ARGS_ERR_INTERVAL0)
		return args_exit_code(err);
	if (stdout_closed) {
		fprintf(stderr, "%s: cannot write to standard output: it is closed; open it (to /dev/null to discard the output)\n",
			tool_name());
		return 1;
	}
	/* -h, --version: served, or their text failed midway. */
	if (err == ARGS_EXIT_OK)
		return stdout_done(tool_name());
	if (err == -ENOMEM) {
		fprintf(stderr, "%s: out of memory\n", tool_name());
		return 1;
	}
	if (err < 0) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n",
			tool_name(), strerror(-err));
		return 1;
	}
	snprintf(prefix, sizeof(prefix), "%s: ", tool_name());
	vlog_set(args.verbose, stderr, prefix);
	privileges_raise_nofile();
	config_from_args(&args, &cfg, &tracefs);
	text_pages_drop();
	if (args.dump_bpf) {
		err = dump_bpf_mode(args.dump_bpf, stdout, &cfg, &eb);
		if (err)
			fprintf(stderr, "%s: %s\n", tool_name(), eb.msg);
		return err ? 1 : 0;
	}
	/*
	 * From here probes may be attached (--check attaches them too): every
	 * signal that would end the process only stops it, through the path
	 * that removes them, and output goes through the queue, which no
	 * reader can stall for good.
	 */
	err = stop_signals_setup();
	if (err) {
		fprintf(stderr, "%s: cannot set up signal handling: %s\n",
			tool_name(), strerror(-err));
		return 1;
	}
	err = outq_start();
	if (err) {
		/* pthread_create()'s EAGAIN: no memory, or RLIMIT_NPROC reached. */
		fprintf(stderr, "%s: cannot start the output's writer thread: %s%s\n",
			tool_name(), strerror(-err), err == -EAGAIN ?
			" (out of memory, or of processes: RLIMIT_NPROC)" : "");
		return 1;
	}
	vlog_set(args.verbose, stderr, prefix);
	return finish(tool_name(), traced(&args, &cfg), args.check);
}
