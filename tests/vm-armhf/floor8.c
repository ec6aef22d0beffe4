// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own floor for ext4dist's start-up: the same 8 probes
 * (entry and return of the 4 default functions) without any BPF: open
 * them, print ext4dist's banner, wait for SIGINT, close them.  Static,
 * built by foreign_build_bench_tools (tests/vm/foreign.sh) for armhf and
 * arm64.
 *
 *   floor8 [--tracefs] [--maxactive N] [--time] [PLACE...]
 *
 * Through the perf kprobe PMU, or with --tracefs as kprobe_events
 * definitions ("rN:" with --maxactive) opened as tracepoint perf events,
 * as ext4dist's two kprobe paths make them.  A PLACE is where each pair
 * of probes goes, in the kernel's own syntax: a name
 * ("ext4_file_open"), a module's symbol ("ext4:ext4_file_open") or an
 * address ("0xbf04c2a0"); by default the 4 names.  --time makes the
 * probes, prints "probes make_ns=N remove_ns=N make_cpu_ns=N
 * remove_cpu_ns=N", the time taken by the making and by the removing
 * (CLOCK_MONOTONIC: guest instructions under qemu -icount, idle time
 * included, which jumps to the next tick), and this thread's own time
 * in them (CLOCK_THREAD_CPUTIME_ID: its instructions, user and kernel,
 * without the waits for RCU and stop_machine), removes them and exits,
 * without the banner.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#define MAX_PLACES 8

static const char *const funcs[] = {
	"ext4_file_read_iter", "ext4_file_write_iter", "ext4_file_open",
	"ext4_sync_file",
};

static int fds[2 * MAX_PLACES], nfds;
static char events[2 * MAX_PLACES][48];
static int tracing_fd = -1;

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static long long now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int kprobe_events_write(const char *line)
{
	int fd = openat(tracing_fd, "kprobe_events",
			O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n = (ssize_t)strlen(line), w;

	if (fd < 0)
		return -errno;
	w = write(fd, line, (size_t)n);
	close(fd);
	return w == n ? 0 : (w < 0 ? -errno : -EIO);
}

static int perf_open(struct perf_event_attr *a)
{
	long fd = syscall(__NR_perf_event_open, a, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static int pmu_probe(int type, int ret, const char *place)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = (uint64_t)ret;	/* bit 0: retprobe (format/retprobe) */
	if (!strncmp(place, "0x", 2))
		a.config2 = strtoull(place, NULL, 16);	/* kprobe_addr */
	else
		a.config1 = (uint64_t)(uintptr_t)place;	/* kprobe_func */
	return perf_open(&a);
}

static int tracefs_probe(char *event, int ret, const char *maxactive,
			 const char *place)
{
	struct perf_event_attr a;
	char line[160], path[96], id[16] = "";
	int fd, err;

	snprintf(event, 48, "floor8_%d_%d", (int)getpid(), nfds);
	snprintf(line, sizeof(line), "%c%s:kprobes/%s %s\n", ret ? 'r' : 'p',
		 ret ? maxactive : "", event, place);
	err = kprobe_events_write(line);
	if (err) {
		event[0] = '\0';
		return err;
	}
	snprintf(path, sizeof(path), "events/kprobes/%s/id", event);
	fd = openat(tracing_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = read(fd, id, sizeof(id) - 1) > 0 ? 0 : -EIO;
	close(fd);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = strtoull(id, NULL, 10);
	a.sample_period = 1;
	a.wakeup_events = 1;
	return perf_open(&a);
}

/* Closes every perf event, then removes the definitions. */
static void remove_all(void)
{
	char line[80];

	while (nfds > 0) {
		nfds--;
		if (fds[nfds] >= 0)
			close(fds[nfds]);
		if (!events[nfds][0])
			continue;
		snprintf(line, sizeof(line), "-:kprobes/%s\n", events[nfds]);
		if (kprobe_events_write(line))
			fprintf(stderr, "floor8: cannot remove %s\n", events[nfds]);
	}
}

int main(int argc, char **argv)
{
	const char *places[MAX_PLACES], *maxactive = "";
	int type = -1, use_tracefs = 0, timed = 0, nplaces = 0, sig, i, fd;
	unsigned int ret;
	long long t0, t1, t2, c0, c1, c2;
	sigset_t set;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tracefs"))
			use_tracefs = 1;
		else if (!strcmp(argv[i], "--time"))
			timed = 1;
		else if (!strcmp(argv[i], "--maxactive") && i + 1 < argc)
			maxactive = argv[++i];
		else if (nplaces < MAX_PLACES)
			places[nplaces++] = argv[i];
		else {
			fprintf(stderr, "usage: floor8 [--tracefs] [--maxactive N] [--time] [PLACE...] (at most %d)\n",
				MAX_PLACES);
			return 2;
		}
	}
	for (i = 0; !nplaces && i < 4; i++)
		places[i] = funcs[i];
	if (!nplaces)
		nplaces = 4;
	if (use_tracefs) {
		tracing_fd = open("/sys/kernel/tracing", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (tracing_fd < 0) {
			fprintf(stderr, "floor8: no /sys/kernel/tracing\n");
			return 1;
		}
	} else if (read_int("/sys/bus/event_source/devices/kprobe/type", &type)) {
		fprintf(stderr, "floor8: no kprobe PMU\n");
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	t0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	/* Return probes first, as ext4dist attaches them. */
	for (i = 0; i < nplaces; i++) {
		for (ret = 2; ret-- > 0;) {
			events[nfds][0] = '\0';
			fd = use_tracefs ? tracefs_probe(events[nfds], (int)ret, maxactive, places[i]) :
				pmu_probe(type, (int)ret, places[i]);
			fds[nfds++] = fd;
			if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				fd = -errno;
			if (fd < 0) {
				fprintf(stderr, "floor8: %s at %s via %s: %s\n",
					ret ? "return probe" : "probe", places[i],
					use_tracefs ? "kprobe_events" : "the kprobe PMU",
					strerror(-fd));
				remove_all();
				return 1;
			}
		}
	}
	t1 = now_ns(CLOCK_MONOTONIC);
	c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	if (timed) {
		remove_all();
		t2 = now_ns(CLOCK_MONOTONIC);
		c2 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		printf("probes make_ns=%lld remove_ns=%lld make_cpu_ns=%lld remove_cpu_ns=%lld\n",
		       t1 - t0, t2 - t1, c1 - c0, c2 - c1);
		return 0;
	}
	printf("Tracing ext4 operation latency... Hit Ctrl-C to end.\n");
	fflush(stdout);
	sigwait(&set, &sig);
	remove_all();
	return 0;
}
