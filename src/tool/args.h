/* Command line of ext4dist: BCC's options plus this tool's own. */
#ifndef EXT4DIST_ARGS_H
#define EXT4DIST_ARGS_H

#include <stdio.h>

enum attach_mode { ATTACH_AUTO = 0, ATTACH_PMU, ATTACH_TRACEFS };
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
	enum attach_mode attach;	/* --attach=pmu|tracefs */
	enum read_path_mode read_path;	/* --read-path=generic */
	unsigned int maxactive;		/* --maxactive N, 0 = kernel default */
	unsigned long long fops_addr;	/* --fops-addr ADDR, 0 = look it up */
};

/*
 * Parses argv into *a.  Returns 0 to run, ARGS_EXIT_OK when the request was
 * served (-h, --version: text already on out), or a negative value after an
 * error message on err; the caller exits with args_exit_code() of it.
 */
#define ARGS_EXIT_OK 1
int args_parse(int argc, char **argv, struct ext4dist_args *a, FILE *out,
	       FILE *err);
int args_exit_code(int parse_result);

#endif
