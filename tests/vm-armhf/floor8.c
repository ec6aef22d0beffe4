// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own floor for ext4dist's start-up: the same 8 probes
 * (entry and return of the 4 default functions) through the perf kprobe
 * PMU, without any BPF: open them, print ext4dist's banner, wait for
 * SIGINT, close them.  Static: arm-linux-gnueabihf-gcc -static -O2.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

static const char *const funcs[] = {
	"ext4_file_read_iter", "ext4_file_write_iter", "ext4_file_open",
	"ext4_sync_file",
};

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

int main(void)
{
	int type, fds[8], n = 0, sig;
	unsigned int i, ret;
	sigset_t set;

	if (read_int("/sys/bus/event_source/devices/kprobe/type", &type)) {
		fprintf(stderr, "floor8: no kprobe PMU\n");
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* Return probes first, as ext4dist attaches them. */
	for (i = 0; i < 4; i++) {
		for (ret = 2; ret-- > 0;) {
			struct perf_event_attr a;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = (uint32_t)type;
			a.config = ret;	/* bit 0: retprobe (format/retprobe) */
			a.config1 = (uint64_t)(uintptr_t)funcs[i];
			fds[n] = (int)syscall(__NR_perf_event_open, &a, -1, 0, -1,
					      PERF_FLAG_FD_CLOEXEC);
			if (fds[n] < 0) {
				perror("floor8: perf_event_open");
				return 1;
			}
			ioctl(fds[n++], PERF_EVENT_IOC_ENABLE, 0);
		}
	}
	printf("Tracing ext4 operation latency... Hit Ctrl-C to end.\n");
	fflush(stdout);
	sigwait(&set, &sig);
	while (n > 0)
		close(fds[--n]);
	return 0;
}
