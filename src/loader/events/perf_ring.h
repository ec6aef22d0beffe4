/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading one mmap'd perf ring (perf_event_open(2), "MMAP layout"): the
 * kernel writes records at data_head, we consume them from data_tail and
 * hand the tail back.  Pure memory work, no system call: the unit tests
 * run it on rings they build themselves.
 */
#ifndef EXT4DIST_LOADER_EVENTS_PERF_RING_H
#define EXT4DIST_LOADER_EVENTS_PERF_RING_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

struct perf_ring {
	struct perf_event_mmap_page *meta;	/* the first page */
	unsigned char *data;		/* the ring itself */
	uint64_t size;			/* a power of two */
	unsigned char *scratch;		/* size bytes: a record that wraps */
};

/* What drains found, summed over calls. */
struct perf_ring_stats {
	unsigned long long samples;	/* PERF_RECORD_SAMPLE handed to the callback */
	unsigned long long lost;		/* events the kernel dropped (PERF_RECORD_LOST) */
	unsigned long long lost_records;	/* PERF_RECORD_LOST records seen */
	unsigned long long bad;		/* malformed records skipped */
	unsigned long long other;		/* records of other types, ignored */
};

/*
 * A PERF_SAMPLE_RAW sample's payload: data, size bytes (the program's
 * bpf_perf_event_output() size; the kernel pads the record behind it).
 * Returns 0 to go on, anything else to stop the drain with that value
 * (the record is consumed).
 */
typedef int (*perf_ring_sample_fn)(void *arg, const void *data,
				   uint32_t size);

/*
 * Sets r up over a mapping of len bytes at base whose first page_size
 * bytes are the metadata page.  The ring is where the kernel says
 * (data_offset, data_size: 4.1+), else the rest of the mapping.  scratch
 * must hold the ring's size.  -EINVAL when the layout is not a power of
 * two that fits the mapping.
 */
int perf_ring_init(struct perf_ring *r, void *base, size_t len,
		   size_t page_size, unsigned char *scratch);

/* The ring's data size as perf_ring_init() would take it (0: bad). */
uint64_t perf_ring_data_size(const struct perf_event_mmap_page *meta,
			     size_t len, size_t page_size);

/* 1 when the kernel wrote records not consumed yet. */
int perf_ring_pending(const struct perf_ring *r);

/*
 * Consumes every record written so far: samples go to fn, PERF_RECORD_LOST
 * adds to st->lost.  A record that cannot be (a size under a header, past
 * what was written or larger than the ring) leaves nothing to trust after
 * it: the rest of what was written is skipped and counted bad once.
 * Returns 0, or the callback's non-zero value.
 */
int perf_ring_drain(struct perf_ring *r, perf_ring_sample_fn fn, void *arg,
		    struct perf_ring_stats *st);

#endif
