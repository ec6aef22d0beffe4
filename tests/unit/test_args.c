// SPDX-License-Identifier: GPL-2.0
/* Tests of the command line parser (src/tool/cli/args.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "test.h"
#include "tool/cli/args.h"
#include "tool/fs/fs.h"

#ifndef EXT4DIST_VERSION
#define EXT4DIST_VERSION "unknown"	/* the fallback of args.c */
#endif

#define USAGE "usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]\n"
#define ERR(msg) USAGE "ext4dist: error: " msg "\n"
#define DEFAULT_OPS 0xfu
#define MAX_ARGS 16

struct run {
	int ret;
	struct ext4dist_args a;
	char *out;
	char *err;
	size_t out_len;
	size_t err_len;
};

/* Parses "ext4dist" followed by the NULL-terminated list of arguments. */
static void run_args(struct run *r, const char *first, ...)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	const char *s;
	FILE *out, *err;
	va_list ap;

	argv[argc++] = (char *)"ext4dist";
	va_start(ap, first);
	for (s = first; s && argc <= MAX_ARGS; s = va_arg(ap, const char *))
		argv[argc++] = (char *)s;
	va_end(ap);
	argv[argc] = NULL;

	memset(r, 0, sizeof(*r));
	memset(&r->a, 0x5a, sizeof(r->a));	/* parse must reset all */
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	if (!out || !err) {
		printf("FAIL open_memstream\n");
		exit(1);
	}
	r->ret = args_parse(argc, argv, &r->a, out, err);
	fclose(out);
	fclose(err);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* Expects a successful parse with nothing printed. */
static int ok(const char *name, struct run *r)
{
	char n[160];
	int good;

	snprintf(n, sizeof(n), "%s: parses", name);
	good = check_int(n, r->ret, 0);
	snprintf(n, sizeof(n), "%s: prints nothing", name);
	good &= CHECK(r->out_len == 0 && r->err_len == 0, n);
	return good;
}

/* Expects the exact error text on err, nothing on out, and exit status. */
static void fails(const char *name, struct run *r, const char *want,
		  int status)
{
	char n[160];

	snprintf(n, sizeof(n), "%s: message", name);
	check_str(n, r->err, want);
	snprintf(n, sizeof(n), "%s: exit status", name);
	check_int(n, args_exit_code(r->ret), status);
	snprintf(n, sizeof(n), "%s: nothing on stdout", name);
	CHECK(r->out_len == 0, n);
	run_free(r);
}

#define FAILS(name, msg, ...) do {					\
	struct run r_;							\
	run_args(&r_, __VA_ARGS__, NULL);				\
	fails(name, &r_, ERR(msg), 2);					\
} while (0)

static void test_defaults(void)
{
	struct run r;

	run_args(&r, NULL);
	if (ok("defaults", &r)) {
		check_int("default notimestamp", r.a.notimestamp, 0);
		check_int("default milliseconds", r.a.milliseconds, 0);
		check_int("default pid", r.a.pid, 0);
		check_int("default interval", (long long)r.a.interval, 0);
		check_int("default count", (long long)r.a.count, 99999999);
		check_int("default verbose", r.a.verbose, 0);
		check_int("default json", r.a.json, 0);
		check_int("default extended", r.a.extended, 0);
		check_int("default check", r.a.check, 0);
		check_int("default dump_bpf", r.a.dump_bpf, 0);
		CHECK(r.a.prometheus == NULL, "default prometheus off");
		check_int("default ops", r.a.ops_mask, DEFAULT_OPS);
		check_int("default attach", r.a.attach, ATTACH_AUTO);
		check_int("default read path", r.a.read_path, READ_PATH_AUTO);
		check_int("default maxactive", r.a.maxactive, 0);
		check_int("default fops addr", (long long)r.a.fops_addr, 0);
	}
	run_free(&r);
}

static void test_bcc_options(void)
{
	struct run r;

	run_args(&r, "-T", NULL);
	if (ok("-T", &r))
		check_int("-T sets notimestamp", r.a.notimestamp, 1);
	run_free(&r);
	run_args(&r, "--notimestamp", NULL);
	if (ok("--notimestamp", &r))
		check_int("--notimestamp sets it", r.a.notimestamp, 1);
	run_free(&r);
	run_args(&r, "-m", NULL);
	if (ok("-m", &r))
		check_int("-m sets milliseconds", r.a.milliseconds, 1);
	run_free(&r);
	run_args(&r, "--milliseconds", NULL);
	if (ok("--milliseconds", &r))
		check_int("--milliseconds sets it", r.a.milliseconds, 1);
	run_free(&r);

	run_args(&r, "-p", "181", NULL);
	if (ok("-p 181", &r))
		check_int("-p 181 value", r.a.pid, 181);
	run_free(&r);
	run_args(&r, "-p181", NULL);
	if (ok("-p181", &r))
		check_int("-p181 value", r.a.pid, 181);
	run_free(&r);
	run_args(&r, "-p=182", NULL);
	if (ok("-p=182", &r))
		check_int("-p=182 value", r.a.pid, 182);
	run_free(&r);
	run_args(&r, "--pid", "4194304", NULL);
	if (ok("--pid 4194304 (PID_MAX_LIMIT)", &r))
		check_int("--pid max value", r.a.pid, 4194304);
	run_free(&r);
	run_args(&r, "--pid=1", NULL);
	if (ok("--pid=1", &r))
		check_int("--pid=1 value", r.a.pid, 1);
	run_free(&r);
	run_args(&r, "-p", "007", NULL);
	if (ok("-p 007 is decimal", &r))
		check_int("-p 007 value", r.a.pid, 7);
	run_free(&r);

	run_args(&r, "5", NULL);
	if (ok("interval", &r)) {
		check_int("interval value", (long long)r.a.interval, 5);
		check_int("interval keeps default count", (long long)r.a.count,
			  99999999);
	}
	run_free(&r);
	run_args(&r, "1", "10", NULL);
	if (ok("interval count", &r)) {
		check_int("interval 1", (long long)r.a.interval, 1);
		check_int("count 10", (long long)r.a.count, 10);
	}
	run_free(&r);
	run_args(&r, "2147483647", "4294967295", NULL);
	if (ok("largest interval and count", &r)) {
		check_int("interval max", (long long)r.a.interval, 2147483647);
		check_int("count max", (long long)r.a.count, 4294967295LL);
	}
	run_free(&r);

	run_args(&r, "-Tm", "-p", "42", "3", "4", NULL);
	if (ok("BCC combination", &r)) {
		CHECK(r.a.notimestamp && r.a.milliseconds && r.a.pid == 42 &&
		      r.a.interval == 3 && r.a.count == 4,
		      "BCC combination values");
	}
	run_free(&r);
	run_args(&r, "-mp", "43", NULL);
	if (ok("-mp 43 cluster", &r))
		CHECK(r.a.milliseconds && r.a.pid == 43, "-mp 43 values");
	run_free(&r);
	run_args(&r, "-Tmp44", NULL);
	if (ok("-Tmp44 cluster", &r))
		CHECK(r.a.notimestamp && r.a.milliseconds && r.a.pid == 44,
		      "-Tmp44 values");
	run_free(&r);
	run_args(&r, "1", "-m", "7", NULL);
	if (ok("positionals around an option", &r))
		CHECK(r.a.interval == 1 && r.a.count == 7 && r.a.milliseconds,
		      "positionals around an option values");
	run_free(&r);
	run_args(&r, "-m", "--", "2", "3", NULL);
	if (ok("-- then positionals", &r))
		CHECK(r.a.interval == 2 && r.a.count == 3, "-- values");
	run_free(&r);
	run_args(&r, "--milli", "--notim", "--pi", "9", NULL);
	if (ok("unique prefixes", &r))
		CHECK(r.a.milliseconds && r.a.notimestamp && r.a.pid == 9,
		      "unique prefix values");
	run_free(&r);
	run_args(&r, "-p", "1", "-p", "2", NULL);
	if (ok("repeated option, last wins", &r))
		check_int("last -p wins", r.a.pid, 2);
	run_free(&r);
}

static void test_own_options(void)
{
	struct run r;

	run_args(&r, "-v", NULL);
	if (ok("-v", &r))
		check_int("-v once", r.a.verbose, 1);
	run_free(&r);
	run_args(&r, "-vvv", "--verbose", NULL);
	if (ok("-vvv --verbose", &r))
		check_int("verbose counts", r.a.verbose, 4);
	run_free(&r);
	run_args(&r, "-j", NULL);
	if (ok("-j", &r))
		check_int("-j json", r.a.json, 1);
	run_free(&r);
	run_args(&r, "--json", NULL);
	if (ok("--json", &r))
		check_int("--json json", r.a.json, 1);
	run_free(&r);
	run_args(&r, "-e", NULL);
	if (ok("-e", &r))
		check_int("-e extended", r.a.extended, 1);
	run_free(&r);
	run_args(&r, "--extended", NULL);
	if (ok("--extended", &r))
		check_int("--extended extended", r.a.extended, 1);
	run_free(&r);
	run_args(&r, "-je", NULL);
	if (ok("-je", &r))
		CHECK(r.a.json && r.a.extended, "-je values");
	run_free(&r);

	run_args(&r, "--ops", "read,getattr", NULL);
	if (ok("--ops read,getattr", &r))
		check_int("--ops read,getattr mask", r.a.ops_mask,
			  (1 << OP_READ) | (1 << OP_GETATTR));
	run_free(&r);
	run_args(&r, "--ops=fsync", NULL);
	if (ok("--ops=fsync", &r))
		check_int("--ops=fsync mask", r.a.ops_mask, 1 << OP_FSYNC);
	run_free(&r);
	run_args(&r, "--ops", "getattr,fsync,open,write,read,read", NULL);
	if (ok("--ops all, repeated", &r))
		check_int("--ops all mask", r.a.ops_mask, 0x1f);
	run_free(&r);

	run_args(&r, "--prometheus", "/run/x.prom", NULL);
	if (ok("--prometheus FILE", &r))
		check_str("--prometheus path", r.a.prometheus, "/run/x.prom");
	run_free(&r);
	run_args(&r, "--prometheus=rel dir/a b.prom", NULL);
	if (ok("--prometheus=FILE", &r))
		check_str("--prometheus= path as given", r.a.prometheus,
			  "rel dir/a b.prom");
	run_free(&r);

	run_args(&r, "--attach=pmu", NULL);
	if (ok("--attach=pmu", &r))
		check_int("attach pmu", r.a.attach, ATTACH_PMU);
	run_free(&r);
	run_args(&r, "--attach", "tracefs", NULL);
	if (ok("--attach tracefs", &r))
		check_int("attach tracefs", r.a.attach, ATTACH_TRACEFS);
	run_free(&r);
	run_args(&r, "--attach=tracefs", "--attach=auto", NULL);
	if (ok("--attach=auto", &r))
		check_int("attach auto", r.a.attach, ATTACH_AUTO);
	run_free(&r);
	run_args(&r, "--read-path=generic", NULL);
	if (ok("--read-path=generic", &r))
		check_int("read path generic", r.a.read_path,
			  READ_PATH_GENERIC);
	run_free(&r);
	run_args(&r, "--read-path", "generic", "--read-path", "auto", NULL);
	if (ok("--read-path auto", &r))
		check_int("read path auto", r.a.read_path, READ_PATH_AUTO);
	run_free(&r);

	run_args(&r, "--maxactive", "1", NULL);
	if (ok("--maxactive 1", &r))
		check_int("maxactive 1", r.a.maxactive, 1);
	run_free(&r);
	run_args(&r, "--maxactive=4096", NULL);
	if (ok("--maxactive=4096", &r))
		check_int("maxactive 4096", r.a.maxactive, 4096);
	run_free(&r);

	run_args(&r, "--fops-addr", "0xffffffff82a3c4c0", NULL);
	if (ok("--fops-addr hex", &r))
		CHECK(r.a.fops_addr == 0xffffffff82a3c4c0ULL, "fops hex value");
	run_free(&r);
	run_args(&r, "--fops-addr=0XFFFFFFFFFFFFFFFF", NULL);
	if (ok("--fops-addr upper-case hex", &r))
		CHECK(r.a.fops_addr == ~0ULL, "fops max value");
	run_free(&r);
	run_args(&r, "--fops-addr", "18446744071607518400", NULL);
	if (ok("--fops-addr decimal", &r))
		CHECK(r.a.fops_addr == 18446744071607518400ULL,
		      "fops decimal value");
	run_free(&r);

	run_args(&r, "--check", NULL);
	if (ok("--check", &r))
		check_int("check flag", r.a.check, 1);
	run_free(&r);
	run_args(&r, "--dump-bpf", NULL);
	if (ok("--dump-bpf", &r))
		check_int("dump_bpf flag", r.a.dump_bpf, 1);
	run_free(&r);
	run_args(&r, "--dump-m", NULL);
	if (ok("--dump-m prefix", &r))
		check_int("dump_maps flag", r.a.dump_maps, 1);
	run_free(&r);
	run_args(&r, "--dump-bpf=xlated", "--verifier-log", NULL);
	if (ok("--dump-bpf=xlated --verifier-log", &r)) {
		check_int("dump xlated", r.a.dump_bpf, DUMP_BPF_XLATED);
		check_int("verifier log flag: level 2", r.a.verifier_log, 2);
	}
	run_free(&r);
	run_args(&r, "--dump-bpf=elf", NULL);
	if (ok("--dump-bpf=elf", &r))
		check_int("dump elf", r.a.dump_bpf, DUMP_BPF_ELF);
	run_free(&r);
	run_args(&r, "--dump-bpf=jited", "--prog", "kprobe/*", NULL);
	if (ok("--dump-bpf=jited --prog", &r)) {
		check_int("dump jited", r.a.dump_bpf, DUMP_BPF_JITED);
		check_str("--prog's pattern", r.a.prog_glob, "kprobe/*");
		check_int("no --ops given", r.a.ops_given, 0);
	}
	run_free(&r);
	run_args(&r, "--check", "--verifier-log=4", "--prog=past_end", "--ops",
		 "fsync", NULL);
	if (ok("--verifier-log=4", &r)) {
		check_int("verifier log level 4", r.a.verifier_log, 4);
		check_int("--ops given", r.a.ops_given, 1);
	}
	run_free(&r);
	run_args(&r, "--verifier-log=1", NULL);
	if (ok("--verifier-log=1", &r))
		check_int("verifier log level 1", r.a.verifier_log, 1);
	run_free(&r);
	run_args(&r, "--attach=tracepoint", "--ops", "fsync", NULL);
	if (ok("--attach=tracepoint", &r))
		check_int("attach tracepoint", r.a.attach, ATTACH_TRACEPOINT);
	run_free(&r);
}

static void test_served(void)
{
	struct run r;
	const char *line, *end;
	int longest = 0;

	run_args(&r, "--version", NULL);
	check_int("--version result", r.ret, ARGS_EXIT_OK);
	check_int("--version exit status", args_exit_code(r.ret), 0);
	check_str("--version text", r.out, "ext4dist " EXT4DIST_VERSION "\n");
	CHECK(r.err_len == 0, "--version: nothing on stderr");
	run_free(&r);

	run_args(&r, "-h", NULL);
	check_int("-h result", r.ret, ARGS_EXIT_OK);
	check_int("-h exit status", args_exit_code(r.ret), 0);
	check_golden("-h text", r.out, r.out_len,
		     TEST_GOLDEN "args_help.txt");
	CHECK(r.err_len == 0, "-h: nothing on stderr");
	for (line = r.out; line && *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		if (end - line > longest)
			longest = (int)(end - line);
	}
	CHECK(longest <= 79, "help lines fit 80 columns");
	run_free(&r);

	run_args(&r, "--help", NULL);
	check_golden("--help text", r.out, r.out_len,
		     TEST_GOLDEN "args_help.txt");
	run_free(&r);
	run_args(&r, "-Th", NULL);
	check_int("-Th serves help", r.ret, ARGS_EXIT_OK);
	run_free(&r);
	/* argparse acts in order: help before a later bad value ... */
	run_args(&r, "-h", "-p", "x", NULL);
	check_int("-h before an error serves help", r.ret, ARGS_EXIT_OK);
	CHECK(r.err_len == 0, "-h before an error: no error");
	run_free(&r);
	/* ... and before the interval check and unknown arguments */
	run_args(&r, "0", "--bogus", "-h", NULL);
	check_int("-h after interval 0 and junk serves help", r.ret,
		  ARGS_EXIT_OK);
	run_free(&r);
	FAILS("error before -h", "argument -p/--pid: invalid int value: 'x'",
	      "-p", "x", "-h");
}

/* -h's text (longer than stdio's buffer) and --version's to a full device. */
static void test_served_write_error(void)
{
	char *argv_h[] = { "ext4dist", "-h", NULL };
	char *argv_v[] = { "ext4dist", "--version", NULL };
	struct ext4dist_args a;
	FILE *f = fopen("/dev/full", "w");

	if (!CHECK(f, "open /dev/full"))
		return;
	check_int("-h to /dev/full: the write's error",
		  args_parse(2, argv_h, &a, f, stderr), -ENOSPC);
	fclose(f);
	f = fopen("/dev/full", "w");
	if (!CHECK(f, "open /dev/full again"))
		return;
	/* Short: stdio fails only at the flush, which is main()'s. */
	check_int("--version to /dev/full: served", args_parse(2, argv_v, &a, f,
							       stderr),
		  ARGS_EXIT_OK);
	check_int("--version to /dev/full: the flush fails", fflush(f), EOF);
	fclose(f);
}

static void test_value_errors(void)
{
	FAILS("-p abc", "argument -p/--pid: invalid int value: 'abc'",
	      "-p", "abc");
	FAILS("-p 0", "argument -p/--pid: value out of range: '0' "
	      "(expected 1 to 4194304)", "-p", "0");
	FAILS("-p 4194305", "argument -p/--pid: value out of range: "
	      "'4194305' (expected 1 to 4194304)", "-p", "4194305");
	FAILS("-p overflow", "argument -p/--pid: value out of range: "
	      "'99999999999999999999999' (expected 1 to 4194304)",
	      "--pid", "99999999999999999999999");
	FAILS("-p -1", "argument -p/--pid: invalid int value: '-1'",
	      "-p", "-1");
	FAILS("-p +1", "argument -p/--pid: invalid int value: '+1'",
	      "-p", "+1");
	FAILS("-p blank", "argument -p/--pid: invalid int value: ' 1'",
	      "-p", " 1");
	FAILS("-p trailing junk", "argument -p/--pid: invalid int value: "
	      "'12x'", "-p12x");
	FAILS("-p junk after overflow", "argument -p/--pid: invalid int "
	      "value: '99999999999999999999999x'",
	      "-p", "99999999999999999999999x");
	FAILS("-p hex", "argument -p/--pid: invalid int value: '0x10'",
	      "-p", "0x10");
	FAILS("--pid= empty", "argument -p/--pid: invalid int value: ''",
	      "--pid=");
	FAILS("-p code injection", "argument -p/--pid: invalid int value: "
	      "'1 || 1'", "-p", "1 || 1");
	FAILS("-p control bytes escaped", "argument -p/--pid: invalid int "
	      "value: '\\x1b[2J\\x0a\\x5c'", "-p", "\x1b[2J\n\\");
	FAILS("-p missing", "argument -p/--pid: expected one argument", "-p");
	FAILS("-p before an option", "argument -p/--pid: expected one "
	      "argument", "-p", "-T");
	FAILS("-p before --", "argument -p/--pid: expected one argument",
	      "-p", "--", "5");

	FAILS("interval junk", "argument interval: invalid int value: 'x'",
	      "x");
	FAILS("interval negative", "argument interval: invalid int value: "
	      "'-1'", "-1");
	FAILS("interval fraction", "argument interval: invalid int value: "
	      "'1.5'", "1.5");
	FAILS("interval trailing junk", "argument interval: invalid int "
	      "value: '1s'", "1s");
	FAILS("interval too large", "argument interval: value out of range: "
	      "'2147483648' (expected 1 to 2147483647)", "2147483648");
	FAILS("interval overflow", "argument interval: value out of range: "
	      "'18446744073709551616' (expected 1 to 2147483647)",
	      "18446744073709551616");
	FAILS("interval empty", "argument interval: invalid int value: ''",
	      "");
	FAILS("count 0", "argument count: value out of range: '0' "
	      "(expected 1 to 4294967295)", "1", "0");
	FAILS("count junk", "argument count: invalid int value: 'ten'",
	      "1", "ten");
	FAILS("count too large", "argument count: value out of range: "
	      "'4294967296' (expected 1 to 4294967295)", "1", "4294967296");

	FAILS("--ops empty", "argument --ops: expected at least one operation",
	      "--ops=");
	FAILS("--ops unknown", "argument --ops: invalid choice: 'stat' "
	      "(choose from 'read', 'write', 'open', 'fsync', 'getattr')",
	      "--ops", "read,stat");
	FAILS("--ops empty item", "argument --ops: invalid choice: '' "
	      "(choose from 'read', 'write', 'open', 'fsync', 'getattr')",
	      "--ops", "read,");
	FAILS("--ops case", "argument --ops: invalid choice: 'READ' "
	      "(choose from 'read', 'write', 'open', 'fsync', 'getattr')",
	      "--ops", "READ");
	FAILS("--ops missing", "argument --ops: expected one argument",
	      "--ops");
	FAILS("--attach unknown", "argument --attach: invalid choice: "
	      "'uprobe' (choose from 'auto', 'pmu', 'tracefs', 'multi', 'fentry', "
	      "'tracepoint')",
	      "--attach=uprobe");
	FAILS("--attach prefix is no choice", "argument --attach: invalid "
	      "choice: 'pm' (choose from 'auto', 'pmu', 'tracefs', 'multi', 'fentry', "
	      "'tracepoint')",
	      "--attach", "pm");
	FAILS("--read-path unknown", "argument --read-path: invalid choice: "
	      "'ext4' (choose from 'auto', 'generic')", "--read-path", "ext4");
	FAILS("--maxactive 0", "argument --maxactive: value out of range: "
	      "'0' (expected 1 to 4096)", "--maxactive", "0");
	FAILS("--maxactive 4097", "argument --maxactive: value out of range: "
	      "'4097' (expected 1 to 4096)", "--maxactive=4097");
	FAILS("--maxactive junk", "argument --maxactive: invalid int value: "
	      "'many'", "--maxactive", "many");
	FAILS("--fops-addr junk", "argument --fops-addr: invalid address "
	      "value: 'zz'", "--fops-addr", "zz");
	FAILS("--fops-addr bare 0x", "argument --fops-addr: invalid address "
	      "value: '0x'", "--fops-addr", "0x");
	FAILS("--fops-addr bad hex", "argument --fops-addr: invalid address "
	      "value: '0xffg'", "--fops-addr", "0xffg");
	FAILS("--fops-addr 0", "argument --fops-addr: value out of range: "
	      "'0x0' (expected a non-zero address)", "--fops-addr", "0x0");
	FAILS("--fops-addr overflow", "argument --fops-addr: value out of "
	      "range: '0x10000000000000000' (expected at most 64 bits)",
	      "--fops-addr", "0x10000000000000000");
	FAILS("--prometheus empty", "argument --prometheus: expected a file "
	      "name", "--prometheus=");
	FAILS("--verifier-log level 3", "argument --verifier-log: invalid "
	      "choice: '3' (choose from '1', '2', '4')", "--verifier-log=3");
	FAILS("--prog empty", "argument --prog: expected a pattern",
	      "--dump-bpf", "--prog=");
	FAILS("--prog without a dump", "argument --prog: only with --dump-bpf "
	      "or --verifier-log (it picks the programs they show)", "--prog",
	      "kprobe/*");
	FAILS("--prometheus missing", "argument --prometheus: expected one "
	      "argument", "--prometheus");
	FAILS("--listen port 0", "argument --listen: invalid port: '0' "
	      "(expected 1 to 65535)", "--listen", "0");
	FAILS("--listen a name", "argument --listen: invalid address: "
	      "'localhost' (expected a numeric IPv4 address such as 127.0.0.1 "
	      "or 0.0.0.0, [IPV6] in brackets, or systemd)", "--listen",
	      "localhost:9439");
	FAILS("--listen with a control byte", "argument --listen: invalid "
	      "address: '\\x01:80'", "--listen", "\001:80");
	FAILS("--heatmap empty", "argument --heatmap: expected a file name",
	      "--heatmap=", "1");
	FAILS("--heatmap without an interval", "argument --heatmap: needs an "
	      "interval, its columns (ext4dist --heatmap FILE.svg 5: a column "
	      "per 5 s)", "--heatmap", "x.svg");
	FAILS("-t with an unknown one", "argument -t/--type: invalid choice: 'zfs' "
	      "(choose from 'ext4', 'xfs', 'btrfs', 'f2fs')", "-t", "ext4,zfs");
	FAILS("--fops-addr with two file systems", "argument --fops-addr: "
	      "the address of one file system's file operations, and -t "
	      "names 2 of them: trace each in a run of its own", "-t", "ext4,btrfs",
	      "--fops-addr", "0x10");
	FAILS("--ops getattr with xfs", "argument --ops: xfs has no getattr "
	      "function to trace", "-t", "ext4,xfs", "--ops", "getattr");
	FAILS("--slower with two file systems", "argument --slower: the slow "
	      "mode traces one file system at a time", "-t", "ext4,xfs",
	      "--slower", "1");
	FAILS("--slower with --listen", "argument --slower: not allowed with "
	      "-T, -m, -e, --prometheus, --listen, interval or count (the "
	      "histogram mode's)", "--listen", "9439", "--slower", "1");
}

/* The exporter's and the heatmap's options, and several file systems. */
static void test_fleet_options(void)
{
	struct run r;

	run_args(&r, "--listen", "9439", NULL);
	if (ok("--listen PORT", &r))
		check_str("--listen as given", r.a.listen, "9439");
	run_free(&r);
	run_args(&r, "--listen=[::1]:9439", "--listen=systemd", NULL);
	if (ok("--listen systemd, the last", &r))
		check_str("--listen systemd", r.a.listen, "systemd");
	run_free(&r);
	run_args(&r, "--heatmap", "lat.svg", "5", NULL);
	if (ok("--heatmap FILE interval", &r))
		check_str("--heatmap path", r.a.heatmap, "lat.svg");
	run_free(&r);
	run_args(&r, "-t", "f2fs,ext4,xfs", NULL);
	if (ok("-t three", &r)) {
		check_int("-t three: how many", r.a.nr_fs, 3);
		check_str("-t three: in the tables' order", r.a.fs_list[0]->name,
			  "ext4");
		check_str("-t three: second", r.a.fs_list[1]->name, "xfs");
		check_str("-t three: third", r.a.fs_list[2]->name, "f2fs");
		check_str("-t three: the first is fs", r.a.fs->name, "ext4");
	}
	run_free(&r);
	run_args(&r, "-t", "xfs,xfs", NULL);
	if (ok("-t the same twice", &r))
		check_int("-t the same twice: once", r.a.nr_fs, 1);
	run_free(&r);
	run_args(&r, NULL);
	if (ok("no -t", &r)) {
		check_int("no -t: one", r.a.nr_fs, 1);
		check_str("no -t: ext4", r.a.fs_list[0]->name, "ext4");
		CHECK(!r.a.listen && !r.a.heatmap, "no --listen, no --heatmap");
	}
	run_free(&r);
}

static void test_syntax_errors(void)
{
	struct run r;

	FAILS("unknown long option", "unrecognized arguments: --bogus",
	      "--bogus");
	FAILS("unknown short option", "unrecognized arguments: -x", "-x");
	FAILS("unknown options collected", "unrecognized arguments: -x "
	      "--bogus=1 -", "-x", "-m", "--bogus=1", "1", "2", "-");
	FAILS("three positionals", "unrecognized arguments: 3", "1", "2",
	      "3");
	FAILS("unknown text escaped", "unrecognized arguments: --\\x07",
	      "--\a");
	FAILS("flag with a value", "argument -j/--json: ignored explicit "
	      "argument '1'", "--json=1");
	FAILS("short flag with junk", "argument -T/--notimestamp: ignored "
	      "explicit argument 'x'", "-Tx");
	FAILS("short flag with =", "argument -m/--milliseconds: ignored "
	      "explicit argument 'yes'", "-m=yes");
	FAILS("ambiguous prefix", "ambiguous option: --p could match --pid, "
	      "--prometheus, --pretend, --prog", "--p", "5");
	/* --dump meant --dump-bpf until --dump-maps, as argparse has it. */
	FAILS("ambiguous --dump", "ambiguous option: --dump could match "
	      "--dump-bpf, --dump-maps", "--dump");
	FAILS("ambiguous prefix with value", "ambiguous option: --ver=1 could "
	      "match --verbose, --verifier-log, --version", "--ver=1");
	FAILS("unknown option beats interval 0", "unrecognized arguments: "
	      "--bogus", "0", "--bogus");
	FAILS("value error beats interval 0", "argument count: invalid int "
	      "value: 'x'", "0", "x");

	run_args(&r, "0", NULL);
	fails("interval 0", &r, "ERROR: interval 0. Exiting.\n", 1);
	run_args(&r, "-m", "000", "5", NULL);
	fails("interval 000", &r, "ERROR: interval 0. Exiting.\n", 1);
}

static void test_exit_codes(void)
{
	check_int("exit code of 0", args_exit_code(0), 0);
	check_int("exit code of ARGS_EXIT_OK", args_exit_code(ARGS_EXIT_OK), 0);
	check_int("exit code of usage error", args_exit_code(ARGS_ERR_USAGE),
		  2);
	check_int("exit code of interval 0",
		  args_exit_code(ARGS_ERR_INTERVAL0), 1);
	check_int("exit code of -ENOMEM", args_exit_code(-ENOMEM), 1);
	check_int("exit code of -EIO", args_exit_code(-EIO), 1);
}

static void test_reentrant(void)
{
	struct run r;
	int i, same = 1;

	for (i = 0; i < 500; i++) {
		run_args(&r, "-p", "bad", NULL);
		same &= r.ret == ARGS_ERR_USAGE;
		run_free(&r);
		run_args(&r, "-m", "-p", "77", "2", "3", NULL);
		same &= r.ret == 0 && r.a.pid == 77 && r.a.interval == 2 &&
			r.a.count == 3 && r.a.milliseconds && !r.a.json;
		run_free(&r);
		run_args(&r, NULL);
		same &= r.ret == 0 && r.a.pid == 0 && r.a.interval == 0 &&
			r.a.count == 99999999 && !r.a.milliseconds;
		run_free(&r);
	}
	CHECK(same, "1500 parses in a row give the same results");
}

static void test_argc_zero(void)
{
	char *argv[] = { NULL };
	struct ext4dist_args a;

	check_int("argc 0 parses", args_parse(0, argv, &a, stdout, stderr), 0);
	check_int("argc 0 gives defaults", (long long)a.count, 99999999);
}

static void test_pretend(void)
{
	struct run r;

	run_args(&r, "--pretend", "no-percpu,no-names", NULL);
	if (ok("--pretend no-percpu,no-names", &r))
		check_int("--pretend no-percpu,no-names mask", r.a.pretend,
			  (1 << PRETEND_NO_PERCPU) | (1 << PRETEND_NO_NAMES));
	run_free(&r);
	run_args(&r, "--pretend=no-pmu,no-multi,no-percpu,no-names,"
		 "no-kallsyms-data,no-tracefs,no-ext4,no-fentry,no-maxactive,"
		 "no-read-iter,no-getattr,no-map-value", NULL);
	if (ok("--pretend every feature", &r))
		check_int("--pretend every feature mask", r.a.pretend,
			  (1 << NR_PRETEND) - 1);
	run_free(&r);
	/* As --ops (argparse's store): the last one counts. */
	run_args(&r, "--pretend=no-pmu", "--pre", "no-ext4", NULL);
	if (ok("--pretend twice, the second by prefix", &r))
		check_int("--pretend twice: the second", r.a.pretend,
			  1 << PRETEND_NO_EXT4);
	run_free(&r);
	run_args(&r, NULL);
	check_int("--pretend off by default", r.a.pretend, 0);
	run_free(&r);
	FAILS("--pretend unknown feature",
	      "argument --pretend: invalid choice: 'btf' (choose from 'no-pmu', 'no-multi', 'no-percpu', 'no-names', 'no-kallsyms-data', 'no-tracefs', 'no-ext4', 'no-fentry', 'no-maxactive', 'no-read-iter', 'no-getattr', 'no-map-value')",
	      "--pretend=no-multi,btf");
	FAILS("--pretend empty",
	      "argument --pretend: expected at least one feature",
	      "--pretend=");
	FAILS("--pretend trailing comma",
	      "argument --pretend: invalid choice: '' (choose from 'no-pmu', 'no-multi', 'no-percpu', 'no-names', 'no-kallsyms-data', 'no-tracefs', 'no-ext4', 'no-fentry', 'no-maxactive', 'no-read-iter', 'no-getattr', 'no-map-value')",
	      "--pretend=no-pmu,");
	FAILS("--pretend missing", "argument --pretend: expected one argument",
	      "--pretend");
}

#ifdef EXT4DIST_TEST_HOOKS
/* The test build (build/ext4dist-test) points system paths at fixtures. */
static void test_hooks(void)
{
	struct run r;

	run_args(&r, "--test-kallsyms", "/fix/kallsyms", "--test-sysfs-kprobe=/none",
		 "--test-tracing-dir", "/t", "--test-debugfs-dir", "/d",
		 "--test-sys-module", "/m", NULL);
	if (ok("test hooks", &r)) {
		check_str("--test-kallsyms", r.a.test_kallsyms, "/fix/kallsyms");
		check_str("--test-sysfs-kprobe", r.a.test_sysfs_kprobe, "/none");
		check_str("--test-tracing-dir", r.a.test_tracing, "/t");
		check_str("--test-debugfs-dir", r.a.test_debugfs, "/d");
		check_str("--test-sys-module", r.a.test_sys_module, "/m");
	}
	run_free(&r);
	run_args(&r, "--test-t", "/t", NULL);
	if (ok("test hook by prefix", &r))
		check_str("--test-t", r.a.test_tracing, "/t");
	run_free(&r);
	run_args(&r, NULL);
	CHECK(!r.a.test_kallsyms && !r.a.test_tracing && !r.a.test_debugfs &&
	      !r.a.test_sysfs_kprobe && !r.a.test_sys_module,
	      "test hooks off by default");
	run_free(&r);
	FAILS("relative test path",
	      "argument --test-kallsyms: expected an absolute path 'rel'",
	      "--test-kallsyms", "rel");
}
#else
/* The shipped parser knows no --test-* option, not even by prefix. */
static void test_hooks(void)
{
	FAILS("no --test-tracing-dir",
	      "unrecognized arguments: --test-tracing-dir=/x",
	      "--test-tracing-dir=/x");
	FAILS("no --test-t prefix", "unrecognized arguments: --test-t=/x",
	      "--test-t=/x");
	/* As argparse: the unknown option is dropped, /x is the interval. */
	FAILS("--test-tracing-dir /x: as an unknown option",
	      "argument interval: invalid int value: '/x'",
	      "--test-tracing-dir", "/x");
	FAILS("--test-t /x: as an unknown option",
	      "argument interval: invalid int value: '/x'", "--test-t", "/x");
	FAILS("no --test-kallsyms", "unrecognized arguments: --test-kallsyms "
	      "--test-sysfs-kprobe --test-debugfs-dir",
	      "--test-kallsyms", "--test-sysfs-kprobe", "--test-debugfs-dir");
}
#endif

static const struct test_case test_cases[] = {
	TEST_CASE(hooks),
	TEST_CASE(pretend),
	TEST_CASE(fleet_options),
	TEST_CASE(defaults),
	TEST_CASE(served_write_error),
	TEST_CASE(bcc_options),
	TEST_CASE(own_options),
	TEST_CASE(served),
	TEST_CASE(value_errors),
	TEST_CASE(syntax_errors),
	TEST_CASE(exit_codes),
	TEST_CASE(reentrant),
	TEST_CASE(argc_zero),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
