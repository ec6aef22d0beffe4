// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the file systems' tables (src/tool/fs/fs*.c) and of how the
 * command line picks one: -t TYPE, or the name the binary runs under.
 */
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "test.h"
#include "tool/cli/args.h"
#include "tool/engine/bpf_blob.h"
#include "tool/fs/fs.h"

#ifndef EXT4DIST_VERSION
#define EXT4DIST_VERSION "unknown"
#endif

#define XFS_USAGE "usage: xfsdist [-h] [-T] [-m] [-p PID] [interval] [count]\n"
#define XFS_SLOW_USAGE "usage: xfsslower [-h] [-j] [-p PID] [min_ms]\n"

struct run {
	int ret;
	struct ext4dist_args a;
	char *out, *err;
	size_t out_len, err_len;
};

/* Parses argv (NULL-ended, argv[0] the name run as), as main() does. */
static void run_argv(struct run *r, char **argv)
{
	FILE *out, *err;
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(r, 0, sizeof(*r));
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	if (!out || !err) {
		printf("FAIL open_memstream\n");
		exit(1);
	}
	r->ret = args_invoked_as_slower(argv[0]) ?
		 args_parse_slower(argc, argv, &r->a, out, err) :
		 args_parse(argc, argv, &r->a, out, err);
	fclose(out);
	fclose(err);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static void test_lookup(void)
{
	int slower = -1;

	CHECK(fs_by_name("ext4") == &fs_ext4, "fs_by_name ext4");
	CHECK(fs_by_name("xfs") == &fs_xfs, "fs_by_name xfs");
	CHECK(fs_by_name("ext3") == NULL, "ext3 is no table of its own");
	CHECK(fs_by_name("") == NULL, "fs_by_name empty");
	CHECK(fs_by_tool("xfsdist", &slower) == &fs_xfs && slower == 0,
	      "xfsdist: xfs, histograms");
	CHECK(fs_by_tool("/usr/sbin/xfsslower", &slower) == &fs_xfs &&
	      slower == 1, "a path to xfsslower: xfs, slow mode");
	CHECK(fs_by_tool("ext4slower", &slower) == &fs_ext4 && slower == 1,
	      "ext4slower: ext4, slow mode");
	CHECK(fs_by_tool("./ext4dist", &slower) == &fs_ext4 && slower == 0,
	      "./ext4dist: ext4");
	CHECK(fs_by_tool("btrfsdist", &slower) == &fs_btrfs && slower == 0,
	      "btrfsdist: btrfs");
	CHECK(fs_by_tool("f2fsslower", &slower) == &fs_f2fs && slower == 1,
	      "f2fsslower: f2fs, slow mode");
	CHECK(fs_by_tool("xfsdist2", &slower) == NULL && slower == 0,
	      "another name: none");
	CHECK(fs_by_tool("/usr/sbin/", &slower) == NULL, "an empty name: none");
	CHECK(fs_by_tool(NULL, &slower) == NULL, "no argv[0]: none");
	CHECK(args_invoked_as_slower("xfsslower"), "xfsslower is a slow mode");
	CHECK(!args_invoked_as_slower("xfsdist"), "xfsdist is not");
}

/* What every table must hold for the tracer and the output to use it. */
static void test_tables(void)
{
	unsigned int i, op;
	char name[160];

	CHECK(fs_all[0] == &fs_ext4, "ext4's table first (the default)");
	for (i = 0; fs_all[i]; i++) {
		const struct fs_table *fs = fs_all[i];
		char want[64];

		snprintf(want, sizeof(want), "%sdist", fs->name);
		snprintf(name, sizeof(name), "%s: tool", fs->name);
		check_str(name, fs->tool, want);
		snprintf(want, sizeof(want), "%sslower", fs->name);
		snprintf(name, sizeof(name), "%s: slow mode's name", fs->name);
		check_str(name, fs->slower_tool, want);
		snprintf(name, sizeof(name), "%s: metric is the tool's name",
			 fs->name);
		check_str(name, fs->metric, fs->tool);
		snprintf(name, sizeof(name), "%s: module and its file", fs->name);
		CHECK(fs->module && fs->module_file && fs->mount_types &&
		      fs->mount_types[0], name);
		snprintf(name, sizeof(name), "%s: default operations traced",
			 fs->name);
		for (op = 0; op < NR_OPS; op++)
			if (fs->default_ops & (1u << op))
				CHECK(fs->ops[op].func != NULL, name);
		for (op = 0; op < NR_OPS; op++) {
			snprintf(name, sizeof(name), "%s: op %u names its kernel",
				 fs->name, op);
			CHECK(!fs->ops[op].func || fs->ops[op].since, name);
		}
		snprintf(name, sizeof(name),
			 "%s: a generic read path has its f_op and directories",
			 fs->name);
		CHECK(!fs->generic_read || (fs->fops_symbol && fs->dir_release &&
					    fs->dir_fops_symbol), name);
	}
	check_str("xfs banner (BCC's xfsdist)", fs_xfs.banner,
		  "Tracing XFS operation latency... Hit Ctrl-C to end.");
	check_str("xfs read", fs_xfs.ops[OP_READ].func, "xfs_file_read_iter");
	check_str("xfs write", fs_xfs.ops[OP_WRITE].func, "xfs_file_write_iter");
	check_str("xfs open", fs_xfs.ops[OP_OPEN].func, "xfs_file_open");
	check_str("xfs fsync", fs_xfs.ops[OP_FSYNC].func, "xfs_file_fsync");
	CHECK(!fs_xfs.ops[OP_GETATTR].func, "xfs: no getattr (BCC has none)");
	CHECK(!fs_xfs.generic_read, "xfs: no generic read path");

	check_str("btrfs banner (BCC's btrfsdist)", fs_btrfs.banner,
		  "Tracing btrfs operation latency... Hit Ctrl-C to end.");
	check_str("btrfs read", fs_btrfs.ops[OP_READ].func,
		  "btrfs_file_read_iter");
	check_str("btrfs open", fs_btrfs.ops[OP_OPEN].func, "btrfs_file_open");
	check_str("btrfs fsync", fs_btrfs.ops[OP_FSYNC].func, "btrfs_sync_file");
	check_str("btrfs: generic read filtered on btrfs_file_operations",
		  fs_btrfs.fops_symbol, "btrfs_file_operations");
	CHECK(fs_btrfs.generic_read && !fs_btrfs.ops[OP_GETATTR].func,
	      "btrfs: a generic read path, no getattr");
	check_str("f2fs banner (ext4dist's convention)", fs_f2fs.banner,
		  "Tracing f2fs operation latency... Hit Ctrl-C to end.");
	check_str("f2fs read", fs_f2fs.ops[OP_READ].func, "f2fs_file_read_iter");
	check_str("f2fs fsync", fs_f2fs.ops[OP_FSYNC].func, "f2fs_sync_file");
	CHECK(!fs_f2fs.generic_read && !fs_f2fs.ops[OP_GETATTR].func,
	      "f2fs: no generic read path, no getattr");
}

/*
 * Every function of every table has its programs in the embedded object,
 * named by its operation: a table is all a file system needs.
 */
static void test_programs(void)
{
	static const char *const variants[] = { "", PROG_ATOMIC, PROG_SLOW };
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	unsigned int i, op, v;
	char name[200];

	if (!CHECK(bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(),
				 &obj, &eb) == 0, "the embedded object parses"))
		return;
	check_str("xfs read -> the read programs",
		  fs_prog_target(&fs_xfs, "xfs_file_read_iter"), "read");
	check_str("xfs fsync -> the fsync programs",
		  fs_prog_target(&fs_xfs, "xfs_file_fsync"), "fsync");
	check_str("ext4's fsync", fs_prog_target(&fs_ext4, "ext4_sync_file"),
		  "fsync");
	check_str("btrfs's generic read path",
		  fs_prog_target(&fs_btrfs, "generic_file_read_iter"),
		  "generic_read");
	check_str("ext4's directories' release",
		  fs_prog_target(&fs_ext4, "ext4_release_dir"), "dir_release");
	CHECK(!fs_prog_target(&fs_xfs, "noop_fsync") &&
	      !fs_prog_target(&fs_xfs, "ext4_sync_file"),
	      "a name of no table (or another's) has no program");
	for (i = 0; fs_all[i]; i++) {
		const struct fs_table *fs = fs_all[i];

		for (op = 0; op < NR_OPS; op++) {
			const char *f = fs_prog_target(fs, fs->ops[op].func);

			if (!fs->ops[op].func)
				continue;
			for (v = 0; v < 3; v++) {
				if (op == OP_GETATTR && v == 2)
					continue;	/* no slow getattr */
				snprintf(name, sizeof(name),
					 "%s: entry and return programs for %s (%s)",
					 fs->name, fs->ops[op].func, variants[v]);
				CHECK(bpf_obj_find_prog(&obj, PROBE_ENTRY, f,
							variants[v]) &&
				      bpf_obj_find_prog(&obj, PROBE_RETURN, f,
							variants[v]), name);
			}
		}
		if (fs->generic_read) {
			snprintf(name, sizeof(name),
				 "%s: the generic read path's programs",
				 fs->name);
			CHECK(bpf_obj_find_prog(&obj, PROBE_ENTRY,
				fs_prog_target(fs, fs->generic_read), NULL) &&
			      bpf_obj_find_prog(&obj, PROBE_ENTRY,
				fs_prog_target(fs, fs->dir_release),
				"scan_release"), name);
		}
	}
	bpf_obj_free(&obj);
}

static void test_wanted(void)
{
	struct errbuf eb = { "" };

	check_int("xfs: the default operations",
		  fs_check_wanted(&fs_xfs, fs_xfs.default_ops, 0, &eb), 0);
	check_int("xfs: getattr refused",
		  fs_check_wanted(&fs_xfs, 1u << OP_GETATTR, 0, &eb), -EINVAL);
	check_str("xfs: getattr's reason", eb.msg,
		  "argument --ops: xfs has no getattr function to trace");
	check_int("xfs: generic read refused",
		  fs_check_wanted(&fs_xfs, 1u << OP_READ, 1, &eb), -EINVAL);
	check_str("xfs: generic read's reason", eb.msg,
		  "argument --read-path: xfs has no generic read path (its reads always went through xfs_file_read_iter)");
	check_int("ext4: getattr and the generic path",
		  fs_check_wanted(&fs_ext4, 0x1f, 1, &eb), 0);
}

static void test_names(void)
{
	struct run r;

	run_argv(&r, ARGV("xfsdist"));
	check_int("xfsdist parses", r.ret, 0);
	CHECK(r.a.fs == &fs_xfs, "xfsdist: xfs");
	check_int("xfsdist: its default operations", r.a.ops_mask,
		  fs_xfs.default_ops);
	run_free(&r);

	run_argv(&r, ARGV("/sbin/ext4dist", "-t", "xfs", "-p", "12"));
	check_int("ext4dist -t xfs parses", r.ret, 0);
	CHECK(r.a.fs == &fs_xfs && r.a.pid == 12, "ext4dist -t xfs: xfs");
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "--type=ext4", "--ops", "getattr"));
	CHECK(r.ret == 0 && r.a.fs == &fs_ext4 &&
	      r.a.ops_mask == 1u << OP_GETATTR, "xfsdist --type=ext4: ext4");
	run_free(&r);

	run_argv(&r, ARGV("ext4dist"));
	CHECK(r.ret == 0 && r.a.fs == &fs_ext4, "ext4dist: ext4");
	run_free(&r);

	run_argv(&r, ARGV("ext4dist", "-t", "zfs"));
	check_str("-t zfs", r.err,
		  "usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]\n"
		  "ext4dist: error: argument -t/--type: invalid choice: 'zfs' (choose from 'ext4', 'xfs', 'btrfs', 'f2fs')\n");
	check_int("-t zfs: status 2", args_exit_code(r.ret), 2);
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "--ops", "read,getattr"));
	check_str("xfsdist --ops getattr", r.err,
		  XFS_USAGE "xfsdist: error: argument --ops: xfs has no getattr function to trace\n");
	check_int("xfsdist --ops getattr: status 2", args_exit_code(r.ret), 2);
	run_free(&r);

	run_argv(&r, ARGV("ext4dist", "-t", "xfs", "--read-path=generic"));
	check_str("-t xfs --read-path=generic: ext4dist's usage", r.err,
		  "usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]\n"
		  "ext4dist: error: argument --read-path: xfs has no generic read path (its reads always went through xfs_file_read_iter)\n");
	run_free(&r);

	run_argv(&r, ARGV("btrfsdist", "--read-path=generic", "--fops-addr",
			  "0xffffffffc0001000"));
	CHECK(r.ret == 0 && r.a.fs == &fs_btrfs &&
	      r.a.read_path == READ_PATH_GENERIC,
	      "btrfsdist: the generic read path and --fops-addr");
	run_free(&r);

	run_argv(&r, ARGV("btrfsdist", "-x"));
	check_str("btrfsdist: its usage", r.err,
		  "usage: btrfsdist [-h] [-T] [-m] [-p PID] [interval] [count]\n"
		  "btrfsdist: error: unrecognized arguments: -x\n");
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "--fops-addr", "0x1000"));
	check_str("xfsdist --fops-addr", r.err,
		  XFS_USAGE "xfsdist: error: argument --fops-addr: xfs has no generic read path\n");
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "-x"));
	check_str("xfsdist: argparse's errors under its name", r.err,
		  XFS_USAGE "xfsdist: error: unrecognized arguments: -x\n");
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "--slower", "1", "-m"));
	check_str("xfsdist --slower with -m", r.err,
		  XFS_USAGE "xfsdist: error: argument --slower: not allowed with -T, -m, -e, --prometheus, --listen, interval or count (the histogram mode's)\n");
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "--version"));
	check_str("xfsdist --version", r.out, "xfsdist " EXT4DIST_VERSION "\n");
	run_free(&r);

	run_argv(&r, ARGV("xfsdist", "-h"));
	check_int("xfsdist -h", args_exit_code(r.ret), 0);
	check_golden("xfsdist -h", r.out, r.out_len,
		     TEST_GOLDEN "args_help_xfs.txt");
	CHECK(!strstr(r.out, "generic_file_read_iter") &&
	      !strstr(r.out, "--fops-addr"), "xfsdist -h: no generic read path");
	run_free(&r);

	/* The help of the name run as, whatever -t traces. */
	run_argv(&r, ARGV("ext4dist", "-t", "xfs", "-h"));
	check_golden("ext4dist -t xfs -h", r.out, r.out_len,
		     TEST_GOLDEN "args_help.txt");
	run_free(&r);
	run_argv(&r, ARGV("xfsdist", "-t", "ext4", "--version"));
	check_str("xfsdist -t ext4 --version", r.out,
		  "xfsdist " EXT4DIST_VERSION "\n");
	run_free(&r);
}

static void test_slower_names(void)
{
	struct run r;

	run_argv(&r, ARGV("xfsslower", "-j", "1"));
	CHECK(r.ret == 0 && r.a.fs == &fs_xfs && r.a.slower && r.a.csv &&
	      r.a.min_ms == 1, "xfsslower -j 1: xfs, CSV, 1 ms");
	run_free(&r);

	run_argv(&r, ARGV("xfsslower", "-j", "--json"));
	check_str("xfsslower -j --json", r.err,
		  XFS_SLOW_USAGE "xfsslower: error: argument --json: not allowed with argument -j/--csv\n");
	run_free(&r);

	run_argv(&r, ARGV("xfsslower", "-h"));
	check_golden("xfsslower -h", r.out, r.out_len,
		     TEST_GOLDEN "args_help_xfsslower.txt");
	run_free(&r);

	run_argv(&r, ARGV("ext4slower", "-t", "xfs"));
	CHECK(r.ret == 0 && r.a.fs == &fs_xfs && r.a.slower,
	      "ext4slower -t xfs: xfs");
	check_str("ext4slower -t xfs: messages as ext4slower's", r.a.prog,
		  "ext4slower");
	run_free(&r);
	run_argv(&r, ARGV("xfsslower", "--ops", "getattr"));
	check_str("xfsslower --ops getattr", r.err,
		  XFS_SLOW_USAGE "xfsslower: error: argument --ops: xfs has no getattr function to trace\n");
	run_free(&r);
}

static const struct test_case test_cases[] = {
	TEST_CASE(lookup),
	TEST_CASE(tables),
	TEST_CASE(programs),
	TEST_CASE(wanted),
	TEST_CASE(names),
	TEST_CASE(slower_names),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
