/*
 * workload: performs an exact number of file operations for the VM tests.
 *
 *   workload [-g GOFILE] [-b BYTES] [-t THREADS] [-n ROUNDS] [-s MSECS]
 *            FILE OPENS READS WRITES FSYNCS
 *
 * Waits until GOFILE exists (so the tracer can attach first), then does
 * exactly OPENS open() calls on FILE, READS pread() calls, WRITES pwrite()
 * calls and FSYNCS fsync() calls, each one system call on FILE, and exits 0.
 * On ext4 each of them is exactly one call of ext4_file_open,
 * ext4_file_read_iter, ext4_file_write_iter or ext4_sync_file.
 *
 * -n ROUNDS repeats that sequence (open ... close) ROUNDS times, sleeping
 * MSECS (-s) between rounds.  -t THREADS runs it in THREADS threads of this
 * one process, thread i on its own file FILE.i (i = 0 .. THREADS-1), all
 * started after GOFILE appeared; the totals are then THREADS * ROUNDS times
 * the counts.  Without -t, the main thread works on FILE itself.
 *
 * No stdio touches FILE: the only output goes to stdout/stderr, which the
 * test scripts redirect to a file outside the traced file system.
 * Static build: gcc -static -pthread -O2 -o workload workload.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GO_TIMEOUT_MS	120000
#define MAX_THREADS	256

struct job {
	char file[4096];
	long opens, reads, writes, fsyncs, bs, rounds, sleep_ms;
	pthread_t tid;
	int rc;
};

static void usage(void)
{
	fprintf(stderr, "usage: workload [-g GOFILE] [-b BYTES] [-t THREADS] "
		"[-n ROUNDS] [-s MSECS] FILE OPENS READS WRITES FSYNCS\n");
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

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000 * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int wait_for_file(const char *path)
{
	struct stat st;
	int waited;

	for (waited = 0; waited < GO_TIMEOUT_MS; waited += 5) {
		if (stat(path, &st) == 0)
			return 0;
		sleep_ms(5);
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

/* One round: OPENS opens, then the reads, writes and fsyncs, then close. */
static int one_round(const struct job *j, char *buf)
{
	long i, n, bs = j->bs;
	off_t size;
	int fd;

	fd = open(j->file, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return fail("open", j->file);
	for (i = 1; i < j->opens; i++) {
		int extra = open(j->file, O_RDONLY);

		if (extra < 0) {
			close(fd);
			return fail("open", j->file);
		}
		close(extra);
	}

	n = j->reads > j->writes ? j->reads : j->writes;
	n = n > j->fsyncs ? n : j->fsyncs;
	size = 0;
	for (i = 0; i < n; i++) {
		if (i < j->writes) {
			if (pwrite(fd, buf, bs, (off_t)i * bs) != bs)
				goto failed_pwrite;
			if (((off_t)i + 1) * bs > size)
				size = ((off_t)i + 1) * bs;
		}
		if (i < j->reads) {
			/* Stay inside what exists; reading at EOF is fine too. */
			off_t off = size > bs ? ((off_t)i * bs) % (size - bs + 1) : 0;

			if (pread(fd, buf, bs, off) < 0)
				goto failed_pread;
		}
		if (i < j->fsyncs && fsync(fd) != 0)
			goto failed_fsync;
	}
	/* close() is not traced; exit would close it anyway. */
	close(fd);
	return 0;
failed_pwrite:
	i = fail("pwrite", j->file);
	close(fd);
	return (int)i;
failed_pread:
	i = fail("pread", j->file);
	close(fd);
	return (int)i;
failed_fsync:
	i = fail("fsync", j->file);
	close(fd);
	return (int)i;
}

static int run_job(struct job *j)
{
	char *buf;
	long r;
	int rc = 0;

	if (j->opens < 1)
		return 0;
	buf = malloc(j->bs);
	if (!buf)
		return 1;
	memset(buf, 'x', j->bs);
	for (r = 0; r < j->rounds && rc == 0; r++) {
		if (r > 0 && j->sleep_ms > 0)
			sleep_ms(j->sleep_ms);
		rc = one_round(j, buf);
	}
	free(buf);
	return rc;
}

static void *thread_main(void *arg)
{
	struct job *j = arg;

	j->rc = run_job(j);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *go = NULL;
	long threads = 0, rounds = 1, pause = 0, bs = 4096, i;
	struct job proto, *jobs;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "g:b:t:n:s:")) != -1) {
		switch (opt) {
		case 'g': go = optarg; break;
		case 'b': bs = parse_count(optarg); break;
		case 't': threads = parse_count(optarg); break;
		case 'n': rounds = parse_count(optarg); break;
		case 's': pause = parse_count(optarg); break;
		default: usage();
		}
	}
	if (argc - optind != 5 || bs < 1 || threads > MAX_THREADS ||
	    rounds < 1)
		usage();
	memset(&proto, 0, sizeof(proto));
	if (strlen(argv[optind]) + 8 > sizeof(proto.file))
		usage();
	strcpy(proto.file, argv[optind]);
	proto.opens = parse_count(argv[optind + 1]);
	proto.reads = parse_count(argv[optind + 2]);
	proto.writes = parse_count(argv[optind + 3]);
	proto.fsyncs = parse_count(argv[optind + 4]);
	proto.bs = bs;
	proto.rounds = rounds;
	proto.sleep_ms = pause;
	if (proto.opens < 1 && proto.reads + proto.writes + proto.fsyncs > 0) {
		fprintf(stderr, "workload: reads/writes/fsyncs need OPENS >= 1\n");
		return 2;
	}

	printf("workload: pid %d waiting\n", (int)getpid());
	fflush(stdout);
	if (go && wait_for_file(go))
		return 1;

	if (threads < 1) {
		rc = run_job(&proto);
	} else {
		jobs = calloc((size_t)threads, sizeof(*jobs));
		if (!jobs)
			return 1;
		for (i = 0; i < threads; i++) {
			jobs[i] = proto;
			snprintf(jobs[i].file, sizeof(jobs[i].file), "%s.%ld",
				 proto.file, i);
			if (pthread_create(&jobs[i].tid, NULL, thread_main,
					   &jobs[i])) {
				fprintf(stderr, "workload: pthread_create failed\n");
				return 1;
			}
		}
		for (i = 0; i < threads; i++) {
			pthread_join(jobs[i].tid, NULL);
			if (jobs[i].rc)
				rc = jobs[i].rc;
		}
		free(jobs);
	}
	if (rc)
		return rc;
	printf("workload: done opens=%ld reads=%ld writes=%ld fsyncs=%ld "
	       "(x %ld rounds x %ld threads)\n",
	       proto.opens, proto.reads, proto.writes, proto.fsyncs, rounds,
	       threads < 1 ? 1 : threads);
	return 0;
}
