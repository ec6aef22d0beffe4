// SPDX-License-Identifier: GPL-2.0
#include "loader/events/perf_ring.h"

#include <errno.h>
#include <string.h>

/*
 * The kernel's side (kernel/events/ring_buffer.c) writes a record, then
 * publishes data_head; ours reads data_head with acquire semantics (the
 * documented smp_rmb() after it), reads the records, then a full barrier
 * (smp_mb()) before the store of data_tail that lets the kernel reuse the
 * space.  data_head is 64 bits: the atomic load keeps a 32-bit ARM
 * reader from a torn value (ldrexd).
 */
#if __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#define POS_MASK UINT64_MAX

static uint64_t load_head(const struct perf_event_mmap_page *m)
{
	return __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
}

static uint64_t load_tail(const struct perf_event_mmap_page *m)
{
	return m->data_tail;
}

static void store_tail(struct perf_event_mmap_page *m, uint64_t tail)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}
#else
/*
 * No 8-byte atomics (32-bit MIPS: libatomic would take a lock the kernel
 * never takes).  Such a binary runs only on a 32-bit kernel, whose ring
 * positions are its unsigned long (kernel/events/ring_buffer.c): the
 * upper half of data_head is always 0 and the kernel reads only the lower
 * half of data_tail, so that half, which the byte order places, is the
 * whole value and is loaded and stored at once, and positions wrap at
 * 2^32 as the kernel's do.
 */
#define LOW_HALF (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define POS_MASK UINT32_MAX

static uint64_t load_head(const struct perf_event_mmap_page *m)
{
	const uint32_t *w = (const uint32_t *)&m->data_head;

	return __atomic_load_n(&w[LOW_HALF], __ATOMIC_ACQUIRE);
}

static uint64_t load_tail(const struct perf_event_mmap_page *m)
{
	const uint32_t *w = (const uint32_t *)&m->data_tail;

	return w[LOW_HALF];
}

static void store_tail(struct perf_event_mmap_page *m, uint64_t tail)
{
	uint32_t *w = (uint32_t *)&m->data_tail;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&w[LOW_HALF], (uint32_t)tail, __ATOMIC_RELEASE);
}
#endif

uint64_t perf_ring_data_size(const struct perf_event_mmap_page *meta,
			     size_t len, size_t page_size)
{
	uint64_t off = meta->data_offset, size = meta->data_size;

	/* Before 4.1 both are 0 (reserved): the ring follows the page. */
	if (!off && !size) {
		off = page_size;
		size = len > page_size ? len - page_size : 0;
	}
	if (!size || (size & (size - 1)) || off < page_size || off > len ||
	    size > len - off)
		return 0;
	return size;
}

int perf_ring_init(struct perf_ring *r, void *base, size_t len,
		   size_t page_size, unsigned char *scratch)
{
	struct perf_event_mmap_page *meta = base;
	uint64_t size = perf_ring_data_size(meta, len, page_size);

	if (!size)
		return -EINVAL;
	r->meta = meta;
	r->data = (unsigned char *)base +
		  (meta->data_offset ? meta->data_offset : page_size);
	r->size = size;
	r->scratch = scratch;
	return 0;
}

int perf_ring_pending(const struct perf_ring *r)
{
	return load_head(r->meta) != load_tail(r->meta);
}

/* len bytes from ring position pos (any value: it wraps) into dst. */
static void copy_out(const struct perf_ring *r, uint64_t pos, void *dst,
		     size_t len)
{
	size_t off = (size_t)(pos & (r->size - 1));
	size_t first = len < r->size - off ? len : (size_t)(r->size - off);

	memcpy(dst, r->data + off, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

/*
 * The record at pos, size bytes, in one piece: in place, or copied into
 * the scratch buffer when it wraps around the end of the ring.
 */
static const unsigned char *record_at(const struct perf_ring *r, uint64_t pos,
				      size_t size)
{
	size_t off = (size_t)(pos & (r->size - 1));

	if (off + size <= r->size)
		return r->data + off;
	copy_out(r, pos, r->scratch, size);
	return r->scratch;
}

struct lost_record {
	struct perf_event_header header;
	uint64_t id;
	uint64_t lost;
};

/* One record of size bytes: 0, or the callback's value. */
static int one_record(const struct perf_event_header *h,
		      const unsigned char *rec, perf_ring_sample_fn fn,
		      void *arg, struct perf_ring_stats *st)
{
	uint32_t raw;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		/* PERF_SAMPLE_RAW alone: a u32 size, then the payload. */
		if (h->size < sizeof(*h) + sizeof(raw)) {
			st->bad++;
			return 0;
		}
		memcpy(&raw, rec + sizeof(*h), sizeof(raw));
		if (raw > h->size - sizeof(*h) - sizeof(raw)) {
			st->bad++;
			return 0;
		}
		st->samples++;
		return fn(arg, rec + sizeof(*h) + sizeof(raw), raw);
	case PERF_RECORD_LOST: {
		struct lost_record l;

		if (h->size < sizeof(l)) {
			st->bad++;
			return 0;
		}
		memcpy(&l, rec, sizeof(l));
		st->lost += l.lost;
		st->lost_records++;
		return 0;
	}
	default:
		st->other++;
		return 0;
	}
}

int perf_ring_drain(struct perf_ring *r, perf_ring_sample_fn fn, void *arg,
		    struct perf_ring_stats *st)
{
	uint64_t head = load_head(r->meta), tail = load_tail(r->meta);
	int ret = 0;

	while (!ret && tail != head) {
		struct perf_event_header h;
		uint64_t avail = (head - tail) & POS_MASK;

		if (avail < sizeof(h) || avail > r->size) {
			st->bad++;
			tail = head;
			break;
		}
		copy_out(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > avail) {
			/* Nothing after it can be found: skip what was written. */
			st->bad++;
			tail = head;
			break;
		}
		ret = one_record(&h, record_at(r, tail, h.size), fn, arg, st);
		tail = (tail + h.size) & POS_MASK;
	}
	store_tail(r->meta, tail);
	return ret;
}
