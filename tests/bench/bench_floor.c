/*
 * bench_floor: the floor for ext4dist's start-up in `make bench`, run in the
 * VM beside ext4dist by `bench_probe startup`.  Static, libc only, no BPF.
 *
 *   bench_floor [--tracefs] FUNC...
 *
 * Creates the probes ext4dist creates by default, the same way and in the
 * same order: for each FUNC a kretprobe, then a kprobe, through the perf
 * kprobe PMU by name where the kernel has one
 * (/sys/bus/event_source/devices/kprobe, 4.17+), else as tracefs
 * kprobe_events definitions opened as perf tracepoint events (also with
 * --tracefs, the path ext4dist takes by default where kprobe_events can
 * size its return probes); each perf
 * event enabled (PERF_EVENT_IOC_ENABLE) as ext4dist enables its own, but
 * with no program attached.  Then prints ext4dist's banner and waits for
 * SIGINT or SIGTERM, closes the events and removes its kprobe_events
 * definitions ("floor_<pid>_<p|r>_<func>").
 *
 * The guest passes ext4dist's functions on that kernel (ext4_file_read_iter,
 * or generic_file_read_iter before 4.10, ext4_file_write_iter,
 * ext4_file_open, ext4_sync_file): exec to the banner is then the kernel's
 * price of those 8 probes plus an exec, which no tracer on the same path
 * can go below.  Exit status 1 (one line on stderr) when a probe cannot be
 * made.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#define BANNER "Tracing ext4 operation latency... Hit Ctrl-C to end."
#define PMU_DIR "/sys/bus/event_source/devices/kprobe"
#define MAX_PROBES 32

struct probe {
	int fd;
	char event[96];		/* tracefs event name, "" on the PMU */
};

static struct probe probes[MAX_PROBES];
static int nprobes;
static const char *tracing_dir;	/* with kprobe_events, or NULL: PMU */
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The first line of a small file, without its newline: 0, or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* Appends one line to kprobe_events: 0, or -errno. */
static int kprobe_events_write(const char *line)
{
	char path[128];
	size_t n = strlen(line);
	ssize_t w;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/kprobe_events", tracing_dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, line, n);
	if (w < 0)
		err = -errno;
	else if ((size_t)w != n)
		err = -EIO;
	close(fd);
	return err;
}

static int perf_open(struct perf_event_attr *attr)
{
	/* As ext4dist: pid -1, cpu 0 (a kprobe fires on every CPU). */
	long fd = syscall(__NR_perf_event_open, attr, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* One probe through the kprobe PMU: perf fd, or -errno. */
static int pmu_probe(int type, int retbit, int ret, const char *func)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	attr.config = ret ? 1ULL << retbit : 0;
	attr.config1 = (uint64_t)(uintptr_t)func;	/* kprobe_func */
	return perf_open(&attr);
}

/* One probe as a tracefs kprobe event: perf fd, or -errno; p->event named. */
static int tracefs_probe(struct probe *p, int ret, const char *func)
{
	struct perf_event_attr attr;
	char line[256], path[256], id[32];
	int err, fd;

	snprintf(p->event, sizeof(p->event), "floor_%d_%c_%s", (int)getpid(),
		 ret ? 'r' : 'p', func);
	snprintf(line, sizeof(line), "%c:kprobes/%s %s\n", ret ? 'r' : 'p',
		 p->event, func);
	err = kprobe_events_write(line);
	if (err) {
		p->event[0] = '\0';
		return err;
	}
	snprintf(path, sizeof(path), "%s/events/kprobes/%s/id", tracing_dir,
		 p->event);
	err = read_line(path, id, sizeof(id));
	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = strtoull(id, NULL, 10);
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	fd = perf_open(&attr);
	return fd;
}

/* Closes every perf event, then removes the tracefs definitions. */
static void cleanup(void)
{
	char line[128];
	int i;

	for (i = 0; i < nprobes; i++)
		if (probes[i].fd >= 0)
			close(probes[i].fd);
	for (i = nprobes - 1; i >= 0; i--) {
		if (!probes[i].event[0])
			continue;
		snprintf(line, sizeof(line), "-:kprobes/%s\n", probes[i].event);
		if (kprobe_events_write(line))
			fprintf(stderr, "bench_floor: cannot remove %s\n",
				probes[i].event);
	}
}

int main(int argc, char **argv)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	struct sigaction sa;
	sigset_t mask, old;
	char buf[64], path[128];
	int type = -1, retbit = 0, i, ret, fd, first = 1, use_pmu = 1;

	if (argc > 1 && !strcmp(argv[1], "--tracefs")) {
		use_pmu = 0;
		first = 2;
	}
	if (argc - first < 1 || (argc - first) * 2 > MAX_PROBES) {
		fprintf(stderr, "usage: bench_floor [--tracefs] FUNC... (at most %d)\n",
			MAX_PROBES / 2);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* The PMU, as ext4dist reads it: its type and the retprobe bit. */
	if (use_pmu && read_line(PMU_DIR "/type", buf, sizeof(buf)) == 0) {
		type = atoi(buf);
		if (read_line(PMU_DIR "/format/retprobe", buf, sizeof(buf)) == 0 &&
		    !strncmp(buf, "config:", 7))
			retbit = atoi(buf + 7);
	} else {
		for (i = 0; i < 2 && !tracing_dir; i++) {
			snprintf(path, sizeof(path), "%s/kprobe_events", dirs[i]);
			if (access(path, W_OK) == 0)
				tracing_dir = dirs[i];
		}
		if (!tracing_dir) {
			fprintf(stderr, "bench_floor: no kprobe PMU and no kprobe_events in a mounted tracefs or debugfs\n");
			return 1;
		}
	}

	for (i = first; i < argc; i++) {
		for (ret = 1; ret >= 0; ret--) {
			struct probe *p = &probes[nprobes++];

			p->event[0] = '\0';
			fd = tracing_dir ? tracefs_probe(p, ret, argv[i]) :
					   pmu_probe(type, retbit, ret, argv[i]);
			p->fd = fd;
			if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				fd = -errno;
			if (fd < 0) {
				fprintf(stderr, "bench_floor: %s %s via %s: %s\n",
					ret ? "kretprobe" : "kprobe", argv[i],
					tracing_dir ? "tracefs" : "the kprobe PMU",
					strerror(-fd));
				cleanup();
				return 1;
			}
		}
	}

	/* Blocked until sigsuspend: a signal right after the banner counts. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &old);
	printf("%s\n", BANNER);
	fflush(stdout);
	while (!stop)
		sigsuspend(&old);
	/* As ext4dist: its output first, then the probes go. */
	printf("\n");
	fflush(stdout);
	cleanup();
	return 0;
}
