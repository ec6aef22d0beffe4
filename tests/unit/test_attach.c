// SPDX-License-Identifier: GPL-2.0
/*
 * The attach layer without a kernel: kprobe_events lines, event names,
 * finding tracefs, the kprobe PMU from sysfs, kprobe_events's "rN:", and
 * the stale-event sweep, all on fixture directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/attach/attach.h"
#include "test.h"

static const char *root;

static void put(const char *rel, const char *text)
{
	test_write_file(test_tmp_path(rel), text, strlen(text));
}

static void dir(const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

static void path_of(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", root, rel);
}

static void test_event_lines(void)
{
	char ev[64];
	long pid = 0;

	check_int("entry probe of ours",
		  kprobe_event_owner("p:kprobes/ext4dist_123_p_ext4_file_open ext4_file_open\n",
				     "ext4dist", &pid, ev, sizeof(ev)), 0);
	check_int("its pid", pid, 123);
	check_str("its name", ev, "ext4dist_123_p_ext4_file_open");
	check_int("entry probe with a token",
		  kprobe_event_owner("p:kprobes/ext4dist_1_0badcafe_p_ext4_file_open ext4_file_open\n",
				     "ext4dist", &pid, ev, sizeof(ev)), 0);
	check_int("its pid", pid, 1);
	check_str("its name", ev, "ext4dist_1_0badcafe_p_ext4_file_open");
	check_int("return probe with maxactive",
		  kprobe_event_owner("r10:kprobes/ext4dist_7_r_ext4_sync_file ext4_sync_file",
				     "ext4dist", &pid, ev, sizeof(ev)), 0);
	check_str("its name", ev, "ext4dist_7_r_ext4_sync_file");
	check_int("another group is not ours",
		  kprobe_event_owner("p:mygroup/ext4dist_123_p_x x", "ext4dist",
				     &pid, ev, sizeof(ev)), -ENOENT);
	check_int("another tool's prefix is not ours",
		  kprobe_event_owner("p:kprobes/ext4distx_123_p_x x", "ext4dist",
				     &pid, ev, sizeof(ev)), -ENOENT);
	check_int("no pid after the prefix",
		  kprobe_event_owner("p:kprobes/ext4dist_abc_p_x x", "ext4dist",
				     &pid, ev, sizeof(ev)), -ENOENT);
	check_int("pid 0 is nobody's",
		  kprobe_event_owner("p:kprobes/ext4dist_0_p_x x", "ext4dist",
				     &pid, ev, sizeof(ev)), -ENOENT);
	check_int("no colon", kprobe_event_owner("garbage", "ext4dist", &pid,
						 ev, sizeof(ev)), -ENOENT);
	check_int("name longer than the buffer",
		  kprobe_event_owner("p:kprobes/ext4dist_1_p_ext4_file_open f",
				     "ext4dist", &pid, ev, 8), -ENAMETOOLONG);
}

static void test_event_names(void)
{
	struct attach_ctx ctx = { .prefix = "ext4dist", .pid = 4242,
				  .token = "0badcafe" };
	struct probe_spec entry = { .kind = PROBE_ENTRY, .func = "ext4_file_open" };
	struct probe_spec ret = { .kind = PROBE_RETURN,
				  .func = "a_function_name_long_enough_to_overflow_sixty_four_bytes" };
	char name[128];

	attach_event_name(&ctx, &entry, name, sizeof(name));
	check_str("entry event name", name,
		  "ext4dist_4242_0badcafe_p_ext4_file_open");
	attach_event_name(&ctx, &ret, name, sizeof(name));
	check_int("event names cut to 63 bytes", (long long)strlen(name), 63);
	check_str("return event name, cut",
		  name, "ext4dist_4242_0badcafe_r_a_function_name_long_enough_to_overflo");
	entry.func = "ext4_file_open.isra.0";
	attach_event_name(&ctx, &entry, name, sizeof(name));
	check_str("a cloned function's dots become underscores", name,
		  "ext4dist_4242_0badcafe_p_ext4_file_open_isra_0");
}

static void test_tracefs_open(void)
{
	struct tracefs_paths paths;
	char tracing[300], debugfs[300], want[400];
	struct errbuf eb = { "" };
	struct tracefs tf;

	path_of(tracing, sizeof(tracing), "tracing");
	path_of(debugfs, sizeof(debugfs), "debug");
	paths.tracing = tracing;
	paths.debugfs = debugfs;

	check_int("nothing mounted, no mounting wanted",
		  tracefs_open(&tf, &paths, 0, &eb), -ENOENT);
	check_str("it says so", eb.msg,
		  "tracing file system not mounted (not needed: left alone)");

	dir("debug");
	dir("debug/tracing");
	put("debug/tracing/available_events", "");
	put("debug/tracing/kprobe_events", "");
	check_int("debugfs layout found", tracefs_open(&tf, &paths, 0, &eb), 0);
	snprintf(want, sizeof(want), "%s/tracing", debugfs);
	check_str("debugfs tracing dir", tf.dir, want);
	check_int("debugfs has kprobe_events", tf.has_kprobe_events, 1);
	check_str("nothing mounted by us", tf.mounted, "");
	CHECK(tf.dirfd >= 0, "the tracing dir held open");
	tracefs_close(&tf);
	check_int("closed", tf.dirfd, -1);

	dir("tracing");
	put("tracing/available_events", "");
	check_int("tracefs preferred", tracefs_open(&tf, &paths, 0, &eb), 0);
	check_str("tracefs dir", tf.dir, tracing);
	check_int("tracefs without kprobe_events", tf.has_kprobe_events, 0);
	tracefs_close(&tf);
}

/*
 * RLIMIT_NOFILE's soft limit at the lowest free descriptor: no open can
 * succeed.  Returns the old limit to restore.
 */
static struct rlimit fill_file_table(void)
{
	struct rlimit old, rl;
	int fd = dup(0);

	getrlimit(RLIMIT_NOFILE, &old);
	if (fd >= 0)
		close(fd);
	rl = old;
	rl.rlim_cur = fd >= 0 ? (rlim_t)fd : 3;
	setrlimit(RLIMIT_NOFILE, &rl);
	return old;
}

/* A full file table is said as such, never taken for a missing feature. */
static void test_nofile(void)
{
	struct tracefs_paths paths;
	char tracing[300], debugfs[300], sysfs[300], want[900];
	struct errbuf eb = { "" };
	struct attach_ctx ctx;
	struct rlimit old;
	struct tracefs tf;
	int lim;

	check_int("errbuf_nofile: other errors untouched",
		  errbuf_nofile(&eb, -ENOENT, "cannot open %s", "x"), 0);
	check_str("errbuf_nofile: eb untouched", eb.msg, "");
	check_int("ENFILE", errbuf_nofile(&eb, -ENFILE, "cannot open %s", "x"),
		  -ENFILE);
	check_str("ENFILE: the system's table", eb.msg,
		  "too many open files in the system: cannot open x: the kernel's file table is full (fs.file-max); close files elsewhere or raise fs.file-max, and try again");

	path_of(tracing, sizeof(tracing), "tracing");
	path_of(debugfs, sizeof(debugfs), "debug");
	path_of(sysfs, sizeof(sysfs), "kprobe");
	paths.tracing = tracing;
	paths.debugfs = debugfs;
	dir("tracing");
	put("tracing/available_events", "");
	dir("kprobe");
	put("kprobe/type", "8\n");
	attach_ctx_init(&ctx, "ext4dist", sysfs, &paths);

	old = fill_file_table();
	lim = dup(0) < 0 ? (int)errno : 0;
	check_int("the table is full", lim, EMFILE);
	check_int("tracefs_open: EMFILE", tracefs_open(&tf, &paths, 1, &eb),
		  -EMFILE);
	getrlimit(RLIMIT_NOFILE, &old);
	snprintf(want, sizeof(want), "too many open files: cannot open %s: all %llu file descriptors RLIMIT_NOFILE allows this process are in use; raise the limit (ulimit -n) and try again",
		 tracing, (unsigned long long)old.rlim_cur);
	check_str("tracefs_open: said", eb.msg, want);
	check_int("kprobe PMU probe: EMFILE, not 'missing'",
		  attach_probe_pmu(&ctx, &eb), -EMFILE);
	snprintf(want, sizeof(want), "too many open files: cannot read %s/type: all %llu file descriptors RLIMIT_NOFILE allows this process are in use; raise the limit (ulimit -n) and try again",
		 sysfs, (unsigned long long)old.rlim_cur);
	check_str("kprobe PMU probe: said", eb.msg, want);
	check_int("tracefs probe: EMFILE, not 'no tracing dir'",
		  attach_probe_tracefs(&ctx, 1, &eb), -EMFILE);
	old.rlim_cur = old.rlim_max;
	setrlimit(RLIMIT_NOFILE, &old);
	check_int("kprobe PMU probe with room", attach_probe_pmu(&ctx, &eb), 0);
	attach_ctx_release(&ctx);
}

/* Debian 6.1's and this host's 6.18 x86_64 format of the exit event. */
static const char exit_format_64[] =
	"name: ext4_sync_file_exit\n"
	"ID: 1231\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:ino_t ino;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int ret;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"dev %d,%d ino %lu ret %d\", ((unsigned int) ((REC->dev) >> 20)), REC->ret\n";

/* The same on a 32-bit kernel: ino_t is 4 bytes, ret moves to 16. */
static const char exit_format_32[] =
	"format:\n"
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:ino_t ino;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n";

static void test_tp_format(void)
{
	int off = -1, size = -1, sign = -1;

	check_int("ret in the 64-bit format",
		  tp_format_field(exit_format_64, "ret", &off, &size, &sign), 0);
	check_int("ret at 24", off, 24);
	check_int("ret 4 bytes", size, 4);
	check_int("ret signed", sign, 1);
	check_int("ino in the 64-bit format",
		  tp_format_field(exit_format_64, "ino", &off, &size, &sign), 0);
	check_int("ino at 16, 8 bytes, unsigned", off * 100 + size * 10 + sign,
		  1680);
	check_int("ret in the 32-bit format",
		  tp_format_field(exit_format_32, "ret", &off, &size, &sign), 0);
	check_int("ret at 16 on a 32-bit kernel", off, 16);
	check_int("a common field", tp_format_field(exit_format_64, "common_pid",
						    &off, &size, &sign), 0);
	check_int("common_pid at 4", off, 4);
	check_int("a name that only ends one", tp_format_field(exit_format_64,
			"pid", &off, &size, &sign), -ENOENT);
	check_int("a name that only starts one", tp_format_field(exit_format_64,
			"re", &off, &size, &sign), -ENOENT);
	check_int("an array field by its name",
		  tp_format_field("\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n",
				  "comm", &off, &size, &sign), 0);
	check_int("comm at 8, 16 bytes", off * 100 + size, 816);
	check_int("no such field",
		  tp_format_field(exit_format_64, "datasync", &off, &size, &sign),
		  -ENOENT);
	check_int("a line without its offset",
		  tp_format_field("\tfield:int ret;\tsize:4;\tsigned:1;\n", "ret",
				  &off, &size, &sign), -ENOENT);
	check_int("a size of 0",
		  tp_format_field("\tfield:int ret;\toffset:8;\tsize:0;\tsigned:1;\n",
				  "ret", &off, &size, &sign), -EINVAL);
	check_int("an empty format", tp_format_field("", "ret", &off, &size,
						      &sign), -ENOENT);
}

/* The tracepoints' ids and field from a tracing dir laid out as tracefs. */
static void test_tracepoint_probe(void)
{
	struct tracefs_paths paths;
	char tracing[300], want[500];
	struct attach_ctx ctx;
	struct errbuf eb = { "" };
	struct tp_event tp;

	path_of(tracing, sizeof(tracing), "tptracing");
	paths.tracing = tracing;
	paths.debugfs = tracing;
	dir("tptracing");
	put("tptracing/available_events", "");
	attach_ctx_init(&ctx, "ext4dist", NULL, &paths);
	check_int("no such event", attach_probe_tracepoint(&ctx, "ext4",
			"ext4_sync_file_enter", NULL, &tp, &eb), -ENOENT);
	snprintf(want, sizeof(want),
		 "no tracepoint ext4:ext4_sync_file_enter (%s/events/ext4/ext4_sync_file_enter/id: No such file or directory)",
		 tracing);
	check_str("no such event: why", eb.msg, want);
	dir("tptracing/events");
	dir("tptracing/events/ext4");
	dir("tptracing/events/ext4/ext4_sync_file_enter");
	dir("tptracing/events/ext4/ext4_sync_file_exit");
	put("tptracing/events/ext4/ext4_sync_file_enter/id", "1232\n");
	put("tptracing/events/ext4/ext4_sync_file_exit/id", "1231\n");
	check_int("the enter event", attach_probe_tracepoint(&ctx, "ext4",
			"ext4_sync_file_enter", NULL, &tp, &eb), 0);
	check_int("its id", tp.id, 1232);
	check_str("its group", tp.group, "ext4");
	check_str("no field asked", tp.field, "");
	check_int("the exit event without its format",
		  attach_probe_tracepoint(&ctx, "ext4", "ext4_sync_file_exit",
					  "ret", &tp, &eb), -ENOENT);
	snprintf(want, sizeof(want),
		 "cannot read %s/events/ext4/ext4_sync_file_exit/format: No such file or directory",
		 tracing);
	check_str("the exit event without its format: why", eb.msg, want);
	put("tptracing/events/ext4/ext4_sync_file_exit/format", exit_format_32);
	check_int("the exit event, 32-bit", attach_probe_tracepoint(&ctx, "ext4",
			"ext4_sync_file_exit", "ret", &tp, &eb), 0);
	check_int("its id", tp.id, 1231);
	check_str("its field", tp.field, "ret");
	check_int("ret where the format says", tp.field_off, 16);
	check_int("a field it lacks", attach_probe_tracepoint(&ctx, "ext4",
			"ext4_sync_file_exit", "datasync", &tp, &eb), -ENOENT);
	snprintf(want, sizeof(want),
		 "%s/events/ext4/ext4_sync_file_exit/format has no field \"datasync\"",
		 tracing);
	check_str("a field it lacks: why", eb.msg, want);
	put("tptracing/events/ext4/ext4_sync_file_exit/id", "junk\n");
	check_int("an id that is no number", attach_probe_tracepoint(&ctx, "ext4",
			"ext4_sync_file_exit", NULL, &tp, &eb), -EINVAL);
	attach_ctx_release(&ctx);
}

static void test_pmu_probe(void)
{
	struct tracefs_paths paths;
	char tracing[300], debugfs[300], sysfs[300], none[300], want[700];
	struct errbuf eb = { "" };
	struct attach_ctx ctx;

	path_of(tracing, sizeof(tracing), "tracing");
	path_of(debugfs, sizeof(debugfs), "nodebug");
	path_of(sysfs, sizeof(sysfs), "kprobe");
	path_of(none, sizeof(none), "no-such-dir");
	paths.tracing = tracing;
	paths.debugfs = debugfs;
	dir("kprobe");
	dir("kprobe/format");
	put("kprobe/type", "8\n");
	put("kprobe/format/retprobe", "config:0\n");
	/* A tracing dir without kprobe_events, as tracefs_open leaves it. */
	dir("tracing");
	put("tracing/available_events", "");

	attach_ctx_init(&ctx, "ext4dist", none, &paths);
	check_int("nothing probed at init", ctx.pmu_type, -1);
	check_int("no PMU without sysfs type", attach_probe_pmu(&ctx, &eb),
		  -ENOENT);
	/* Which of the two reasons depends on the running kernel's version. */
	snprintf(want, sizeof(want), "%s/type missing: kernel ", none);
	check_int("no PMU: why names the path",
		  strncmp(eb.msg, want, strlen(want)), 0);
	CHECK(strstr(eb.msg, " is before 4.17, which added it") ||
	      strstr(eb.msg, " has it only with kprobes (CONFIG_KPROBES, CONFIG_KPROBE_EVENTS): built without them"),
	      "no PMU: why says before 4.17 or no kprobes, by the version");
	/* tracing/ has no kprobe_events (from the test above). */
	check_int("no kprobe_events", attach_probe_tracefs(&ctx, 0, &eb),
		  -ENOENT);
	snprintf(want, sizeof(want), "no kprobe_events in %s", tracing);
	check_str("no kprobe_events: why", eb.msg, want);
	attach_ctx_release(&ctx);

	attach_ctx_init(&ctx, "ext4dist", sysfs, &paths);
	check_int("PMU present", attach_probe_pmu(&ctx, &eb), 0);
	check_int("PMU type from sysfs", ctx.pmu_type, 8);
	check_int("retprobe bit from format/retprobe", ctx.pmu_retprobe_bit, 0);
	attach_ctx_release(&ctx);

	put("tracing/kprobe_events", "");
	put("kprobe/format/retprobe", "config:5\n");
	attach_ctx_init(&ctx, "ext4dist", sysfs, &paths);
	check_int("PMU present again", attach_probe_pmu(&ctx, &eb), 0);
	check_int("retprobe bit 5", ctx.pmu_retprobe_bit, 5);
	check_int("kprobe_events present", attach_probe_tracefs(&ctx, 0, &eb),
		  0);
	check_str("tracing dir found", ctx.tf.dir, tracing);
	attach_ctx_release(&ctx);
}

/*
 * kprobe_events that documents "r[maxactive]" in its README takes it;
 * one whose README does not is asked with "r4097:" on address 0 (E2BIG:
 * yes, EINVAL: no, which the VM shows on 4.9), and where that answer is
 * neither, with one definition on the function.  The fixture
 * kprobe_events is a plain file that takes every line, so the last step
 * runs and the event's directory decides.
 */
static void test_maxactive_probe(void)
{
	const struct probe_spec trial = { .kind = PROBE_RETURN,
					   .func = "ext4_sync_file" };
	struct tracefs_paths paths;
	char tracing[300], debugfs[300], want[700], ev[64], *got;
	struct errbuf eb = { "" };
	struct attach_ctx ctx;
	size_t len;

	path_of(tracing, sizeof(tracing), "tracing");
	path_of(debugfs, sizeof(debugfs), "nodebug");
	paths.tracing = tracing;
	paths.debugfs = debugfs;
	dir("tracing");
	put("tracing/available_events", "");
	put("tracing/kprobe_events", "");
	put("tracing/README", "  kprobe_events\t\t- Add/remove/show\n"
	    "\t  r[maxactive][:[<group>/]<event>] <place> [<args>]\n");
	attach_ctx_init(&ctx, "ext4dist", "/nonexistent", &paths);
	/* The trial event is named as any return probe on the function. */
	attach_event_name(&ctx, &trial, ev, sizeof(ev));
	check_int("tracefs", attach_probe_tracefs(&ctx, 0, &eb), 0);
	check_int("README documents rN", attach_probe_maxactive(&ctx,
		  "ext4_sync_file", &eb), 0);
	got = test_read_file(test_tmp_path("tracing/kprobe_events"), &len);
	check_str("README: nothing written", got, "");
	free(got);

	/* Before 4.14: no word of it; before 4.12 the name is ignored. */
	put("tracing/README", "  kprobe_events\t\t- Add/remove/show\n");
	check_int("the kernel ignored the name", attach_probe_maxactive(&ctx,
		  "ext4_sync_file", &eb), -EOPNOTSUPP);
	check_str("before 4.12: why", eb.msg,
		  "kprobe_events ignores \"rN:\" (kernel before 4.12)");
	got = test_read_file(test_tmp_path("tracing/kprobe_events"), &len);
	snprintf(want, sizeof(want),
		 "r4097:kprobes/%s 0\n-:kprobes/%s\n"
		 "r1:kprobes/%s ext4_sync_file\n-:kprobes/r_ext4_sync_file_0\n",
		 ev, ev, ev);
	check_str("before 4.12: the kernel's own event removed", got, want);
	free(got);

	/* 4.12 and 4.13: the event appears under our name. */
	put("tracing/kprobe_events", "");
	snprintf(want, sizeof(want), "tracing/events/kprobes/%s", ev);
	dir("tracing/events");
	dir("tracing/events/kprobes");
	dir(want);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "/id");
	put(want, "1234\n");
	check_int("the event got our name", attach_probe_maxactive(&ctx,
		  "ext4_sync_file", &eb), 0);
	got = test_read_file(test_tmp_path("tracing/kprobe_events"), &len);
	snprintf(want, sizeof(want),
		 "r4097:kprobes/%s 0\n-:kprobes/%s\n"
		 "r1:kprobes/%s ext4_sync_file\n-:kprobes/%s\n", ev, ev, ev, ev);
	check_str("4.12: our trial event removed", got, want);
	free(got);

	/*
	 * --pretend=no-maxactive stands for the 4.9 kernel the suite no
	 * longer boots: its README is not read, and the trial on an address
	 * is refused as 4.9-4.11 refuse it, before anything is written.
	 */
	put("tracing/kprobe_events", "");
	put("tracing/README", "  kprobe_events\t\t- Add/remove/show\n"
	    "\t  r[maxactive][:[<group>/]<event>] <place> [<args>]\n");
	ctx.before_4_12 = 1;
	check_int("as before 4.12: no rN", attach_probe_maxactive(&ctx,
		  "ext4_sync_file", &eb), -EOPNOTSUPP);
	check_str("as before 4.12: why", eb.msg,
		  "kprobe_events ignores \"rN:\" (kernel before 4.12)");
	check_int("as before 4.12: a return probe on an address",
		  kprobe_events_write(&ctx, "r:kprobes/x 0xffffffff81000000\n"),
		  -EINVAL);
	check_int("as before 4.12: a return probe by name",
		  kprobe_events_write(&ctx, "r:kprobes/x ext4_sync_file\n"), 0);
	check_int("as before 4.12: an entry probe on an address",
		  kprobe_events_write(&ctx, "p:kprobes/y 0xffffffff81000000\n"),
		  0);
	got = test_read_file(test_tmp_path("tracing/kprobe_events"), &len);
	check_str("as before 4.12: only what 4.9 takes is written", got,
		  "r:kprobes/x ext4_sync_file\np:kprobes/y 0xffffffff81000000\n");
	free(got);
	attach_ctx_release(&ctx);
}

/*
 * EINVAL for a kprobe on a function ftrace can trace (listed in
 * available_filter_functions, alone or with its module) is said as the
 * kernel's refusal of entry kprobes there; a function not listed, a name
 * that only starts a listed one, and no tracing dir are not explained.
 */
static void test_ftrace_refused(void)
{
	struct tracefs_paths paths = { NULL, NULL };
	struct errbuf eb = { "" };
	struct attach_ctx ctx;
	char tracing[300], none[300];

	path_of(tracing, sizeof(tracing), "fttracing");
	path_of(none, sizeof(none), "fttracing-none");
	dir("fttracing");
	put("fttracing/available_filter_functions",
	    "noop_fsync\ngeneric_file_read_iter_x\next4_file_read_iter [ext4]\n");
	paths.tracing = none;
	attach_ctx_init(&ctx, "ext4dist", NULL, &paths);
	check_int("no tracing dir", attach_refused_on_ftrace(&ctx,
			"kprobe noop_fsync", "noop_fsync", &eb), 0);
	/* Not held (the fentry path lets it go): where it is mounted. */
	paths.tracing = tracing;
	check_int("the tracing dir not held", attach_refused_on_ftrace(&ctx,
			"kprobe noop_fsync", "noop_fsync", &eb), -EOPNOTSUPP);
	paths.tracing = none;
	ctx.tf.dirfd = open(tracing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	check_int("a function of a module", attach_refused_on_ftrace(&ctx,
			"kprobe ext4_file_read_iter", "ext4_file_read_iter",
			&eb), -EOPNOTSUPP);
	check_str("its reason", eb.msg,
		  "cannot create kprobe ext4_file_read_iter: the kernel refuses entry kprobes on traceable functions (EINVAL for ext4_file_read_iter, which ftrace can trace: a kernel built without CONFIG_KPROBES_ON_FTRACE); fentry/fexit needs none (--attach=fentry, where the kernel has BTF)");
	check_int("a function of vmlinux", attach_refused_on_ftrace(&ctx,
			"kretprobe noop_fsync", "noop_fsync", &eb),
		  -EOPNOTSUPP);
	eb.msg[0] = '\0';
	check_int("a prefix of a listed name", attach_refused_on_ftrace(&ctx,
			"kprobe generic_file_read_iter",
			"generic_file_read_iter", &eb), 0);
	check_int("a function not listed", attach_refused_on_ftrace(&ctx,
			"kprobe ext4_sync_file", "ext4_sync_file", &eb), 0);
	check_str("nothing said", eb.msg, "");
	attach_ctx_release(&ctx);
}

static void test_stale_sweep(void)
{
	struct tracefs_paths paths;
	char tracing[300], debugfs[300], events[300], text[2048], *got;
	struct attach_ctx ctx;
	size_t len;
	int n;

	path_of(tracing, sizeof(tracing), "tracing");
	path_of(debugfs, sizeof(debugfs), "nodebug");
	path_of(events, sizeof(events), "tracing/kprobe_events");
	paths.tracing = tracing;
	paths.debugfs = debugfs;
	/*
	 * Every event of ours is tried, whatever its pid (ours included: a
	 * PID 1 in a container is PID 1 again next time); the kernel keeps
	 * those in use (EBUSY), which a plain file cannot show.  Other
	 * groups and prefixes are left alone.
	 */
	snprintf(text, sizeof(text),
		 "p:kprobes/ext4dist_4194304_p_ext4_file_open ext4_file_open\n"
		 "r16:kprobes/ext4dist_1_0badcafe_r_ext4_sync_file ext4_sync_file\n"
		 "p:kprobes/ext4dist_%d_p_ext4_file_open ext4_file_open\n"
		 "p:kprobes/other_99_p_vfs_read vfs_read\n"
		 "p:mine/ext4dist_4194304_p_x x\n", (int)getpid());
	dir("tracing");
	put("tracing/kprobe_events", text);
	attach_ctx_init(&ctx, "ext4dist", "/nonexistent", &paths);
	attach_probe_tracefs(&ctx, 0, NULL);
	n = attach_remove_stale(&ctx);
	check_int("three stale events removed", n, 3);
	got = test_read_file(events, &len);
	/* The fixture is a plain file: removals show up appended to it. */
	snprintf(text + strlen(text), sizeof(text) - strlen(text),
		 "-:kprobes/ext4dist_4194304_p_ext4_file_open\n"
		 "-:kprobes/ext4dist_1_0badcafe_r_ext4_sync_file\n"
		 "-:kprobes/ext4dist_%d_p_ext4_file_open\n", (int)getpid());
	check_str("exactly ours removed", got, text);
	free(got);
	CHECK(ctx.tf.dirfd >= 0, "tracefs kept after the sweep");
	attach_ctx_release(&ctx);
}

static void remove_root(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
}

static const struct test_case test_cases[] = {
	TEST_CASE(event_lines),
	TEST_CASE(event_names),
	TEST_CASE(tracefs_open),
	TEST_CASE(tp_format),
	TEST_CASE(tracepoint_probe),
	TEST_CASE(pmu_probe),
	TEST_CASE(maxactive_probe),
	TEST_CASE(stale_sweep),
	TEST_CASE(nofile),
	TEST_CASE(ftrace_refused),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	int ret;

	root = test_tmpdir("ext4dist-attach");
	if (!root) {
		printf("FAIL mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	ret = test_main(argc, argv, test_cases);
	remove_root();
	return ret;
}
