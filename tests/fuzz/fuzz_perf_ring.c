// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: perf_ring_init() and perf_ring_drain() on a ring the
 * input lays out as the kernel would map it: its first bytes choose the
 * ring's size, the layout the metadata page gives (data_offset and
 * data_size, or the zeros of kernels before 4.1), data_head and
 * data_tail (any 64-bit values: a head past 2^32, a tail past the head)
 * and when the callback stops the drain; the rest fills the ring.  The
 * mapping is an exact-size heap block, so ASan sees any read past the
 * ring, and the callback reads every payload byte it is handed.
 *
 * Checked: a drain consumes exactly up to data_head unless the callback
 * stopped it (then the tail moved to the end of a whole record), hands
 * out no more bytes than the ring holds, and counts every record it
 * refused; a second drain finds nothing.
 */
#include "loader/events/perf_ring.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PAGE 4096

struct control {
	uint8_t order;		/* ring size: 64 << (order % 9) bytes */
	uint8_t layout;		/* 0: 4.1+ data_offset/size; 1: zeros; 2: raw */
	uint8_t stop_at;	/* the callback stops at this sample (0: never) */
	uint8_t pad;
	uint32_t raw_off;	/* layout 2: data_offset, data_size as given */
	uint32_t raw_size;
	uint64_t head, tail;
};

struct seen {
	unsigned long long calls;
	unsigned int stop_at;
	uint64_t ring_size;
	unsigned long long sum;
};

static int on_sample(void *arg, const void *payload, uint32_t len)
{
	struct seen *s = arg;
	const volatile uint8_t *p = payload;
	uint32_t i;

	/* A record never holds more than the ring. */
	if (len > s->ring_size)
		abort();
	for (i = 0; i < len; i++)
		s->sum += p[i];
	s->calls++;
	return s->stop_at && s->calls == s->stop_at ? 7 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_ring_stats st, st2;
	struct control c;
	struct perf_event_mmap_page *meta;
	struct perf_ring r;
	struct seen seen;
	uint64_t ring, head, tail_after;
	unsigned char *map, *scratch;
	size_t len, fill;
	int ret;

	if (size < sizeof(c))
		return 0;
	memcpy(&c, data, sizeof(c));
	data += sizeof(c);
	size -= sizeof(c);
	ring = 64ULL << (c.order % 9);		/* 64 B to 16 KiB */
	len = PAGE + (size_t)ring;
	map = calloc(1, len);
	scratch = malloc((size_t)ring);
	if (!map || !scratch)
		abort();
	meta = (struct perf_event_mmap_page *)map;
	switch (c.layout % 3) {
	case 0:
		meta->data_offset = PAGE;
		meta->data_size = ring;
		break;
	case 1:
		break;			/* before 4.1: the ring follows the page */
	default:
		meta->data_offset = c.raw_off;
		meta->data_size = c.raw_size;
		break;
	}
	fill = size < ring ? size : (size_t)ring;
	memcpy(map + PAGE, data, fill);
	meta->data_head = c.head;
	meta->data_tail = c.tail;

	if (perf_ring_init(&r, map, len, PAGE, scratch)) {
		/* Refused: the layout must be what perf_ring_data_size says. */
		if (perf_ring_data_size(meta, len, PAGE))
			abort();
		goto out;
	}
	/* Taken: a power of two inside the mapping. */
	if (!r.size || (r.size & (r.size - 1)) || r.size > ring ||
	    r.data < map + PAGE || r.data + r.size > map + len)
		abort();
	memset(&st, 0, sizeof(st));
	memset(&seen, 0, sizeof(seen));
	seen.stop_at = c.stop_at;
	seen.ring_size = r.size;
	ret = perf_ring_drain(&r, on_sample, &seen, &st);
	head = meta->data_head;
	tail_after = meta->data_tail;
	if (ret != 0 && ret != 7)
		abort();
	if (st.samples != seen.calls)
		abort();
	if (ret == 0) {
		/* Everything written is consumed, whatever it was. */
		if (tail_after != head)
			abort();
	} else {
		/* Stopped after a whole record: not past the head. */
		if (head - tail_after > head - c.tail || !seen.stop_at ||
		    seen.calls != seen.stop_at)
			abort();
	}
	if (ret == 0 && perf_ring_pending(&r))
		abort();
	/* Drained: a second drain finds nothing. */
	memset(&st2, 0, sizeof(st2));
	seen.stop_at = 0;
	perf_ring_drain(&r, on_sample, &seen, &st2);
	if (ret == 0 && (st2.samples || st2.bad || st2.lost_records ||
			 st2.other))
		abort();
out:
	free(scratch);
	free(map);
	return 0;
}
