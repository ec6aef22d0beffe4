/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU rings behind a BPF_MAP_TYPE_PERF_EVENT_ARRAY (4.3): one
 * PERF_COUNT_SW_BPF_OUTPUT perf event (4.4) per online CPU, its ring
 * mmap'd and its fd stored in the map at the CPU's index, so that a
 * program's bpf_perf_event_output(ctx, &map, BPF_F_CURRENT_CPU, ...)
 * lands in the ring of the CPU it runs on.  No libbpf: perf_ring.c reads
 * each ring.
 */
#ifndef EXT4DIST_LOADER_EVENTS_PERF_BUF_H
#define EXT4DIST_LOADER_EVENTS_PERF_BUF_H

#include <poll.h>
#include <stddef.h>

#include "loader/events/perf_ring.h"
#include "loader/util/errbuf.h"

struct perf_buf_cpu {
	unsigned int cpu;
	int fd;
	void *base;		/* the mapping: metadata page, then the ring */
	size_t len;
	struct perf_ring ring;
};

struct perf_buf {
	struct perf_buf_cpu *cpus;
	unsigned int n;
	size_t ring_bytes;	/* each CPU's ring */
	unsigned char *scratch;	/* one ring's size: a record that wraps */
};

/*
 * Opens and maps a ring of pages pages (a power of two) for each online
 * CPU and stores its fd in map_fd (a perf event array whose max_entries
 * covers every possible CPU).  On failure everything is undone and eb
 * says why.
 */
int perf_buf_open(struct perf_buf *pb, int map_fd, unsigned int pages,
		  struct errbuf *eb);
/*
 * The rings' share of the machine's memory: a sixteenth of it (mem_bytes)
 * for ncpus rings and the reader's copy of one.
 */
#define PERF_BUF_MEM_SHARE 16
/*
 * The most pages of page_size bytes (a power of two) each of ncpus rings
 * may have within that share; 0 when not even one fits.
 */
unsigned int perf_buf_max_pages(unsigned int ncpus,
				unsigned long long mem_bytes, size_t page_size);
/* Unmaps and closes everything (a no-op on a zeroed or closed one). */
void perf_buf_close(struct perf_buf *pb);
/* fds[0..pb->n-1]: each ring's fd, POLLIN. */
void perf_buf_pollfds(const struct perf_buf *pb, struct pollfd *fds);
/*
 * Drains every ring once (perf_ring_drain()): 0, or the callback's
 * non-zero value, which stops the drain.
 */
int perf_buf_drain(struct perf_buf *pb, perf_ring_sample_fn fn, void *arg,
		   struct perf_ring_stats *st);

#endif
