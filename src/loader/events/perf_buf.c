// SPDX-License-Identifier: GPL-2.0
#include "loader/events/perf_buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "loader/kernel/cpus.h"
#include "loader/obj/bpf_sys.h"
#include "loader/util/vlog.h"

/* One BPF output event on cpu, for every process: its fd or -errno. */
static int open_output_event(unsigned int cpu)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	/* A wake-up per record: an event is printed as it happens. */
	attr.wakeup_events = 1;
	fd = syscall(__NR_perf_event_open, &attr, -1, (int)cpu, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static int open_cpu(struct perf_buf *pb, struct perf_buf_cpu *c,
		    unsigned int cpu, int map_fd, size_t page,
		    struct errbuf *eb)
{
	unsigned int key = cpu;
	int err;

	c->cpu = cpu;
	c->base = MAP_FAILED;
	c->fd = open_output_event(cpu);
	if (errbuf_nofile(eb, c->fd,
			  "cannot open the BPF output perf event of CPU %u", cpu))
		return c->fd;
	if (c->fd < 0)
		return errbuf_set(eb, c->fd,
				  "cannot open the BPF output perf event of CPU %u: %s (PERF_COUNT_SW_BPF_OUTPUT needs 4.4+)",
				  cpu, strerror(-c->fd));
	c->len = page + pb->ring_bytes;
	c->base = mmap(NULL, c->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       c->fd, 0);
	if (c->base == MAP_FAILED)
		return errbuf_set(eb, -errno,
				  "cannot map the %zu-byte event ring of CPU %u: %s (on kernels before 5.11 RLIMIT_MEMLOCK counts it; perf_event_mlock_kb caps an unprivileged one)",
				  c->len, cpu, strerror(errno));
	err = perf_ring_init(&c->ring, c->base, c->len, page, pb->scratch);
	if (err)
		return errbuf_set(eb, err,
				  "the event ring of CPU %u is not laid out as perf_event_open(2) says",
				  cpu);
	err = bpf_map_update(map_fd, &key, &c->fd, BPF_ANY);
	if (err)
		return errbuf_set(eb, err,
				  "cannot store CPU %u's event fd in the perf event array: %s",
				  cpu, strerror(-err));
	vlog(2, "event ring of CPU %u: perf fd %d, %zu bytes mapped", cpu,
	     c->fd, c->len);
	return 0;
}

int perf_buf_open(struct perf_buf *pb, int map_fd, unsigned int pages,
		  struct errbuf *eb)
{
	static struct cpu_list online;	/* 32 KiB: not on the stack */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned int i;
	int err;

	memset(pb, 0, sizeof(*pb));
	if (!pages || (pages & (pages - 1)))
		return errbuf_set(eb, -EINVAL,
				  "%u ring pages: the count must be a power of two",
				  pages);
	err = cpus_online(&online);
	if (err)
		return errbuf_set(eb, err,
				  "cannot read /sys/devices/system/cpu/online: %s",
				  strerror(-err));
	pb->ring_bytes = (size_t)pages * page;
	pb->cpus = calloc(online.n, sizeof(*pb->cpus));
	pb->scratch = malloc(pb->ring_bytes);
	if (!pb->cpus || !pb->scratch) {
		perf_buf_close(pb);
		return errbuf_set(eb, -ENOMEM, "out of memory");
	}
	for (i = 0; i < online.n; i++) {
		err = open_cpu(pb, &pb->cpus[i], online.ids[i], map_fd, page,
			       eb);
		pb->n = i + 1;
		if (err) {
			perf_buf_close(pb);
			return err;
		}
	}
	vlog(1, "event rings: %u CPUs, %zu bytes each (%u pages)", pb->n,
	     pb->ring_bytes, pages);
	return 0;
}

unsigned int perf_buf_max_pages(unsigned int ncpus,
				unsigned long long mem_bytes, size_t page_size)
{
	unsigned long long share = mem_bytes / PERF_BUF_MEM_SHARE;
	unsigned long long per_page = (unsigned long long)(ncpus + 1) * page_size;
	unsigned int pages = 1U << 31;

	while (pages && (unsigned long long)pages * per_page > share)
		pages >>= 1;
	return pages;
}

void perf_buf_close(struct perf_buf *pb)
{
	unsigned int i;

	for (i = 0; pb->cpus && i < pb->n; i++) {
		struct perf_buf_cpu *c = &pb->cpus[i];

		if (c->base != MAP_FAILED && c->base)
			munmap(c->base, c->len);
		if (c->fd >= 0)
			close(c->fd);
	}
	free(pb->cpus);
	free(pb->scratch);
	memset(pb, 0, sizeof(*pb));
}

void perf_buf_pollfds(const struct perf_buf *pb, struct pollfd *fds)
{
	unsigned int i;

	for (i = 0; i < pb->n; i++) {
		fds[i].fd = pb->cpus[i].fd;
		fds[i].events = POLLIN;
		fds[i].revents = 0;
	}
}

int perf_buf_drain(struct perf_buf *pb, perf_ring_sample_fn fn, void *arg,
		   struct perf_ring_stats *st)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < pb->n; i++)
		ret = perf_ring_drain(&pb->cpus[i].ring, fn, arg, st);
	return ret;
}
