// SPDX-License-Identifier: GPL-2.0
/*
 * bench_probe: the measuring side of `make bench`, run inside the VM.
 * Static, linked with build/libext4dist.a (the project's own loader).
 *
 *   bench_probe stats [--pid PID]
 *       every loaded BPF program (BPF_PROG_GET_NEXT_ID, _GET_FD_BY_ID,
 *       BPF_OBJ_GET_INFO_BY_FD): name, run_cnt, run_time_ns, xlated and
 *       JIT size; with --pid only those attached through PID's perf fds,
 *       each labelled with its probe (BPF_TASK_FD_QUERY).
 *   bench_probe around --pid PID [--tag TAG] -- CMD [ARG...]
 *       runs CMD (stdout passed through) and prints, per program of PID,
 *       the run_cnt and run_time_ns CMD added.
 *   bench_probe startup [--runs N] [--tag TAG] -- CMD [ARG...]
 *       N times: fork+exec CMD with stdout on a pipe, time to the banner
 *       line, VmHWM then, SIGINT, time to exit, ru_maxrss, and system calls
 *       made (counted in the kernel by a raw_syscalls:sys_enter perf
 *       counter on the child, enabled at exec; -1 on kernels without
 *       syscall tracepoints).  CMD is ext4dist, or tests/bench/bench_floor
 *       (the same probes without BPF: the floor).
 *   bench_probe profile [--period NS] [--top N] [--tag T] [--touch F]
 *                       [--user-ips] -- CMD
 *       samples CMD's task clock with kernel call chains from exec to the
 *       banner, then from SIGINT to its exit: top symbols, self and
 *       inclusive ("profile_sym" records); with --user-ips the address of
 *       every user-space sample too ("profile_uip", for the host's nm).
 *   bench_probe variants OBJ FILE ITERS ROUNDS
 *       loads OBJ (tests/bench/variants.bpf.o) with the project's loader,
 *       attaches each variant's pair to ext4_file_read_iter in turn, does
 *       ITERS cached 4 KiB preads of FILE, and prints per variant the
 *       kernel's run_time_ns / run_cnt of the entry and return programs,
 *       the pread ns/op, the events counted in its histogram and sizes.
 *   bench_probe hold OBJ fentry|pmu [VARIANT]
 *       the floor of the ops table: OBJ's empty programs ("null", else
 *       VARIANT's) on ext4's read, write, open and fsync functions, entry
 *       and return, as fentry/fexit (each loaded for its function's BTF
 *       id) or as kprobe/kretprobe on the kprobe PMU; prints the banner,
 *       holds them until SIGINT, takes them off and exits.
 *
 * Output: one record a line, "<kind> key=value ...", for tests/bench/run.sh.
 * bpf_stats must be on (/proc/sys/kernel/bpf_stats_enabled) for run_* to move.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "ext4dist_abi.h"
#include "loader/attach/attach.h"
#include "loader/obj/bpf_sys.h"
#include "loader/obj/elf_obj.h"
#include "loader/kernel/kversion.h"
#include "loader/obj/obj_load.h"
#include "loader/kernel/cpus.h"
#include "loader/kernel/privileges.h"
#include "loader/btf/btf_kobj.h"
#include "tool/engine/fentry.h"
#include "tool/fs/fs.h"

#define BANNER "Tracing ext4 operation latency... Hit Ctrl-C to end."

/* ---- thin bpf() wrappers this tool needs (not in src/loader) ---- */

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	long r = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return r < 0 ? -errno : (int)r;
}

static int prog_next_id(uint32_t id, uint32_t *next)
{
	union bpf_attr a;
	int err;

	memset(&a, 0, sizeof(a));
	a.start_id = id;
	err = sys_bpf(BPF_PROG_GET_NEXT_ID, &a);
	if (!err)
		*next = a.next_id;
	return err;
}

static int prog_fd_by_id(uint32_t id)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	return sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
}

/* BPF_TASK_FD_QUERY (4.18): which program and probe a perf fd of pid holds. */
static int task_fd_query(int pid, int fd, uint32_t *prog_id, uint32_t *type,
			 char *buf, uint32_t len)
{
	union bpf_attr a;
	int err;

	memset(&a, 0, sizeof(a));
	a.task_fd_query.pid = (uint32_t)pid;
	a.task_fd_query.fd = (uint32_t)fd;
	a.task_fd_query.buf = (uint64_t)(uintptr_t)buf;
	a.task_fd_query.buf_len = len;
	err = sys_bpf(BPF_TASK_FD_QUERY, &a);
	if (!err) {
		*prog_id = a.task_fd_query.prog_id;
		*type = a.task_fd_query.fd_type;
	}
	return err;
}

/* ---- program statistics ---- */

struct pstat {
	uint32_t id;
	char name[BPF_OBJ_NAME_LEN + 1];
	char probe[300];		/* "kretprobe:ext4_file_read_iter" */
	unsigned long long run_cnt, run_time_ns;
	uint32_t xlated, jited;		/* bytes */
};

static int pstat_fd(int fd, struct pstat *s)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	int err;

	memset(&info, 0, sizeof(info));
	err = bpf_obj_info(fd, &info, &len);
	if (err)
		return err;
	s->id = info.id;
	memcpy(s->name, info.name, BPF_OBJ_NAME_LEN);
	s->name[BPF_OBJ_NAME_LEN] = '\0';
	if (!s->name[0])
		strcpy(s->name, "-");
	s->run_cnt = info.run_cnt;
	s->run_time_ns = info.run_time_ns;
	s->xlated = info.xlated_prog_len;
	s->jited = info.jited_prog_len;
	return 0;
}

/* Probe label of each program attached through pid's fds. */
struct attached {
	uint32_t prog_id;
	char probe[300];
};

/*
 * The "prog_id:" of /proc/pid/fdinfo/fd (a BPF program or link fd), else
 * 0; *btf_id the "target_btf_id:" of a tracing link (fentry/fexit: the
 * function's BTF id, 5.13+), else 0.
 */
static uint32_t fdinfo_prog_id(int pid, int fd, uint32_t *btf_id)
{
	char path[64], line[128];
	uint32_t id = 0;
	FILE *f;

	*btf_id = 0;
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "prog_id:", 8))
			id = (uint32_t)strtoul(line + 8, NULL, 10);
		if (!strncmp(line, "target_btf_id:", 14))
			*btf_id = (uint32_t)strtoul(line + 14, NULL, 10);
	}
	fclose(f);
	return id;
}

static size_t pid_probes(int pid, struct attached *out, size_t max)
{
	char dir[64], buf[256];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		uint32_t id, type, btf_id;
		const char *kind, *name;
		char *p;
		int fd = atoi(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		memset(buf, 0, sizeof(buf));
		if (task_fd_query(pid, fd, &id, &type, buf, sizeof(buf) - 1)) {
			/* kprobe_multi: the programs behind the links are
			 * among pid's prog fds ("prog_id:" in fdinfo);
			 * fentry/fexit: a tracing link's, with its target. */
			id = fdinfo_prog_id(pid, fd, &btf_id);
			if (!id)
				continue;
			out[n].prog_id = id;
			if (btf_id)
				snprintf(out[n].probe, sizeof(out[n].probe),
					 "fentry:btf%u:", btf_id);
			else
				strcpy(out[n].probe, "kprobe_multi:");
			n++;
			continue;
		}
		name = buf;
		switch (type) {
		case BPF_FD_TYPE_KPROBE: kind = "kprobe"; break;
		case BPF_FD_TYPE_KRETPROBE: kind = "kretprobe"; break;
		case BPF_FD_TYPE_TRACEPOINT:
			/* tracefs: "ext4dist_<pid>_<p|r>_<func>" */
			kind = "tracefs";
			p = strstr(buf, "_r_");
			if (p) {
				kind = "kretprobe";
				name = p + 3;
			} else if ((p = strstr(buf, "_p_"))) {
				kind = "kprobe";
				name = p + 3;
			}
			break;
		default: kind = "other"; break;
		}
		out[n].prog_id = id;
		snprintf(out[n].probe, sizeof(out[n].probe), "%s:%s", kind, name);
		n++;
	}
	closedir(d);
	return n;
}

/* All programs (pid 0) or those attached by pid, into s[]. */
static size_t collect(int pid, struct pstat *s, size_t max)
{
	struct attached att[64];
	size_t natt = 0, n = 0, i;
	uint32_t id = 0;

	if (pid)
		natt = pid_probes(pid, att, 64);
	while (n < max && !prog_next_id(id, &id)) {
		int fd = prog_fd_by_id(id);
		const char *probe = pid ? NULL : "-";

		if (fd < 0)
			continue;
		for (i = 0; i < natt; i++)
			if (att[i].prog_id == id)
				probe = att[i].probe;
		if (probe && !pstat_fd(fd, &s[n])) {
			/* "kprobe_multi:" or "fentry:btfN:" + the name. */
			snprintf(s[n].probe, sizeof(s[n].probe), "%s%s", probe,
				 strcmp(probe, "kprobe_multi:") &&
				 strncmp(probe, "fentry:", 7) ? "" : s[n].name);
			n++;
		}
		close(fd);
	}
	return n;
}

static void print_pstat(const char *kind, const char *tag,
			const struct pstat *s)
{
	printf("%s%s%s probe=%s name=%s id=%u run_cnt=%llu run_time_ns=%llu ns_per_run=%.1f xlated_insns=%u jited_bytes=%u\n",
	       kind, tag ? " mode=" : "", tag ? tag : "", s->probe, s->name,
	       s->id, s->run_cnt, s->run_time_ns,
	       s->run_cnt ? (double)s->run_time_ns / s->run_cnt : 0.0,
	       s->xlated / 8, s->jited);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmd_stats(int argc, char **argv)
{
	struct pstat s[256];
	int pid = 0;
	size_t n, i;

	if (argc >= 3 && !strcmp(argv[1], "--pid"))
		pid = atoi(argv[2]);
	n = collect(pid, s, 256);
	for (i = 0; i < n; i++)
		print_pstat("prog", NULL, &s[i]);
	return 0;
}

static pid_t spawn(char **argv, int out_fd)
{
	pid_t c = fork();

	if (c == 0) {
		if (out_fd >= 0) {
			dup2(out_fd, 1);
			close(out_fd);
		}
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	return c;
}

static int cmd_around(int argc, char **argv)
{
	struct pstat a[64], b[64];
	const char *tag = NULL;
	size_t na, nb, i, j;
	int pid = 0, st, k;
	pid_t c;

	for (k = 1; k < argc && strcmp(argv[k], "--"); k++) {
		if (!strcmp(argv[k], "--pid") && k + 1 < argc)
			pid = atoi(argv[++k]);
		else if (!strcmp(argv[k], "--tag") && k + 1 < argc)
			tag = argv[++k];
	}
	if (!pid || k + 1 >= argc) {
		fprintf(stderr, "usage: bench_probe around --pid PID [--tag T] -- CMD...\n");
		return 2;
	}
	na = collect(pid, a, 64);
	fflush(stdout);
	c = spawn(argv + k + 1, -1);
	if (c < 0 || waitpid(c, &st, 0) < 0)
		return 1;
	nb = collect(pid, b, 64);
	for (j = 0; j < nb; j++) {
		for (i = 0; i < na; i++)
			if (a[i].id == b[j].id) {
				b[j].run_cnt -= a[i].run_cnt;
				b[j].run_time_ns -= a[i].run_time_ns;
			}
		print_pstat("prog", tag, &b[j]);
	}
	if (!nb)
		printf("error what=no-programs-found pid=%d\n", pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* ---- start-up ---- */

static long status_kb(int pid, const char *field)
{
	char path[64], line[256];
	size_t fl = strlen(field);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, fl) && line[fl] == ':')
			v = atol(line + fl + 1);
	fclose(f);
	return v;
}

/*
 * The ns pid has run so far, kernel and user (schedstat's first field,
 * the scheduler's sum_exec_runtime): under qemu -icount its own guest
 * instructions, without idle time and other tasks' work.  -1 without it.
 */
static double run_ns(int pid)
{
	char path[64];
	unsigned long long ns;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &ns) == 1;
	fclose(f);
	return ok ? (double)ns : -1;
}

static long read_long_file(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* A counter of raw_syscalls:sys_enter on pid, enabled at its exec. */
static int syscall_counter(pid_t pid)
{
	static const char *const ids[] = {
		"/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
		"/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id",
	};
	struct perf_event_attr at;
	long id = -1;
	size_t i;

	for (i = 0; i < 2 && id < 0; i++)
		id = read_long_file(ids[i]);
	if (id < 0)
		return -1;
	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_TRACEPOINT;
	at.config = (uint64_t)id;
	at.disabled = 1;
	at.enable_on_exec = 1;
	at.inherit = 1;
	return (int)syscall(__NR_perf_event_open, &at, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static long long counter_read(int fd)
{
	unsigned long long v;

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return (long long)v;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Rss from smaps_rollup: a page-table walk, exact even where VmHWM lags;
 * before 4.14 (no smaps_rollup) the sum of the mappings' Rss in smaps.
 */
static long smaps_rss_kb(int pid)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;
	int rollup = 1;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	f = fopen(path, "r");
	if (!f) {
		rollup = 0;
		snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
		f = fopen(path, "r");
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Rss:", 4))
			v = rollup ? atol(line + 4) :
				     (v < 0 ? 0 : v) + atol(line + 4);
	fclose(f);
	return v;
}

static const char *touch_file;

/* One open + 4 KiB read + close of touch_file: something to report. */
static void touch(void)
{
	char buf[4096];
	int fd;

	if (!touch_file)
		return;
	fd = open(touch_file, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			perror(touch_file);
		close(fd);
	}
}

/*
 * fork()s a child that waits on a pipe before exec'ing argv, its stdout
 * on *out_fd (stderr to /dev/null), so the parent can open counters on it
 * first; *go_fd starts it (write one byte).  Returns the pid, -1 on error.
 */
static pid_t spawn_gated(char **argv, int *out_fd, int *go_fd)
{
	int out[2], go[2];
	pid_t c;

	if (pipe(out))
		return -1;
	if (pipe(go)) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	c = fork();
	if (c == 0) {
		char x;
		int dn = open("/dev/null", O_WRONLY);

		close(out[0]);
		close(go[1]);
		dup2(out[1], 1);
		close(out[1]);
		dup2(dn, 2);
		if (read(go[0], &x, 1) != 1)
			_exit(126);
		close(go[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(go[0]);
	*out_fd = out[0];
	*go_fd = go[1];
	return c;
}

/* The line start-up waits for: ext4dist's banner unless --banner. */
static const char *banner_line = BANNER;
/* How long after it the steady RSS is read (--settle, ms). */
static unsigned int settle_ms = 20;

/*
 * The child's resident set, sampled every millisecond of guest time while
 * start-up and exit wait on it (sample_pid > 0): the largest Rss of its
 * smaps_rollup, a walk of its page tables, exact where the kernel's
 * high-water marks move in steps (on 6.2+ they are per-CPU counters
 * folded 32 pages at a time: 128 KiB on one CPU).  Samples of the child
 * before its exec (bench_probe's own image) are not taken.
 */
static pid_t sample_pid;
static long sample_peak;

static void sample(void)
{
	char path[64], exe[256], self[256];
	ssize_t n, m;
	long v;

	if (sample_pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)sample_pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	m = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || (m == n && !memcmp(exe, self, (size_t)n)))
		return;
	v = smaps_rss_kb(sample_pid);
	if (v > sample_peak)
		sample_peak = v;
}

/* read() of fd that samples the child while it waits. */
static ssize_t read_sampling(int fd, char *buf, size_t len)
{
	struct pollfd pfd = { fd, POLLIN, 0 };

	while (sample_pid > 0) {
		sample();
		if (poll(&pfd, 1, 1) != 0)
			break;
	}
	return read(fd, buf, len);
}

/* Reads fd until a whole line equals the banner: 1, or 0 at its end. */
static int read_to_banner(int fd)
{
	char buf[4096], line[512];
	size_t ll = 0;
	ssize_t r, i;

	while ((r = read_sampling(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < r; i++) {
			if (buf[i] != '\n') {
				if (ll < sizeof(line) - 1)
					line[ll++] = buf[i];
				continue;
			}
			line[ll] = '\0';
			ll = 0;
			if (!strcmp(line, banner_line))
				return 1;
		}
	}
	return 0;
}

static int startup_once(char **argv, const char *tag, int run, double *ban,
			double *ex, double *out_ms, double *hwm, double *rss,
			double *sc1, double *sc2, double *own)
{
	int out, go, cfd, st, found;
	char buf[4096];
	double t0, tb = 0, ti, te;
	long long c1 = -1, c2 = -1;
	long vmhwm = -1, srss = -1;
	double tout = -1, on = -1;
	struct rusage ru;
	ssize_t r;
	pid_t c;

	c = spawn_gated(argv, &out, &go);
	if (c < 0)
		return -1;
	cfd = syscall_counter(c);
	sample_pid = c;
	sample_peak = -1;
	t0 = now_ns();
	if (write(go, "x", 1) != 1)
		return -1;
	close(go);
	found = read_to_banner(out);
	if (found) {
		tb = now_ns();
		on = run_ns(c);
		c1 = counter_read(cfd);
		touch();
		usleep(settle_ms * 1000);
		vmhwm = status_kb(c, "VmHWM");
		srss = smaps_rss_kb(c);
	}
	ti = now_ns();
	kill(c, SIGINT);
	while ((r = read_sampling(out, buf, sizeof(buf))) > 0)
		if (tout < 0)
			tout = now_ns();
	sample_pid = 0;
	if (wait4(c, &st, 0, &ru) < 0)
		return -1;
	te = now_ns();
	c2 = counter_read(cfd);
	if (cfd >= 0)
		close(cfd);
	close(out);
	printf("startup_run mode=%s run=%d banner=%d banner_ms=%.2f output_ms=%.2f exit_ms=%.2f vmhwm_kb=%ld smaps_rss_kb=%ld maxrss_kb=%ld sampled_peak_kb=%ld syscalls_to_banner=%lld syscalls_total=%lld status=%d own_ms=%.3f\n",
	       tag, run, found, found ? (tb - t0) / 1e6 : -1,
	       tout < 0 ? -1 : (tout - ti) / 1e6, (te - ti) / 1e6,
	       vmhwm, srss, ru.ru_maxrss, sample_peak, c1, c2,
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
	       on < 0 ? -1 : on / 1e6);
	fflush(stdout);
	if (!found)
		return -1;
	*ban = (tb - t0) / 1e6;
	*ex = (te - ti) / 1e6;
	*out_ms = tout < 0 ? -1 : (tout - ti) / 1e6;
	*hwm = (double)(vmhwm > srss ? vmhwm : srss);
	if (sample_peak > *hwm)
		*hwm = (double)sample_peak;
	*rss = (double)ru.ru_maxrss;
	*sc1 = (double)c1;
	*sc2 = (double)c2;
	*own = on < 0 ? -1 : on / 1e6;
	return 0;
}

static int cmd_startup(int argc, char **argv)
{
	double ban[64], ex[64], om[64], hwm[64], rss[64], sc1[64], sc2[64];
	double own[64];
	const char *tag = "default";
	int runs = 5, k, i, ok = 0;

	for (k = 1; k < argc && strcmp(argv[k], "--"); k++) {
		if (!strcmp(argv[k], "--runs") && k + 1 < argc)
			runs = atoi(argv[++k]);
		else if (!strcmp(argv[k], "--tag") && k + 1 < argc)
			tag = argv[++k];
		else if (!strcmp(argv[k], "--touch") && k + 1 < argc)
			touch_file = argv[++k];
		else if (!strcmp(argv[k], "--banner") && k + 1 < argc)
			banner_line = argv[++k];
		else if (!strcmp(argv[k], "--settle") && k + 1 < argc)
			settle_ms = (unsigned int)atoi(argv[++k]);
	}
	if (k + 1 >= argc || runs < 1 || runs > 64) {
		fprintf(stderr, "usage: bench_probe startup [--runs N] [--tag T] [--touch FILE] [--banner LINE] [--settle MS] -- CMD...\n");
		return 2;
	}
	for (i = 0; i < runs; i++)
		if (!startup_once(argv + k + 1, tag, i, &ban[ok], &ex[ok],
				  &om[ok], &hwm[ok], &rss[ok], &sc1[ok], &sc2[ok],
				  &own[ok]))
			ok++;
	if (!ok) {
		printf("error what=startup-failed mode=%s\n", tag);
		return 1;
	}
	/* Peaks: the largest of the runs; times and counts: the medians. */
	{
		double mb = median(ban, ok), me = median(ex, ok);
		double mo = median(om, ok);
		double m1 = median(sc1, ok), m2 = median(sc2, ok);
		double mw = median(own, ok);

		qsort(hwm, (size_t)ok, sizeof(double), cmp_dbl);
		qsort(rss, (size_t)ok, sizeof(double), cmp_dbl);
		printf("startup mode=%s runs=%d banner_ms=%.2f banner_ms_min=%.2f output_ms=%.2f exit_ms=%.2f exit_ms_min=%.2f rss_kb=%.0f maxrss_kb=%.0f syscalls_to_banner=%.0f syscalls_total=%.0f own_ms=%.3f own_ms_min=%.3f\n",
		       tag, ok, mb, ban[0], mo, me, ex[0], hwm[ok - 1],
		       rss[ok - 1], m1, m2, mw, own[0]);
	}
	return 0;
}

/*
 * maxrss [--tag T] -- CMD...: runs CMD to its end (stdout to /dev/null)
 * and prints its peak RSS as the kernel kept it (wait4's ru_maxrss: the
 * high-water mark, synced at exit) and its exit status.
 */
static int cmd_maxrss(int argc, char **argv)
{
	const char *tag = "-";
	struct rusage ru;
	int k, st, dn;
	pid_t c;

	for (k = 1; k < argc && strcmp(argv[k], "--"); k++)
		if (!strcmp(argv[k], "--tag") && k + 1 < argc)
			tag = argv[++k];
	if (k + 1 >= argc) {
		fprintf(stderr, "usage: bench_probe maxrss [--tag T] -- CMD...\n");
		return 2;
	}
	dn = open("/dev/null", O_WRONLY);
	c = spawn(argv + k + 1, dn);
	if (dn >= 0)
		close(dn);
	if (c < 0)
		return 1;
	sample_pid = c;
	sample_peak = -1;
	for (;;) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)c, &si, WEXITED | WNOHANG | WNOWAIT) ||
		    si.si_pid)
			break;
		sample();
		usleep(1000);
	}
	sample_pid = 0;
	if (wait4(c, &st, 0, &ru) < 0)
		return 1;
	printf("maxrss mode=%s maxrss_kb=%ld sampled_peak_kb=%ld status=%d\n",
	       tag, ru.ru_maxrss, sample_peak,
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

/* ---- profile: where the kernel spends a child's start-up and exit ---- */

/* One kernel symbol of /proc/kallsyms. */
struct ksym {
	unsigned long long addr;
	char *name;
};

static struct ksym *ksyms;
static size_t nksyms;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int ksyms_load(void)
{
	char line[512], name[256], type;
	unsigned long long addr;
	size_t cap = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'W' && type != 'w')
			continue;
		if (nksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			if (!ksyms)
				return -1;
		}
		ksyms[nksyms].addr = addr;
		ksyms[nksyms].name = strdup(name);
		nksyms++;
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
	return 0;
}

/* Index of the symbol containing addr, or -1. */
static long ksym_find(unsigned long long addr)
{
	size_t lo = 0, hi = nksyms;

	if (!nksyms || addr < ksyms[0].addr)
		return -1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

#define PROF_PAGES 2048	/* 8 MiB of ring buffer: no sample is lost */
#define PROF_MAX_DEPTH 128

struct prof {
	int fd;
	void *ring;
	size_t page;
	unsigned long long samples, lost, user;
	unsigned long long *self, *incl;	/* per ksym */
	const char *uip_tag, *phase;	/* uip_tag: print user sample addresses */
};

static int prof_open(struct prof *p, pid_t pid, unsigned long long period)
{
	struct perf_event_attr at;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_SOFTWARE;
	at.config = PERF_COUNT_SW_TASK_CLOCK;
	at.sample_period = period;
	at.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	at.disabled = 1;
	at.enable_on_exec = 1;
	at.exclude_callchain_user = 1;
	p->fd = (int)syscall(__NR_perf_event_open, &at, pid, -1, -1,
			     PERF_FLAG_FD_CLOEXEC);
	if (p->fd < 0)
		return -1;
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	p->ring = mmap(NULL, p->page * (PROF_PAGES + 1), PROT_READ | PROT_WRITE,
		       MAP_SHARED, p->fd, 0);
	if (p->ring == MAP_FAILED)
		return -1;
	p->self = calloc(nksyms + 1, sizeof(*p->self));
	p->incl = calloc(nksyms + 1, sizeof(*p->incl));
	return p->self && p->incl ? 0 : -1;
}

/* Reads every sample in the ring into the per-symbol counts. */
static void prof_drain(struct prof *p)
{
	struct perf_event_mmap_page *mp = p->ring;
	unsigned char *data = (unsigned char *)p->ring + p->page;
	size_t size = p->page * PROF_PAGES;
	unsigned long long head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	unsigned long long tail = mp->data_tail;
	unsigned char rec[16384];

	while (tail < head) {
		struct perf_event_header h;
		size_t i, off;

		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		for (off = 0; off < h.size; off++)
			rec[off] = data[(tail + off) % size];
		tail += h.size;
		if (h.type == PERF_RECORD_LOST) {
			p->lost += ((unsigned long long *)(rec + sizeof(h)))[1];
			continue;
		}
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		{
			unsigned long long *u = (unsigned long long *)(rec + sizeof(h));
			unsigned long long ip = u[0], nr = u[1];
			long seen[PROF_MAX_DEPTH];
			size_t ns = 0, k, j;
			long s;

			p->samples++;
			s = ksym_find(ip);
			/* The header's mode, not the address: 32-bit ARM's kernel is at 0xc0000000. */
			if ((h.misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
			    PERF_RECORD_MISC_KERNEL || s < 0) {
				if (p->uip_tag && (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				    PERF_RECORD_MISC_USER)
					printf("profile_uip mode=%s phase=%s ip=0x%llx\n",
					       p->uip_tag, p->phase, ip);
				p->user++;
				continue;
			}
			p->self[s]++;
			for (k = 0; k < nr && ns < PROF_MAX_DEPTH; k++) {
				unsigned long long a = u[2 + k];

				if (a >= (unsigned long long)PERF_CONTEXT_MAX)
					continue;	/* context markers */
				s = ksym_find(a);
				if (s < 0)
					continue;
				for (j = 0; j < ns && seen[j] != s; j++)
					;
				if (j == ns)
					seen[ns++] = s;
			}
			for (j = 0; j < ns; j++)
				p->incl[seen[j]]++;
		}
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static void prof_print(struct prof *p, const char *tag, const char *phase,
		       unsigned long long period, int top)
{
	int pass, n;

	printf("profile mode=%s phase=%s period=%llu samples=%llu user=%llu lost=%llu\n",
	       tag, phase, period, p->samples, p->user, p->lost);
	for (pass = 0; pass < 2; pass++) {
		unsigned long long *c = pass ? p->incl : p->self;

		for (n = 0; n < top; n++) {
			size_t i, best = nksyms;

			for (i = 0; i < nksyms; i++)
				if (c[i] && (best == nksyms || c[i] > c[best]))
					best = i;
			if (best == nksyms)
				break;
			printf("profile_sym mode=%s phase=%s kind=%s sym=%s samples=%llu pct=%.1f\n",
			       tag, phase, pass ? "incl" : "self", ksyms[best].name,
			       c[best], 100.0 * c[best] / (p->samples ? p->samples : 1));
			c[best] = 0;
		}
	}
	memset(p->self, 0, (nksyms + 1) * sizeof(*p->self));
	memset(p->incl, 0, (nksyms + 1) * sizeof(*p->incl));
	p->samples = p->user = p->lost = 0;
}

/*
 * bench_probe profile [--period NS] [--top N] [--tag T] [--touch F] -- CMD:
 * samples CMD's task clock (kernel and user) with call chains from exec to
 * the banner, then from SIGINT to its exit; prints the top symbols by self
 * and by inclusive samples.  Under qemu -icount a task-clock ns is a guest
 * instruction, so the profile is deterministic.
 */
static int cmd_profile(int argc, char **argv)
{
	unsigned long long period = 20000;
	const char *tag = "default";
	int out, go, k, top = 30, found, st;
	struct prof p;
	char buf[4096];
	pid_t c;

	memset(&p, 0, sizeof(p));
	for (k = 1; k < argc && strcmp(argv[k], "--"); k++) {
		if (!strcmp(argv[k], "--period") && k + 1 < argc)
			period = strtoull(argv[++k], NULL, 10);
		else if (!strcmp(argv[k], "--top") && k + 1 < argc)
			top = atoi(argv[++k]);
		else if (!strcmp(argv[k], "--tag") && k + 1 < argc)
			tag = argv[++k];
		else if (!strcmp(argv[k], "--touch") && k + 1 < argc)
			touch_file = argv[++k];
		else if (!strcmp(argv[k], "--user-ips"))
			p.uip_tag = "";
	}
	if (k + 1 >= argc || !period) {
		fprintf(stderr, "usage: bench_probe profile [--period NS] [--top N] [--tag T] [--touch F] [--user-ips] -- CMD...\n");
		return 2;
	}
	if (ksyms_load()) {
		printf("error what=kallsyms\n");
		return 1;
	}
	if (p.uip_tag)
		p.uip_tag = tag;
	p.phase = "start";
	c = spawn_gated(argv + k + 1, &out, &go);
	if (c < 0)
		return 1;
	if (prof_open(&p, c, period)) {
		printf("error what=perf-open errno=%d\n", errno);
		kill(c, SIGKILL);
		waitpid(c, &st, 0);
		return 1;
	}
	if (write(go, "x", 1) != 1)
		return 1;
	close(go);
	found = read_to_banner(out);
	ioctl(p.fd, PERF_EVENT_IOC_DISABLE, 0);
	prof_drain(&p);
	prof_print(&p, tag, "start", period, top);
	touch();
	ioctl(p.fd, PERF_EVENT_IOC_ENABLE, 0);
	kill(c, SIGINT);
	while (read(out, buf, sizeof(buf)) > 0)
		;
	waitpid(c, &st, 0);
	p.phase = "exit";
	prof_drain(&p);
	prof_print(&p, tag, "exit", period, top);
	close(p.fd);
	close(out);
	return found ? 0 : 1;
}

/* ---- variants ---- */

#define MAX_ROUNDS 16
static const char *const variant_names[] = {
	"null", "bcc", "pcpu", "array", "pcpu_na", "tidarr",
};
#define NR_VARIANTS (sizeof(variant_names) / sizeof(variant_names[0]))

struct vres {
	struct obj_prog *e, *r;
	unsigned long long e_cnt, r_cnt;
	double e_run[MAX_ROUNDS], r_run[MAX_ROUNDS];	/* ns per run */
	double pread_ns[MAX_ROUNDS];
	double load_ms, attach_ms[MAX_ROUNDS], detach_ms[MAX_ROUNDS];
};

static double pread_loop(int fd, long iters)
{
	char buf[4096];
	double t0 = now_ns();
	long i;

	for (i = 0; i < iters; i++)
		if (pread(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf)) {
			perror("pread");
			exit(1);
		}
	return (now_ns() - t0) / (double)iters;
}

static void *read_file(const char *path, size_t *size)
{
	struct stat sb;
	void *p;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &sb))
		return NULL;
	p = malloc((size_t)sb.st_size);
	if (p && read(fd, p, (size_t)sb.st_size) != sb.st_size) {
		free(p);
		p = NULL;
	}
	close(fd);
	*size = (size_t)sb.st_size;
	return p;
}

/* Events counted in a variant's histogram (slot sums, all CPUs). */
static long long variant_events(struct bpf_obj *obj, const char *v, int ncpus)
{
	char name[64];
	struct obj_map *m;
	long long total = 0;

	if (!strcmp(v, "null"))
		return -1;
	if (!strcmp(v, "bcc")) {
		unsigned char key[24], next[24];
		unsigned long long val;
		void *prev = NULL;

		m = bpf_obj_find_map(obj, "dist_bcc");
		if (!m)
			return -1;
		while (!bpf_map_next_key(m->fd, prev, next)) {
			if (!bpf_map_lookup(m->fd, next, &val))
				total += (long long)val;
			memcpy(key, next, sizeof(key));
			prev = key;
		}
		return total;
	}
	snprintf(name, sizeof(name), "hist_%s", v);
	m = bpf_obj_find_map(obj, name);
	if (!m)
		return -1;
	{
		int n = m->def.type == BPF_MAP_TYPE_PERCPU_ARRAY ? ncpus : 1, c, s;
		struct op_hist *h = calloc((size_t)n, sizeof(*h));
		uint32_t key = OP_READ;

		if (!h || bpf_map_lookup(m->fd, &key, h)) {
			free(h);
			return -1;
		}
		for (c = 0; c < n; c++)
			for (s = 0; s < NR_SLOTS; s++)
				total += (long long)h[c].slots[s];
		free(h);
	}
	return total;
}

static int cmd_variants(int argc, char **argv)
{
	struct vres res[NR_VARIANTS];
	double untraced[MAX_ROUNDS];
	struct obj_load_opts lo = { 0 };
	struct obj_load_state st = { 0 };
	struct bpf_obj obj;
	struct attach_ctx actx;
	const struct attach_ops *ops;
	struct errbuf eb = { "" };
	const char *src;
	unsigned int code = 0;
	long iters;
	int rounds, fd, round, ncpus;
	size_t size, v;
	void *data;
	char buf[4096];

	if (argc != 5) {
		fprintf(stderr, "usage: bench_probe variants OBJ FILE ITERS ROUNDS\n");
		return 2;
	}
	iters = atol(argv[3]);
	rounds = atoi(argv[4]);
	if (iters < 1 || rounds < 1 || rounds > MAX_ROUNDS)
		return 2;
	data = read_file(argv[1], &size);
	if (!data || bpf_obj_parse(data, size, &obj, &eb)) {
		printf("error what=variants-parse msg=\"%s\"\n", eb.msg);
		return 1;
	}
	free(data);
	kversion_running(&code, &src);
	lo.kern_version = code;
	bpf_obj_patch_imm64(&obj, PATCH_TGID, 0);
	bpf_obj_patch_imm64(&obj, PATCH_FACTOR, 1000);
	privileges_raise_memlock();
	ncpus = cpus_possible();
	if (bpf_obj_create_maps(&obj, &lo, &st, &eb)) {
		printf("error what=variants-maps msg=\"%s\"\n", eb.msg);
		return 1;
	}
	memset(res, 0, sizeof(res));
	for (v = 0; v < NR_VARIANTS; v++) {
		res[v].e = bpf_obj_find_prog(&obj, PROBE_ENTRY, "ext4_file_read_iter",
					     variant_names[v]);
		res[v].r = bpf_obj_find_prog(&obj, PROBE_RETURN, "ext4_file_read_iter",
					     variant_names[v]);
		double t0 = now_ns();

		if (!res[v].e || !res[v].r ||
		    bpf_obj_load_prog(&obj, res[v].e, &lo, &st, &eb) ||
		    bpf_obj_load_prog(&obj, res[v].r, &lo, &st, &eb) ||
		    (res[v].load_ms = (now_ns() - t0) / 1e6) < 0) {
			printf("error what=variants-load variant=%s msg=\"%s\"\n",
			       variant_names[v], eb.msg);
			if (st.verifier_log)
				fprintf(stderr, "%s\n", st.verifier_log);
			return 1;
		}
	}
	/* The designs are compared on the kprobe PMU, else on tracefs. */
	attach_ctx_init(&actx, "ext4bench", NULL, NULL);
	if (attach_probe_pmu(&actx, &eb) == 0)
		ops = &attach_pmu_ops;
	else if (attach_probe_tracefs(&actx, 1, &eb) == 0)
		ops = &attach_tracefs_ops;
	else {
		printf("error what=variants-attach msg=\"%s\"\n", eb.msg);
		return 1;
	}
	fd = open(argv[2], O_RDWR | O_CREAT, 0644);
	memset(buf, 'x', sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf)) {
		perror(argv[2]);
		return 1;
	}
	fsync(fd);
	pread_loop(fd, iters / 10 + 1);		/* warm the page cache */

	for (round = 0; round < rounds; round++) {
		untraced[round] = pread_loop(fd, iters);
		for (size_t k = 0; k < NR_VARIANTS; k++) {
			/* Rotate the order: drift spreads over all variants. */
			struct vres *x = &res[(k + (size_t)round) % NR_VARIANTS];
			struct probe_spec sr = { .kind = PROBE_RETURN,
						 .func = "ext4_file_read_iter",
						 .prog_fd = x->r->fd };
			struct probe_spec se = { .kind = PROBE_ENTRY,
						 .func = "ext4_file_read_iter",
						 .prog_fd = x->e->fd };
			struct probe_link lr = { .perf_fd = -1 }, le = { .perf_fd = -1 };
			struct pstat e0, e1, r0, r1;
			double t0 = now_ns();

			if (ops->attach(&actx, &sr, &lr, &eb) ||
			    ops->attach(&actx, &se, &le, &eb)) {
				printf("error what=variants-attach msg=\"%s\"\n", eb.msg);
				return 1;
			}
			x->attach_ms[round] = (now_ns() - t0) / 1e6;
			pstat_fd(x->e->fd, &e0);
			pstat_fd(x->r->fd, &r0);
			x->pread_ns[round] = pread_loop(fd, iters);
			pstat_fd(x->e->fd, &e1);
			pstat_fd(x->r->fd, &r1);
			t0 = now_ns();
			probe_detach(&actx, &le);
			probe_detach(&actx, &lr);
			x->detach_ms[round] = (now_ns() - t0) / 1e6;
			x->e_cnt += e1.run_cnt - e0.run_cnt;
			x->r_cnt += r1.run_cnt - r0.run_cnt;
			x->e_run[round] = e1.run_cnt == e0.run_cnt ? 0 :
				(double)(e1.run_time_ns - e0.run_time_ns) /
				(double)(e1.run_cnt - e0.run_cnt);
			x->r_run[round] = r1.run_cnt == r0.run_cnt ? 0 :
				(double)(r1.run_time_ns - r0.run_time_ns) /
				(double)(r1.run_cnt - r0.run_cnt);
		}
	}
	{
		double u = median(untraced, rounds);

		printf("variant name=untraced pread_ns=%.1f ratio=1.000 rounds=%d iters=%ld attach=%s\n",
		       u, rounds, iters, ops->name);
		for (v = 0; v < NR_VARIANTS; v++) {
			struct vres *x = &res[v];
			struct pstat e, r;
			double tot[MAX_ROUNDS], tmin = -1, tn;
			int k;

			/* Per round entry + return; then medians over rounds
			 * (median() sorts, so the sums come first). */
			for (k = 0; k < rounds; k++) {
				tot[k] = x->e_run[k] + x->r_run[k];
				if (tmin < 0 || tot[k] < tmin)
					tmin = tot[k];
			}
			tn = median(tot, rounds);
			double en = median(x->e_run, rounds);
			double rn = median(x->r_run, rounds);
			double p = median(x->pread_ns, rounds);
			double am = median(x->attach_ms, rounds);
			double dm = median(x->detach_ms, rounds);

			pstat_fd(x->e->fd, &e);
			pstat_fd(x->r->fd, &r);
			printf("variant name=%s entry_ns=%.1f return_ns=%.1f total_ns=%.1f total_min_ns=%.1f entry_runs=%llu return_runs=%llu pread_ns=%.1f ratio=%.3f events=%lld entry_insns=%u entry_jited=%u return_insns=%u return_jited=%u load_pair_ms=%.2f attach_pair_ms=%.2f detach_pair_ms=%.2f\n",
			       variant_names[v], en, rn, tn, tmin, x->e_cnt,
			       x->r_cnt, p, p / u,
			       variant_events(&obj, variant_names[v], ncpus),
			       e.xlated / 8, e.jited, r.xlated / 8, r.jited,
			       x->load_ms, am, dm);
		}
	}
	close(fd);
	unlink(argv[2]);
	attach_ctx_release(&actx);
	obj_load_state_free(&st);
	bpf_obj_free(&obj);
	return 0;
}

/* ---- hold: the empty programs on every traced function ---- */

#define HOLD_OPS ((1u << OP_READ) | (1u << OP_WRITE) | (1u << OP_OPEN) | \
		  (1u << OP_FSYNC))

static volatile sig_atomic_t hold_stop;

static void on_hold_sig(int sig)
{
	(void)sig;
	hold_stop = 1;
}

/*
 * The empty program of kind for fs_ext4's op (an fentry or fexit program
 * loaded for the function's BTF id, else the one kprobe program), its fd.
 */
static int hold_load(struct bpf_obj *obj, enum probe_kind kind, int tracing,
		     const char *variant, const struct fentry_ids *ids,
		     int btf_obj_fd, unsigned int op,
		     const struct obj_load_opts *lo,
		     struct obj_load_state *st, struct errbuf *eb)
{
	struct obj_prog *p = tracing ?
		bpf_obj_find_tracing(obj, kind, "ext4_file_read_iter", variant) :
		bpf_obj_find_prog(obj, kind, "ext4_file_read_iter", variant);
	int fd;

	if (!p)
		return errbuf_set(eb, -ENOENT, "no %s %s program in the object",
				  variant, kind == PROBE_RETURN ? "return" : "entry");
	if (!tracing && p->fd >= 0)
		return p->fd;
	if (tracing) {
		p->attach_btf_id = ids->id[op];
		p->attach_btf_obj_fd = ids->in_module ? btf_obj_fd : 0;
	}
	if (bpf_obj_load_prog(obj, p, lo, st, eb))
		return -1;
	fd = p->fd;
	if (tracing)
		p->fd = -1;	/* the next function's is loaded anew */
	return fd;
}

static int cmd_hold(int argc, char **argv)
{
	struct obj_load_opts lo = { 0 };
	struct obj_load_state st = { 0 };
	struct probe_link links[2 * NR_OPS];
	int fds[2 * NR_OPS];
	struct errbuf eb = { "" };
	struct fentry_ids ids;
	struct attach_ctx actx;
	const struct attach_ops *ops;
	struct sigaction sa;
	struct bpf_obj obj;
	const char *src;
	unsigned int code = 0, op;
	int tracing, btf_obj_fd = -1, n = 0, nfds = 0, rc = 1, k;
	const char *variant = argc == 4 ? argv[3] : "null";
	size_t size;
	void *data;

	if (argc < 3 || argc > 4 ||
	    (strcmp(argv[2], "fentry") && strcmp(argv[2], "pmu"))) {
		fprintf(stderr, "usage: bench_probe hold OBJ fentry|pmu [VARIANT]\n");
		return 2;
	}
	tracing = !strcmp(argv[2], "fentry");
	data = read_file(argv[1], &size);
	if (!data || bpf_obj_parse(data, size, &obj, &eb)) {
		fprintf(stderr, "bench_probe hold: %s: %s\n", argv[1],
			data ? eb.msg : strerror(errno));
		free(data);
		return 1;
	}
	free(data);
	kversion_running(&code, &src);
	lo.kern_version = code;
	privileges_raise_memlock();
	attach_ctx_init(&actx, "ext4hold", NULL, NULL);
	if (bpf_obj_create_maps(&obj, &lo, &st, &eb))
		goto out;
	if (tracing) {
		ops = &attach_tracing_ops;
		if (fentry_resolve(&fs_ext4, HOLD_OPS, 0, NULL, NULL, &ids, &eb))
			goto out;
		if (ids.in_module) {
			btf_obj_fd = btf_kobj_fd(fs_ext4.module, &eb);
			if (btf_obj_fd < 0)
				goto out;
		}
	} else {
		ops = &attach_pmu_ops;
		if (attach_probe_pmu(&actx, &eb))
			goto out;
	}
	for (op = 0; op < NR_OPS; op++) {
		if (!(HOLD_OPS & (1u << op)))
			continue;
		for (k = 0; k < 2; k++) {
			enum probe_kind kind = k ? PROBE_ENTRY : PROBE_RETURN;
			struct probe_spec spec = { .kind = kind,
						   .func = fs_ext4.ops[op].func };
			int fd = hold_load(&obj, kind, tracing, variant, &ids,
					   btf_obj_fd, op, &lo, &st, &eb);

			if (fd < 0)
				goto out;
			if (tracing)
				fds[nfds++] = fd;
			spec.prog_fd = fd;
			links[n].perf_fd = -1;
			if (ops->attach(&actx, &spec, &links[n], &eb))
				goto out;
			n++;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_hold_sig;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("%s\n", BANNER);
	fflush(stdout);
	while (!hold_stop)
		pause();
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "bench_probe hold %s: %s\n", argv[2], eb.msg);
	while (n > 0)
		probe_detach(&actx, &links[--n]);
	while (nfds > 0)
		close(fds[--nfds]);
	if (btf_obj_fd >= 0)
		close(btf_obj_fd);
	attach_ctx_release(&actx);
	obj_load_state_free(&st);
	bpf_obj_free(&obj);
	return rc;
}

static void on_sig(int sig)
{
	(void)sig;
}

/* The cost of exec alone: a static program that prints the banner. */
static int cmd_banner(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGINT, &sa, NULL);
	printf("%s\n", BANNER);
	fflush(stdout);
	pause();
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "banner"))
		return cmd_banner();
	if (argc >= 2 && !strcmp(argv[1], "stats"))
		return cmd_stats(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "around"))
		return cmd_around(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "startup"))
		return cmd_startup(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "profile"))
		return cmd_profile(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "variants"))
		return cmd_variants(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "hold"))
		return cmd_hold(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "maxrss"))
		return cmd_maxrss(argc - 1, argv + 1);
	fprintf(stderr, "usage: bench_probe stats|around|startup|profile|variants|hold|maxrss ... (see the source)\n");
	return 2;
}
