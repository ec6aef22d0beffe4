// SPDX-License-Identifier: GPL-2.0
/*
 * The perf ring reader against rings built here as the kernel writes them:
 * samples, records that wrap around the end, PERF_RECORD_LOST, and
 * records that cannot be right.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader/events/perf_buf.h"
#include "loader/events/perf_ring.h"
#include "loader/kernel/meminfo.h"
#include "test.h"

#define PAGE 4096
#define RING 4096	/* the data area of the synthetic rings */

struct fake {
	union {
		struct perf_event_mmap_page meta;
		unsigned char page[PAGE];
	} u;
	unsigned char data[RING];
	unsigned char scratch[RING];
	struct perf_ring r;
	uint64_t head;		/* where the "kernel" writes next */
};

static void fake_init(struct fake *f, uint64_t start, int new_layout)
{
	memset(f, 0, sizeof(*f));
	if (new_layout) {	/* 4.1+: the kernel says where the ring is */
		f->u.meta.data_offset = PAGE;
		f->u.meta.data_size = RING;
	}
	f->u.meta.data_head = f->u.meta.data_tail = start;
	f->head = start;
	CHECK(perf_ring_init(&f->r, f, PAGE + RING, PAGE, f->scratch) == 0,
	      "ring set up");
}

/* Writes len bytes at the kernel's position, wrapping. */
static void put(struct fake *f, const void *src, size_t len)
{
	const unsigned char *s = src;
	size_t i;

	for (i = 0; i < len; i++)
		f->data[(f->head + i) & (RING - 1)] = s[i];
	f->head += len;
}

/* A PERF_SAMPLE_RAW record of payload len bytes, padded to 8. */
static void put_sample(struct fake *f, const void *payload, uint32_t len)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	size_t total = (sizeof(h) + 4 + len + 7) & ~(size_t)7;
	static const unsigned char zeros[8];

	h.size = (uint16_t)total;
	put(f, &h, sizeof(h));
	put(f, &len, 4);
	put(f, payload, len);
	put(f, zeros, total - sizeof(h) - 4 - len);
}

static void put_lost(struct fake *f, uint64_t n)
{
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} l = { { PERF_RECORD_LOST, 0, sizeof(l) }, 7, n };

	put(f, &l, sizeof(l));
}

static void publish(struct fake *f)
{
	f->u.meta.data_head = f->head;
}

struct seen {
	unsigned int n;
	uint32_t sizes[64];
	unsigned char first[64];	/* first byte of each payload */
	int intact;			/* every payload byte as written */
	int stop_at;			/* stop after this many, 0 = never */
};

static int on_sample(void *arg, const void *data, uint32_t size)
{
	struct seen *s = arg;
	const unsigned char *p = data;
	uint32_t i;

	for (i = 0; i < size; i++)
		if (p[i] != (unsigned char)(p[0] + i))
			s->intact = 0;
	if (s->n < 64) {
		s->sizes[s->n] = size;
		s->first[s->n] = size ? p[0] : 0;
	}
	s->n++;
	return s->stop_at && s->n == (unsigned int)s->stop_at ? 99 : 0;
}

/* A payload whose byte i is seed + i: a torn copy shows. */
static void pattern(unsigned char *p, size_t len, unsigned char seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(seed + i);
}

static void test_samples(void)
{
	static struct fake f;
	struct perf_ring_stats st = { 0 };
	struct seen s = { .intact = 1 };
	unsigned char p[100];

	fake_init(&f, 0, 1);
	CHECK(!perf_ring_pending(&f.r), "empty ring: nothing pending");
	pattern(p, 88, 1);
	put_sample(&f, p, 88);
	pattern(p, 13, 50);
	put_sample(&f, p, 13);
	CHECK(!perf_ring_pending(&f.r), "unpublished records are not seen");
	publish(&f);
	CHECK(perf_ring_pending(&f.r), "published: pending");
	check_int("drain", perf_ring_drain(&f.r, on_sample, &s, &st), 0);
	check_int("two samples", s.n, 2);
	check_int("first size", s.sizes[0], 88);
	check_int("second size (unpadded)", s.sizes[1], 13);
	check_int("second payload", s.first[1], 50);
	CHECK(s.intact, "payloads intact");
	check_int("stats samples", (long long)st.samples, 2);
	check_int("tail handed back", (long long)f.u.meta.data_tail,
		  (long long)f.head);
	CHECK(!perf_ring_pending(&f.r), "drained");
}

/* Records straddling the end of the ring, and a head past 2^32. */
static void test_wrap(void)
{
	static struct fake f;
	struct perf_ring_stats st = { 0 };
	struct seen s = { .intact = 1 };
	unsigned char p[200];
	uint64_t start = (1ULL << 32) * 3 + RING - 40;
	unsigned int i;

	fake_init(&f, start, 1);
	pattern(p, 100, 7);
	put_sample(&f, p, 100);	/* 112 bytes from 40 before the end */
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("wrapped sample", s.n, 1);
	check_int("wrapped size", s.sizes[0], 100);
	CHECK(s.intact, "wrapped payload intact");
	/* Many laps: each record at another offset of the ring. */
	for (i = 0; i < 200; i++) {
		pattern(p, (i * 37) % 180 + 1, (unsigned char)i);
		put_sample(&f, p, (i * 37) % 180 + 1);
		if (i % 7 == 6) {
			publish(&f);
			perf_ring_drain(&f.r, on_sample, &s, &st);
		}
	}
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("every sample across laps", s.n, 201);
	CHECK(s.intact, "every payload intact across laps");
	check_int("no bad record", (long long)st.bad, 0);
	/* Before 4.1: no data_offset/data_size, the ring follows the page. */
	fake_init(&f, RING - 8, 0);
	pattern(p, 20, 3);
	put_sample(&f, p, 20);
	publish(&f);
	s.n = 0;
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("old layout: wrapped sample", s.n, 1);
	CHECK(s.intact, "old layout: intact");
}

static void test_lost(void)
{
	static struct fake f;
	struct perf_ring_stats st = { 0 };
	struct seen s = { .intact = 1 };
	unsigned char p[16];
	struct perf_event_header other = { PERF_RECORD_THROTTLE, 0, 24 };
	uint64_t pad[2] = { 0, 0 };

	fake_init(&f, 0, 1);
	pattern(p, 16, 0);
	put_sample(&f, p, 16);
	put_lost(&f, 1234);
	put(&f, &other, sizeof(other));
	put(&f, pad, sizeof(pad));
	put_lost(&f, 6);
	put_sample(&f, p, 16);
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("samples around the losses", s.n, 2);
	check_int("lost events summed", (long long)st.lost, 1240);
	check_int("lost records", (long long)st.lost_records, 2);
	check_int("other records skipped", (long long)st.other, 1);
	check_int("nothing bad", (long long)st.bad, 0);
}

static void test_truncated(void)
{
	static struct fake f;
	struct perf_ring_stats st = { 0 };
	struct seen s = { .intact = 1 };
	unsigned char p[32];
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 16 };
	uint32_t raw = 200;	/* more than the record holds */
	uint32_t zero = 0;

	fake_init(&f, 0, 1);
	pattern(p, 32, 9);
	put_sample(&f, p, 32);
	/* A sample whose raw size overruns its own record: skipped alone. */
	put(&f, &h, sizeof(h));
	put(&f, &raw, 4);
	put(&f, &zero, 4);
	put_sample(&f, p, 32);
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("good samples around a bad one", s.n, 2);
	check_int("bad sample counted", (long long)st.bad, 1);
	/* A record claiming more than was written: the rest is skipped. */
	h.size = 512;
	put(&f, &h, sizeof(h));
	put(&f, p, 24);
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("overlong record counted", (long long)st.bad, 2);
	check_int("tail at head after it", (long long)f.u.meta.data_tail,
		  (long long)f.head);
	/* A size below a header: nothing after it is trusted. */
	h.size = 4;
	put(&f, &h, sizeof(h));
	put_sample(&f, p, 32);
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("undersized header counted", (long long)st.bad, 3);
	check_int("no sample taken after it", s.n, 2);
	/* A head that ran more than a ring ahead of the tail. */
	f.head += 2 * RING;
	publish(&f);
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("overrun head counted", (long long)st.bad, 4);
	CHECK(!perf_ring_pending(&f.r), "caught up with the head");
}

static void test_stop(void)
{
	static struct fake f;
	struct perf_ring_stats st = { 0 };
	struct seen s = { .intact = 1, .stop_at = 2 };
	unsigned char p[8];
	int i;

	fake_init(&f, 0, 1);
	pattern(p, 8, 0);
	for (i = 0; i < 4; i++)
		put_sample(&f, p, 8);
	publish(&f);
	check_int("callback's value returned",
		  perf_ring_drain(&f.r, on_sample, &s, &st), 99);
	check_int("stopped after two", s.n, 2);
	CHECK(perf_ring_pending(&f.r), "the rest still pending");
	s.stop_at = 0;
	perf_ring_drain(&f.r, on_sample, &s, &st);
	check_int("the rest on the next drain", s.n, 4);
}

static void test_layout(void)
{
	static struct fake f;
	unsigned char scratch[8];
	struct perf_ring r;

	memset(&f, 0, sizeof(f));
	f.u.meta.data_offset = PAGE;
	f.u.meta.data_size = 3000;
	CHECK(perf_ring_init(&r, &f, PAGE + RING, PAGE, scratch) == -EINVAL,
	      "a size not a power of two refused");
	f.u.meta.data_size = 2 * RING;
	CHECK(perf_ring_init(&r, &f, PAGE + RING, PAGE, scratch) == -EINVAL,
	      "a ring past the mapping refused");
	f.u.meta.data_offset = 0;
	f.u.meta.data_size = 0;
	CHECK(perf_ring_init(&r, &f, PAGE, PAGE, scratch) == -EINVAL,
	      "a mapping without a ring refused");
}

/* --ring-pages' bound: the rings and a copy within a sixteenth of memory. */
static void test_ring_bound(void)
{
	static const char mi[] = "MemTotal:         131072 kB\nMemFree: 5 kB\n";
	unsigned long long mem = 0;
	const char *path;

	/* 128 MiB: 8 MiB for 4 rings and the copy: 5 x 256 x 4 KiB = 5 MiB. */
	check_int("128 MiB, 4 CPUs", perf_buf_max_pages(4, 128ULL << 20, 4096),
		  256);
	check_int("exactly a sixteenth", perf_buf_max_pages(1, 16 * 2 * 4096, 4096),
		  1);
	check_int("not one page", perf_buf_max_pages(1, 16 * 2 * 4096 - 1, 4096),
		  0);
	check_int("64 KiB pages", perf_buf_max_pages(7, 1ULL << 30, 65536), 128);
	check_int("24 GiB, 2 CPUs", perf_buf_max_pages(2, 24ULL << 30, 4096),
		  131072);
	if (!CHECK(test_tmpdir("meminfo"), "temporary directory"))
		return;
	path = test_tmp_path("meminfo");
	test_write_file(path, mi, sizeof(mi) - 1);
	check_int("MemTotal read", meminfo_total(path, &mem), 0);
	check_int("in bytes", (long long)mem, 131072LL * 1024);
	test_write_file(path, "MemFree: 1 kB\n", 14);
	check_int("no MemTotal line", meminfo_total(path, &mem), -EINVAL);
	test_write_file(path, "MemTotal: 12 MB\n", 16);
	check_int("not in kB", meminfo_total(path, &mem), -EINVAL);
	test_write_file(path, "MemTotal: 12\n", 13);
	check_int("no unit", meminfo_total(path, &mem), -EINVAL);
	test_write_file(path, "MemTotal:\t12\tkB\n", 17);
	check_int("tabs around the number", meminfo_total(path, &mem), 0);
	check_int("12 KiB", (long long)mem, 12 * 1024);
	check_int("no such file", meminfo_total("/nonexistent/meminfo", &mem),
		  -ENOENT);
}

static const struct test_case test_cases[] = {
	TEST_CASE(samples),
	TEST_CASE(wrap),
	TEST_CASE(lost),
	TEST_CASE(truncated),
	TEST_CASE(stop),
	TEST_CASE(layout),
	TEST_CASE(ring_bound),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
