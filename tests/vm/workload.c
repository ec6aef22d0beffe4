// SPDX-License-Identifier: GPL-2.0
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
 * -y opens FILE with O_SYNC: every write then runs an fsync inside it
 * (ext4_sync_file called from ext4_file_write_iter, same thread).
 * -a N then submits N asynchronous direct 4 KiB writes (Linux AIO,
 * io_submit, one at a time, each waited for) within the file's first
 * WRITES blocks: each is one ext4_file_write_iter call that returns
 * -EIOCBQUEUED unless the I/O finished first.
 * -E N then does N preads into an unmapped buffer: each is one
 * ext4_file_read_iter call returning -EFAULT.
 *
 * No stdio touches FILE: the only output goes to stdout/stderr, which the
 * test scripts redirect to a file outside the traced file system.
 * Static build: gcc -static -pthread -O2 -o workload workload.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define GO_TIMEOUT_MS	120000
#define MAX_THREADS	256

struct job {
	char file[4096];
	long opens, reads, writes, fsyncs, bs, rounds, sleep_ms;
	long aio, efault;
	int osync;
	pthread_t tid;
	int rc;
};

static void usage(void)
{
	fprintf(stderr, "usage: workload [-g GOFILE] [-b BYTES] [-t THREADS] "
		"[-n ROUNDS] [-s MSECS] [-y] [-a N] [-E N] "
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

	fd = open(j->file, O_RDWR | O_CREAT | (j->osync ? O_SYNC : 0), 0644);
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

/*
 * N asynchronous direct writes of 4 KiB, submitted in one io_submit so
 * the device is busy with the first ones while the later ones are
 * queued (each write_iter then returns -EIOCBQUEUED), then all waited for.
 */
#define AIO_MAX 64

static int aio_writes(const struct job *j)
{
	aio_context_t ctx = 0;
	struct iocb cb[AIO_MAX], *cbs[AIO_MAX];
	struct io_event ev[AIO_MAX];
	char *buf = NULL;
	long i, n = j->aio, blocks = j->writes * j->bs / 4096, done = 0;
	int fd, rc = 0;

	if (n > AIO_MAX || blocks < 1) {
		fprintf(stderr, "workload: -a at most %d, and WRITES blocks first\n",
			AIO_MAX);
		return 1;
	}
	fd = open(j->file, O_RDWR | O_DIRECT);
	if (fd < 0)
		return fail("open O_DIRECT", j->file);
	if (posix_memalign((void **)&buf, 4096, 4096 * (size_t)n) ||
	    syscall(__NR_io_setup, n, &ctx)) {
		close(fd);
		return fail("io_setup", j->file);
	}
	memset(buf, 'a', 4096 * (size_t)n);
	for (i = 0; i < n; i++) {
		memset(&cb[i], 0, sizeof(cb[i]));
		cb[i].aio_lio_opcode = IOCB_CMD_PWRITE;
		cb[i].aio_fildes = (unsigned int)fd;
		cb[i].aio_buf = (unsigned long)(buf + 4096 * i);
		cb[i].aio_nbytes = 4096;
		cb[i].aio_offset = (i % blocks) * 4096;
		cbs[i] = &cb[i];
	}
	if (syscall(__NR_io_submit, ctx, n, cbs) != n)
		rc = fail("io_submit", j->file);
	while (!rc && done < n) {
		long got = syscall(__NR_io_getevents, ctx, 1, n - done, ev, NULL);

		if (got < 1)
			rc = fail("io_getevents", j->file);
		for (i = 0; i < got && !rc; i++)
			if (ev[i].res != 4096)
				rc = fail("asynchronous write", j->file);
		done += got > 0 ? got : 0;
	}
	syscall(__NR_io_destroy, ctx);
	free(buf);
	close(fd);
	return rc;
}

/* N reads into a buffer that is not mapped: -EFAULT from the kernel. */
static int efault_reads(const struct job *j)
{
	/*
	 * Through a volatile, so the compiler cannot see (and rightly warn
	 * about) the bad buffer; libc's pread, not a raw syscall(), passes
	 * the 64-bit offset as 32-bit ARM's EABI wants (an aligned pair).
	 */
	char *volatile bad = (char *)16;
	long i;
	int fd = open(j->file, O_RDONLY);

	if (fd < 0)
		return fail("open", j->file);
	for (i = 0; i < j->efault; i++) {
		if (pread(fd, bad, 4096, 0) != -1 || errno != EFAULT) {
			close(fd);
			return fail("pread into an unmapped buffer", j->file);
		}
	}
	close(fd);
	return 0;
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
	if (!rc && j->aio)
		rc = aio_writes(j);
	if (!rc && j->efault)
		rc = efault_reads(j);
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
	long threads = 0, rounds = 1, pause = 0, bs = 4096, i, aio = 0;
	long efault = 0;
	int osync = 0;
	struct job proto, *jobs;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "g:b:t:n:s:ya:E:")) != -1) {
		switch (opt) {
		case 'g': go = optarg; break;
		case 'b': bs = parse_count(optarg); break;
		case 't': threads = parse_count(optarg); break;
		case 'n': rounds = parse_count(optarg); break;
		case 's': pause = parse_count(optarg); break;
		case 'y': osync = 1; break;
		case 'a': aio = parse_count(optarg); break;
		case 'E': efault = parse_count(optarg); break;
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
	proto.aio = aio;
	proto.efault = efault;
	proto.osync = osync;
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
