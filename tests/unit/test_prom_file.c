// SPDX-License-Identifier: GPL-2.0
/*
 * The --prometheus file (src/output/prom_file.c) on real files: what the
 * start-up check refuses and why, what a write keeps (owner, mode), what
 * it never replaces (device nodes, links, fifos), names up to NAME_MAX.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/report.h"
#include "test.h"

static const char *root;

static void sample(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->fs_name = "ext4";
	r->metric = "ext4dist";
	r->ops_mask = 1u << OP_READ;
	r->ops[OP_READ].slots[3] = 2;
	r->ops[OP_READ].sum_ns = 9000;
}

static int entries(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(dir);
	return n;
}

/* check_refused NAME PATH ERR WANT_MSG: the start-up check says no. */
static void check_refused(const char *name, const char *path, int want_err,
			  const char *want_msg)
{
	char msg[1024] = "";

	check_int(name, report_prom_check_file(path, msg, sizeof(msg)),
		  want_err);
	check_str(name, msg, want_msg);
}

static void test_refused_kinds(void)
{
	char link[300], fifo[300], want[1024];
	struct stat st;

	check_refused("/dev/full refused", "/dev/full", -EPERM,
		      "--prometheus /dev/full: a character device, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one");
	check_refused("/dev/null refused", "/dev/null", -EPERM,
		      "--prometheus /dev/null: a character device, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one");
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode),
	      "/dev/null still a character device");
	check_refused("a directory refused", "/tmp", -EISDIR,
		      "--prometheus /tmp: a directory, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one");
	check_refused("a trailing slash refused", "/tmp/", -EISDIR,
		      "--prometheus /tmp/: a directory, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one");

	snprintf(link, sizeof(link), "%s/link.prom", root);
	test_write_file(test_tmp_path("real.prom"), "x\n", 2);
	CHECK(symlink("real.prom", link) == 0, "symlink made");
	snprintf(want, sizeof(want),
		 "--prometheus %s: a symbolic link, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one",
		 link);
	check_refused("a symbolic link refused", link, -ELOOP, want);

	snprintf(fifo, sizeof(fifo), "%s/fifo.prom", root);
	CHECK(mkfifo(fifo, 0644) == 0, "fifo made");
	snprintf(want, sizeof(want),
		 "--prometheus %s: a fifo, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one",
		 fifo);
	check_refused("a fifo refused", fifo, -EPERM, want);
	check_int("nothing created by the refusals", entries(root), 3);
}

static void test_refused_dirs(void)
{
	check_refused("missing directory", "/nonexistent/x.prom", -ENOENT,
		      "--prometheus /nonexistent/x.prom: cannot open its directory /nonexistent: No such file or directory; give a path in an existing, writable directory");
	/*
	 * /proc/self/mem is a regular file, but nothing can be created
	 * beside it (procfs answers a lookup of an unknown name with ENOENT).
	 */
	check_refused("/proc/self/mem", "/proc/self/mem", -ENOENT,
		      "--prometheus /proc/self/mem: cannot create a file in /proc/self: No such file or directory; ext4dist writes every output to a new file there and renames it over mem, so give a path in a writable directory");
}

static void test_names(void)
{
	char name[NAME_MAX + 1], path[PATH_MAX], msg[512];
	struct report r;
	char *text;
	size_t len;

	sample(&r);
	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	snprintf(path, sizeof(path), "%s/%s", root, name);
	check_int("NAME_MAX name: check", report_prom_check_file(path, msg,
								 sizeof(msg)), 0);
	check_int("NAME_MAX name: check leaves nothing", entries(root), 3);
	check_int("NAME_MAX name: written", report_prom_write_file(path, &r, 1), 0);
	text = test_read_file(path, &len);
	CHECK(text && strstr(text, "ext4dist_latency_seconds_count{fs=\"ext4\",op=\"read\"} 2\n"),
	      "NAME_MAX name: content");
	free(text);
	check_int("NAME_MAX name: written again", report_prom_write_file(path, &r, 1), 0);
	check_int("NAME_MAX name: no temporary left", entries(root), 4);
	unlink(path);

	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	check_int("name longer than NAME_MAX",
		  report_prom_check_file(path, msg, sizeof(msg)), -ENAMETOOLONG);
}

static void test_owner_and_mode(void)
{
	const char *path = test_tmp_path("owned.prom");
	char msg[512];
	struct report r;
	struct stat st;

	sample(&r);
	test_write_file(path, "old\n", 4);
	chmod(path, 0640);
	if (geteuid() == 0)
		CHECK(chown(path, 65534, 65534) == 0, "owner set to 65534");
	check_int("owned file: check", report_prom_check_file(path, msg,
							      sizeof(msg)), 0);
	check_int("owned file: written", report_prom_write_file(path, &r, 1), 0);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640,
	      "owned file: mode 0640 kept");
	if (geteuid() == 0)
		CHECK(st.st_uid == 65534 && st.st_gid == 65534,
		      "owned file: owner 65534:65534 kept");
	else
		CHECK(st.st_uid == geteuid(), "owned file: owner kept");
	unlink(path);
}

static void test_write_refuses(void)
{
	const char *fifo = test_tmp_path("later.prom");
	struct report r;
	struct stat st;

	sample(&r);
	/*
	 * The target turned into a fifo after the start-up check.  (A fifo,
	 * not /dev/full: a broken build must not replace a device node.)
	 */
	CHECK(mkfifo(fifo, 0644) == 0, "fifo made");
	check_int("write over a fifo refused", report_prom_write_file(fifo, &r, 1),
		  -EPERM);
	CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode),
	      "the fifo is still there");
	unlink(fifo);
}

/* A write past RLIMIT_FSIZE says so (EFBIG), not EIO; nothing is left. */
static void test_file_size_limit(void)
{
	const char *path = test_tmp_path("limited.prom");
	struct rlimit old, zero;
	struct report r;
	int n = entries(root);

	sample(&r);
	signal(SIGXFSZ, SIG_IGN);
	if (!CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "RLIMIT_FSIZE read"))
		return;
	zero = old;
	zero.rlim_cur = 0;
	setrlimit(RLIMIT_FSIZE, &zero);
	check_int("write past RLIMIT_FSIZE", report_prom_write_file(path, &r, 1),
		  -EFBIG);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	check_int("no temporary left after EFBIG", entries(root), n);
}

int main(void)
{
	root = test_tmpdir("ext4dist-prom");
	if (!root) {
		printf("FAIL mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_refused_kinds();
	test_refused_dirs();
	test_names();
	test_owner_and_mode();
	test_write_refuses();
	test_file_size_limit();
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			printf("# could not remove %s\n", root);
	}
	return test_done();
}
