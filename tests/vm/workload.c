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
 * -C PAIRS -S SLOTS then does PAIRS pairs of 4 KiB preads of FILE (opened
 * once more) by two new threads whose ids differ by exactly SLOTS, both
 * inside ext4_file_read_iter at once, the first one returning first
 * (collide(): thread ids chosen through ns_last_pid, each read held in
 * the function by a userfaultfd page).
 *
 * No stdio touches FILE: the only output goes to stdout/stderr, which the
 * test scripts redirect to a file outside the traced file system.
 * Static build: gcc -static -pthread -O2 -o workload workload.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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
		"[-n ROUNDS] [-s MSECS] [-y] [-a N] [-E N] [-C PAIRS -S SLOTS] "
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

/*
 * One read of collide(): its thread waits for a byte on go[0] (1: read,
 * 0: exit without reading), so its id can be checked first.
 */
struct reader {
	int fd;
	char *buf;
	int go[2];
	pthread_t thread;
	pid_t tid;
	ssize_t got;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char c = 0;

	__atomic_store_n(&r->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (read(r->go[0], &c, 1) == 1 && c)
		r->got = pread(r->fd, r->buf, 4096, 0);
	return NULL;
}

static int write_last_pid(long last)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	int bad;

	if (!f)
		return fail("open", "/proc/sys/kernel/ns_last_pid");
	bad = fprintf(f, "%ld", last) < 0;
	bad |= fclose(f) != 0;
	return bad ? fail("write", "/proc/sys/kernel/ns_last_pid") : 0;
}

static long read_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void reader_go(struct reader *r, char c)
{
	if (write(r->go[1], &c, 1) != 1)
		fail("write", "pipe");
}

/*
 * A waiting thread of id tid: 0; 1 when another task took that id first
 * (kernel threads come and go), or -1 (said).
 */
static int reader_new(struct reader *r, long tid)
{
	if (write_last_pid(tid - 1))
		return -1;
	r->tid = 0;
	r->got = -1;
	if (pthread_create(&r->thread, NULL, reader_main, r)) {
		fprintf(stderr, "workload: pthread_create failed\n");
		return -1;
	}
	while (!__atomic_load_n(&r->tid, __ATOMIC_ACQUIRE))
		sched_yield();
	if (r->tid == tid)
		return 0;
	reader_go(r, 0);
	pthread_join(r->thread, NULL);
	return 1;
}

/* Waits until a read faults on buf: its thread is inside the read. */
static int wait_fault(int uffd, const char *buf)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg m;

	if (poll(&p, 1, GO_TIMEOUT_MS) != 1 ||
	    read(uffd, &m, sizeof(m)) != sizeof(m))
		return fail("userfaultfd", "read");
	if (m.event != UFFD_EVENT_PAGEFAULT ||
	    m.arg.pagefault.address != (unsigned long)buf) {
		fprintf(stderr, "workload: unexpected fault at %#llx\n",
			(unsigned long long)m.arg.pagefault.address);
		return 1;
	}
	return 0;
}

/* Fills buf's page: the read faulting there goes on, returns, is joined. */
static int release(int uffd, struct reader *r)
{
	static char zero[4096];
	struct uffdio_copy c = {
		.dst = (unsigned long)r->buf, .src = (unsigned long)zero,
		.len = 4096,
	};

	if (ioctl(uffd, UFFDIO_COPY, &c))
		return fail("UFFDIO_COPY", "page");
	pthread_join(r->thread, NULL);
	if (r->got != 4096) {
		fprintf(stderr, "workload: reader thread %d read %zd bytes\n",
			(int)r->tid, r->got);
		return 1;
	}
	return 0;
}

/*
 * Two waiting threads whose ids differ by slots, from *a on (a candidate
 * taken meanwhile is skipped): 0, or 1 (said).
 */
static int reader_pair(struct reader *r, long *a, long slots, long max)
{
	int tries, err;

	for (tries = 0; tries < 100; tries++, (*a)++) {
		if (*a + slots >= max)
			*a = 300;
		err = reader_new(&r[0], *a);
		if (err < 0)
			return 1;
		if (err)
			continue;
		err = reader_new(&r[1], *a + slots);
		if (!err)
			return 0;
		reader_go(&r[0], 0);
		pthread_join(r[0].thread, NULL);
		if (err < 0)
			return 1;
	}
	fprintf(stderr, "workload: no two free thread ids %ld apart in 100 tries\n",
		slots);
	return 1;
}

static int collide(const struct job *j, long pairs, long slots)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	long last = read_sysctl("/proc/sys/kernel/ns_last_pid");
	long max = read_sysctl("/proc/sys/kernel/pid_max"), i, a;
	struct reader r[2];
	char *mem;
	int uffd, fd, rc = 0;

	if (last < 0 || max < 0)
		return fail("read", "/proc/sys/kernel/ns_last_pid or pid_max");
	if (300 + slots + 100 >= max) {
		fprintf(stderr, "workload: pid_max %ld too small for -S %ld\n",
			max, slots);
		return 1;
	}
	a = last + 100;
	fd = open(j->file, O_RDONLY);
	if (fd < 0)
		return fail("open", j->file);
	uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		close(fd);
		return fail("userfaultfd", "API");
	}
	memset(r, 0, sizeof(r));
	if (pipe(r[0].go) || pipe(r[1].go)) {
		close(uffd);
		close(fd);
		return fail("pipe", "");
	}
	for (i = 0; i < pairs && !rc; i++, a++) {
		mem = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			rc = fail("mmap", "2 pages");
			break;
		}
		reg.range.start = (unsigned long)mem;
		reg.range.len = 2 * 4096;
		r[0].fd = r[1].fd = fd;
		r[0].buf = mem;
		r[1].buf = mem + 4096;
		if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
			rc = fail("UFFDIO_REGISTER", "2 pages");
		} else if (reader_pair(r, &a, slots, max)) {
			rc = 1;
		} else {
			reader_go(&r[0], 1);
			rc = wait_fault(uffd, r[0].buf);
			if (!rc)
				reader_go(&r[1], 1);
			else
				reader_go(&r[1], 0);
			rc = rc || wait_fault(uffd, r[1].buf);
			rc = release(uffd, &r[0]) || rc;
			rc = release(uffd, &r[1]) || rc;
		}
		munmap(mem, 2 * 4096);
	}
	close(uffd);
	close(fd);
	if (!rc)
		printf("workload: %ld pairs of reads by threads %ld apart\n",
		       pairs, slots);
	return rc;
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
	long efault = 0, pairs = 0, slots = 0;
	int osync = 0;
	struct job proto, *jobs;
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "g:b:t:n:s:ya:E:C:S:")) != -1) {
		switch (opt) {
		case 'g': go = optarg; break;
		case 'b': bs = parse_count(optarg); break;
		case 't': threads = parse_count(optarg); break;
		case 'n': rounds = parse_count(optarg); break;
		case 's': pause = parse_count(optarg); break;
		case 'y': osync = 1; break;
		case 'a': aio = parse_count(optarg); break;
		case 'E': efault = parse_count(optarg); break;
		case 'C': pairs = parse_count(optarg); break;
		case 'S': slots = parse_count(optarg); break;
		default: usage();
		}
	}
	if (argc - optind != 5 || bs < 1 || threads > MAX_THREADS ||
	    rounds < 1 || (pairs && (slots < 1 || threads)))
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
		if (!rc && pairs)
			rc = collide(&proto, pairs, slots);
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
