// SPDX-License-Identifier: GPL-2.0
/*
 * opbench: nanoseconds per file operation, for make bench.
 *
 *   opbench DIR N [REPS] [TAG] [OP]
 *
 * On DIR/opbench.dat (created, 64 KiB): cached 4 KiB pread at offset 0,
 * 4 KiB pwrite at offset 0 (page cache only), open+close (O_RDONLY), and
 * fsync of the then clean file (fsync loop gets N/4 iterations).  Each op is
 * timed REPS times (default 5) in interleaved rounds of N calls with
 * clock_gettime(CLOCK_MONOTONIC); the median round is printed:
 *
 *   op mode=TAG name=pread_4k ns=1234.5 iters=20000 reps=5
 *
 * OP (pread_4k, ...) times that operation alone: on kprobe_multi one
 * program serves every function, and its run time per run is then that
 * operation's.
 * Each call is one system call reaching exactly one of ext4_file_read_iter,
 * ext4_file_write_iter, ext4_file_open, ext4_sync_file on ext4.
 * Static build: gcc -static -O2 -o opbench opbench.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_REPS 31

enum { OP_PREAD, OP_PWRITE, OP_OPEN, OP_FSYNC, NOPS };
static const char *const names[NOPS] = {
	"pread_4k", "pwrite_4k", "open_close", "fsync",
};

static char path[4096];
static char buf[4096];
static int fd;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double run(int op, long n)
{
	double t0 = now_ns();
	long i;

	switch (op) {
	case OP_PREAD:
		for (i = 0; i < n; i++)
			if (pread(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
				die("pread");
		break;
	case OP_PWRITE:
		for (i = 0; i < n; i++)
			if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
				die("pwrite");
		break;
	case OP_OPEN:
		for (i = 0; i < n; i++) {
			int f = open(path, O_RDONLY | O_CLOEXEC);

			if (f < 0)
				die("open");
			close(f);
		}
		break;
	case OP_FSYNC:
		for (i = 0; i < n; i++)
			if (fsync(fd))
				die("fsync");
		break;
	}
	return (now_ns() - t0) / (double)n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double t[NOPS][MAX_REPS];
	const char *tag, *only;
	long n, iters[NOPS];
	int reps, r, op, i;

	if (argc < 3) {
		fprintf(stderr, "usage: opbench DIR N [REPS] [TAG] [OP]\n");
		return 2;
	}
	n = atol(argv[2]);
	reps = argc > 3 ? atoi(argv[3]) : 5;
	tag = argc > 4 ? argv[4] : "-";
	only = argc > 5 ? argv[5] : NULL;
	if (n < 4 || reps < 1 || reps > MAX_REPS)
		return 2;
	snprintf(path, sizeof(path), "%s/opbench.dat", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(path);
	memset(buf, 'b', sizeof(buf));
	for (i = 0; i < 16; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die("write");
	if (fsync(fd))
		die("fsync");
	for (op = 0; op < NOPS; op++) {
		iters[op] = op == OP_FSYNC ? n / 4 : n;
		if (only && strcmp(only, names[op]))
			iters[op] = 0;
		else
			run(op, iters[op] / 20 + 1);	/* warm-up */
	}
	for (r = 0; r < reps; r++)
		for (op = 0; op < NOPS; op++) {
			if (!iters[op])
				continue;
			/* The fsync loop measures a clean file: flush first. */
			if (op == OP_FSYNC && fsync(fd))
				die("fsync");
			t[op][r] = run(op, iters[op]);
		}
	for (op = 0; op < NOPS; op++) {
		if (!iters[op])
			continue;
		qsort(t[op], (size_t)reps, sizeof(double), cmp);
		printf("op mode=%s name=%s ns=%.1f min_ns=%.1f iters=%ld reps=%d\n",
		       tag, names[op], t[op][reps / 2], t[op][0], iters[op],
		       reps);
	}
	close(fd);
	return 0;
}
