/*
 * workload: performs an exact number of file operations for the VM tests.
 *
 *   workload [-g GOFILE] [-b BYTES] FILE OPENS READS WRITES FSYNCS
 *
 * Waits until GOFILE exists (so the tracer can attach first), then does
 * exactly OPENS open() calls on FILE, READS pread() calls, WRITES pwrite()
 * calls and FSYNCS fsync() calls, each one system call on FILE, and exits 0.
 * On ext4 each of them is exactly one call of ext4_file_open,
 * ext4_file_read_iter, ext4_file_write_iter or ext4_sync_file.
 *
 * No stdio touches FILE: the only output goes to stdout/stderr, which the
 * test scripts redirect to a file outside the traced file system.
 * Static build: gcc -static -O2 -o workload workload.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GO_TIMEOUT_MS	120000

static void usage(void)
{
	fprintf(stderr, "usage: workload [-g GOFILE] [-b BYTES] "
		"FILE OPENS READS WRITES FSYNCS\n");
	exit(2);
}

static long parse_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0)
		usage();
	return v;
}

static int wait_for_file(const char *path)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	struct stat st;
	int waited;

	for (waited = 0; waited < GO_TIMEOUT_MS; waited += 5) {
		if (stat(path, &st) == 0)
			return 0;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "workload: %s did not appear within %d s\n",
		path, GO_TIMEOUT_MS / 1000);
	return -1;
}

static int fail(const char *what, const char *file)
{
	fprintf(stderr, "workload: %s %s: %s\n", what, file, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	const char *go = NULL, *file;
	long opens, reads, writes, fsyncs, i, n, bs = 4096;
	off_t size;
	char *buf;
	int fd, opt;

	while ((opt = getopt(argc, argv, "g:b:")) != -1) {
		switch (opt) {
		case 'g': go = optarg; break;
		case 'b': bs = parse_count(optarg); break;
		default: usage();
		}
	}
	if (argc - optind != 5 || bs < 1)
		usage();
	file = argv[optind];
	opens = parse_count(argv[optind + 1]);
	reads = parse_count(argv[optind + 2]);
	writes = parse_count(argv[optind + 3]);
	fsyncs = parse_count(argv[optind + 4]);
	if (opens < 1 && reads + writes + fsyncs > 0) {
		fprintf(stderr, "workload: reads/writes/fsyncs need OPENS >= 1\n");
		return 2;
	}

	buf = malloc(bs);
	if (!buf)
		return 1;
	memset(buf, 'x', bs);

	printf("workload: pid %d waiting\n", (int)getpid());
	fflush(stdout);
	if (go && wait_for_file(go))
		return 1;
	if (opens < 1)
		return 0;

	fd = open(file, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return fail("open", file);
	for (i = 1; i < opens; i++) {
		int extra = open(file, O_RDONLY);

		if (extra < 0)
			return fail("open", file);
		close(extra);
	}

	n = reads > writes ? reads : writes;
	n = n > fsyncs ? n : fsyncs;
	size = 0;
	for (i = 0; i < n; i++) {
		if (i < writes) {
			if (pwrite(fd, buf, bs, (off_t)i * bs) != bs)
				return fail("pwrite", file);
			if (((off_t)i + 1) * bs > size)
				size = ((off_t)i + 1) * bs;
		}
		if (i < reads) {
			/* Stay inside what exists; reading at EOF is fine too. */
			off_t off = size > bs ? ((off_t)i * bs) % (size - bs + 1) : 0;

			if (pread(fd, buf, bs, off) < 0)
				return fail("pread", file);
		}
		if (i < fsyncs && fsync(fd) != 0)
			return fail("fsync", file);
	}
	/* close() is not traced; exit would close it anyway. */
	close(fd);
	printf("workload: done opens=%ld reads=%ld writes=%ld fsyncs=%ld\n",
	       opens, reads, writes, fsyncs);
	return 0;
}
