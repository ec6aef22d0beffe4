/* SPDX-License-Identifier: GPL-2.0 */
/* Command line of ext4dist: BCC's options plus this tool's own. */
#ifndef EXT4DIST_TOOL_ARGS_H
#define EXT4DIST_TOOL_ARGS_H

#include <errno.h>
#include <stdio.h>

#include "tool/plan/want.h"

enum read_path_mode { READ_PATH_AUTO = 0, READ_PATH_GENERIC };
enum dump_bpf_mode { DUMP_BPF_OFF = 0, DUMP_BPF_TEXT, DUMP_BPF_XLATED,
		     DUMP_BPF_ELF, DUMP_BPF_REFUSED, DUMP_BPF_JITED };

struct fs_table;

/* File systems one run may trace at once (-t ext4,xfs,...). */
#define ARGS_MAX_FS 4

struct ext4dist_args {
	/*
	 * -t TYPE, else the name invoked as (xfsdist): what is traced, the
	 * first of fs_list[], which -t may make several (in the order
	 * ext4, xfs, btrfs, f2fs)
	 */
	const struct fs_table *fs;
	const struct fs_table *fs_list[ARGS_MAX_FS];
	unsigned int nr_fs;
	/*
	 * The name run as (xfsdist, ext4slower; ext4dist for any other):
	 * main() makes it tool_name(), every message's prefix
	 */
	const char *prog;
	int notimestamp;		/* -T */
	int milliseconds;		/* -m */
	unsigned int pid;		/* -p PID (a tgid), 0 = every process */
	unsigned long interval;		/* seconds, 0 = print once at exit */
	unsigned long count;		/* outputs, default 99999999 */
	int verbose;			/* -v, repeatable */
	int json;			/* -j/--json */
	int extended;			/* -e/--extended */
	int check;			/* --check */
	enum dump_bpf_mode dump_bpf;	/* --dump-bpf[=WHAT] */
	int verifier_log;		/* --verifier-log[=LEVEL]: the level */
	/*
	 * --prog GLOB: the programs the dumps and the verifier log show
	 * (a section, a function or a lesson's name); NULL = all
	 */
	const char *prog_glob;
	int ops_given;			/* --ops was given: the dumps keep them */
	int dump_maps;			/* --dump-maps */
	const char *prometheus;		/* --prometheus FILE, NULL = off */
	const char *listen;		/* --listen [ADDR]:PORT|systemd, NULL = off */
	const char *heatmap;		/* --heatmap FILE.svg, NULL = off */
	unsigned int ops_mask;		/* --ops, bit per enum ext4dist_op */
	enum attach_mode attach;	/* --attach=pmu|tracefs|multi|fentry|tracepoint */
	enum read_path_mode read_path;	/* --read-path=generic */
	unsigned int maxactive;		/* --maxactive N, 0 = kernel default */
	unsigned long long fops_addr;	/* --fops-addr ADDR, 0 = look it up */
	unsigned int pretend;		/* --pretend, bit per enum pretend */
	/*
	 * Slow mode: ext4slower, or ext4dist --slower MS.  An event per call
	 * slower than min_ms (0: every call), as text, CSV (ext4slower's
	 * -j) or JSON (--json; ext4dist's -j).
	 */
	int slower;
	unsigned long min_ms;		/* default 10 */
	int csv;
	unsigned int ring_pages;	/* --ring-pages, per CPU, default 64 */
	unsigned int start_slots;	/* --start-slots, 0 = by MemTotal */
	/*
	 * System paths pointed at fixtures, NULL = the real ones.  Only the
	 * test build (EXT4DIST_TEST_HOOKS: build/ext4dist-test) has the
	 * options that set them: a root run must not read, or mount tracefs
	 * on, whatever its command line names.
	 */
	const char *test_kallsyms;	/* --test-kallsyms FILE */
	const char *test_sysfs_kprobe;	/* --test-sysfs-kprobe DIR */
	const char *test_tracing;	/* --test-tracing-dir DIR */
	const char *test_debugfs;	/* --test-debugfs-dir DIR */
	const char *test_sys_module;	/* --test-sys-module DIR */
	const char *test_meminfo;	/* --test-meminfo FILE */
};


/*
 * Parses argv into *a.  Returns 0 to run, ARGS_EXIT_OK when the request was
 * served (-h, --version: text already on out), or a negative value after an
 * error message on err; the caller exits with args_exit_code() of it:
 *   0, ARGS_EXIT_OK      exit status 0
 *   ARGS_ERR_USAGE       2 (argparse: usage line, "ext4dist: error: ...")
 *   ARGS_ERR_INTERVAL0   1 ("ERROR: interval 0. Exiting.", as BCC)
 *   other -errno         1, no message printed: -ENOMEM, or the error of
 *                        the write of -h's or --version's text to out
 * Re-entrant: no state is kept between calls.  Only validated numbers,
 * enums and flags are taken from argv, except the --prometheus and
 * --heatmap paths, the --listen address (checked by listen_parse()), the
 * --prog pattern and the test build's --test-* paths, which point into
 * argv as given.
 */
#define ARGS_EXIT_OK 1
#define ARGS_ERR_USAGE (-EINVAL)
#define ARGS_ERR_INTERVAL0 (-EDOM)
#define ARGS_DEFAULT_COUNT 99999999UL
#define ARGS_PID_MAX 4194304U		/* PID_MAX_LIMIT on 64-bit */
#define ARGS_MAXACTIVE_MAX 4096U
#define ARGS_INTERVAL_MAX 2147483647UL
#define ARGS_COUNT_MAX 4294967295UL
#define ARGS_DEFAULT_MIN_MS 10UL
#define ARGS_MIN_MS_MAX 4294967295UL
#define ARGS_DEFAULT_RING_PAGES 64U
#define ARGS_RING_PAGES_MAX 65536U

int args_parse(int argc, char **argv, struct ext4dist_args *a, FILE *out,
	       FILE *err);
int args_exit_code(int parse_result);

/*
 * args_slower.c: the command line of ext4slower (BCC's ext4slower.py,
 * plus this tool's options), with args_parse()'s contract; sets slower.
 */
int args_parse_slower(int argc, char **argv, struct ext4dist_args *a,
		      FILE *out, FILE *err);
/*
 * 1 when the program was run under the name of a slow mode (argv[0]):
 * ext4slower, xfsslower...
 */
int args_invoked_as_slower(const char *argv0);

#endif
