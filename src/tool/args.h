/* Command line of ext4dist: BCC's options plus this tool's own. */
#ifndef EXT4DIST_ARGS_H
#define EXT4DIST_ARGS_H

#include <errno.h>
#include <stdio.h>

enum attach_mode { ATTACH_AUTO = 0, ATTACH_PMU, ATTACH_TRACEFS, ATTACH_MULTI };
enum read_path_mode { READ_PATH_AUTO = 0, READ_PATH_GENERIC };

struct ext4dist_args {
	int notimestamp;		/* -T */
	int milliseconds;		/* -m */
	unsigned int pid;		/* -p PID (a tgid), 0 = every process */
	unsigned long interval;		/* seconds, 0 = print once at exit */
	unsigned long count;		/* outputs, default 99999999 */
	int verbose;			/* -v, repeatable */
	int json;			/* -j/--json */
	int extended;			/* -e/--extended */
	int check;			/* --check */
	int dump_bpf;			/* --dump-bpf */
	const char *prometheus;		/* --prometheus FILE, NULL = off */
	unsigned int ops_mask;		/* --ops, bit per enum ext4dist_op */
	enum attach_mode attach;	/* --attach=pmu|tracefs|multi */
	enum read_path_mode read_path;	/* --read-path=generic */
	unsigned int maxactive;		/* --maxactive N, 0 = kernel default */
	unsigned long long fops_addr;	/* --fops-addr ADDR, 0 = look it up */
	/*
	 * For tests only (not in -h): system paths pointed at fixtures, and
	 * the fallbacks old kernels need, forced on a new one.
	 */
	const char *test_kallsyms;	/* --test-kallsyms FILE */
	const char *test_sysfs_kprobe;	/* --test-sysfs-kprobe DIR */
	const char *test_tracing;	/* --test-tracing-dir DIR */
	const char *test_debugfs;	/* --test-debugfs-dir DIR */
	unsigned int force_fallback;	/* --test-force-fallback LIST */
};

/* Bits of force_fallback. */
#define FORCE_NO_PERCPU	0x1	/* per-CPU maps -> plain (before 4.6) */
#define FORCE_NO_LRU	0x2	/* LRU hash -> hash (before 4.10) */
#define FORCE_NO_NAMES	0x4	/* no map/program names (before 4.15) */
#define FORCE_NO_MULTI	0x8	/* no kprobe_multi links (before 5.18) */

/*
 * Parses argv into *a.  Returns 0 to run, ARGS_EXIT_OK when the request was
 * served (-h, --version: text already on out), or a negative value after an
 * error message on err; the caller exits with args_exit_code() of it:
 *   0, ARGS_EXIT_OK      exit status 0
 *   ARGS_ERR_USAGE       2 (argparse: usage line, "ext4dist: error: ...")
 *   ARGS_ERR_INTERVAL0   1 ("ERROR: interval 0. Exiting.", as BCC)
 *   other -errno         1 (out of memory, help text not written)
 * Re-entrant: no state is kept between calls.  Only validated numbers,
 * enums and flags are taken from argv, except the --prometheus path, which
 * points into argv as given.
 */
#define ARGS_EXIT_OK 1
#define ARGS_ERR_USAGE (-EINVAL)
#define ARGS_ERR_INTERVAL0 (-EDOM)
#define ARGS_DEFAULT_COUNT 99999999UL
#define ARGS_PID_MAX 4194304U		/* PID_MAX_LIMIT on 64-bit */
#define ARGS_MAXACTIVE_MAX 4096U
#define ARGS_INTERVAL_MAX 2147483647UL
#define ARGS_COUNT_MAX 4294967295UL

int args_parse(int argc, char **argv, struct ext4dist_args *a, FILE *out,
	       FILE *err);
int args_exit_code(int parse_result);

#endif
