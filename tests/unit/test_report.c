// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the printing layer (src/output).  Text goldens come from
 * tests/unit/golden/make_golden.py, an independent reimplementation of
 * BCC's Python; the inputs here mirror its CASES.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/report.h"
#include "test.h"

#define U64 18446744073709551615ULL
#define ALL_OPS 0x1fu
#define V40 (40ULL << 54)

struct slot_val {
	unsigned int slot;
	unsigned long long val;
};

/* Fills one op_hist from a list of (slot, value) pairs ended by slot 64. */
static void set_hist(struct op_hist *h, const struct slot_val *sv,
		     unsigned long long sum_ns, unsigned long long max_ns)
{
	memset(h, 0, sizeof(*h));
	for (; sv->slot < NR_SLOTS; sv++)
		h->slots[sv->slot] = sv->val;
	h->sum_ns = sum_ns;
	h->max_ns = max_ns;
}

#define HIST(r, op, sum, max, ...) do {					\
	static const struct slot_val sv_[] = { __VA_ARGS__, { 64, 0 } }; \
	set_hist(&(r)->ops[op], sv_, sum, max);				\
} while (0)

static void init_report(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->fs_name = "ext4";
	r->metric = "ext4dist";
	r->ops_mask = ALL_OPS;
}

/* Runs fn into a memory stream; returns its result, text in *buf. */
static int capture(int (*fn)(FILE *, const struct report *),
		   const struct report *r, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int err;

	if (!f)
		return -errno;
	err = fn(f, r);
	if (fclose(f) && !err)
		err = -EIO;
	return err;
}

static void check_text(const char *name, const struct report *r,
		       const char *golden)
{
	char *buf = NULL;
	size_t len = 0;
	int err = capture(report_text, r, &buf, &len);

	check_int(name, err, 0);
	check_golden(name, buf, len, golden);
	free(buf);
}

/* ---- a small recursive-descent JSON checker (RFC 8259 grammar) ---- */

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF",
						    p[i]) || !p[i])
						return NULL;
				p += 5;
				continue;
			}
			if (!*p || !strchr("\"\\/bfnrt", *p))
				return NULL;
		}
		p++;
	}
	return p + 1;
}

static const char *json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p;
}

static const char *json_members(const char *p, int depth, int object)
{
	char close = object ? '}' : ']';

	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = json_string(json_ws(p));
			if (!p)
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = json_value(p, depth + 1);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = json_ws(p);
	switch (*p) {
	case '{':
		return json_members(p, depth, 1);
	case '[':
		return json_members(p, depth, 0);
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return json_number(p);
	}
}

/* 1 when s is exactly one JSON value (surrounding white space allowed). */
static int json_valid(const char *s)
{
	const char *end = json_value(s, 0);

	return end && *json_ws(end) == '\0';
}

static void test_json_checker(void)
{
	CHECK(json_valid("{\"a\":[1,2.5,-3e+2,true,false,null,\"x\\n\"]}\n"),
	      "json checker accepts a valid document");
	CHECK(!json_valid("{\"a\":1,}"), "json checker: trailing comma");
	CHECK(!json_valid("{\"a\":01}"), "json checker: leading zero");
	CHECK(!json_valid("{\"a\":1}}"), "json checker: trailing junk");
	CHECK(!json_valid("[1,2"), "json checker: unterminated array");
	CHECK(!json_valid("{a:1}"), "json checker: bare key");
	CHECK(!json_valid(""), "json checker: empty input");
}

/* ---- unit checks of the helpers ---- */

static void test_names_bounds(void)
{
	unsigned long long lo, hi;

	check_str("op name read", report_op_name(OP_READ), "read");
	check_str("op name write", report_op_name(OP_WRITE), "write");
	check_str("op name open", report_op_name(OP_OPEN), "open");
	check_str("op name fsync", report_op_name(OP_FSYNC), "fsync");
	check_str("op name getattr", report_op_name(OP_GETATTR), "getattr");
	CHECK(report_op_name(NR_OPS) == NULL, "op name past the end is NULL");
	check_str("unit usecs", report_unit(0), "usecs");
	check_str("unit msecs", report_unit(1), "msecs");

	report_slot_bounds(0, &lo, &hi);
	CHECK(lo == 0 && hi == 0, "slot 0 bounds 0 -> 0");
	report_slot_bounds(1, &lo, &hi);
	CHECK(lo == 0 && hi == 1, "slot 1 bounds 0 -> 1");
	report_slot_bounds(2, &lo, &hi);
	CHECK(lo == 2 && hi == 3, "slot 2 bounds 2 -> 3");
	report_slot_bounds(3, &lo, &hi);
	CHECK(lo == 4 && hi == 7, "slot 3 bounds 4 -> 7");
	report_slot_bounds(63, &lo, &hi);
	CHECK(lo == 1ULL << 62 && hi == (1ULL << 63) - 1,
	      "slot 63 bounds 2^62 -> 2^63-1");
}

static void test_stars(void)
{
	check_int("stars 0 of 0", report_stars(0, 0, 40), 0);
	check_int("stars max", report_stars(7, 7, 40), 40);
	check_int("stars half", report_stars(1, 2, 40), 20);
	check_int("stars floor", report_stars(1, 3, 40), 13);
	check_int("stars tiny", report_stars(1, 41, 40), 0);
	check_int("stars 1/40", report_stars(1, 40, 40), 1);
	check_int("stars wide half", report_stars(1, 2, 20), 10);
	check_int("stars u64 max", report_stars(U64, U64, 40), 40);
	/* Python: 40 * (2^64 - 2) / (2^64 - 1) rounds to 40.0 */
	check_int("stars rounds up like python", report_stars(U64 - 1, U64, 40),
		  40);
	check_int("stars 40 - 1.25 * 2^-48 stays 39",
		  report_stars(U64 - (1ULL << 11), U64, 40), 39);
	/* ties: x = 1 - 2^-54 is halfway below 1.0 and rounds to it */
	check_int("stars tie below 1", report_stars((1ULL << 54) - 1, V40, 40),
		  1);
	check_int("stars exact below 1", report_stars((1ULL << 54) - 2, V40,
						      40), 0);
	check_int("stars tie below 2", report_stars((2ULL << 54) - 1, V40, 40),
		  2);
	check_int("stars tie below 3", report_stars((3ULL << 54) - 4, V40, 40),
		  3);
	check_int("stars past tie below 3",
		  report_stars((3ULL << 54) - 5, V40, 40), 2);
	check_int("stars exact integer", report_stars(39ULL << 54, V40, 40),
		  39);
	check_int("stars never over width", report_stars(U64, 1, 40), 40);
}

static void test_percentiles(void)
{
	struct report r;

	init_report(&r);
	check_int("percentile of empty", report_percentile_slot(&r.ops[0], 50),
		  -ENODATA);
	HIST(&r, OP_READ, 0, 0, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 });
	check_int("percentile bad p 0", report_percentile_slot(&r.ops[0], 0),
		  -EINVAL);
	check_int("percentile bad p 101",
		  report_percentile_slot(&r.ops[0], 101), -EINVAL);
	check_int("p25 of 4", report_percentile_slot(&r.ops[0], 25), 1);
	check_int("p50 of 4", report_percentile_slot(&r.ops[0], 50), 2);
	check_int("p51 of 4", report_percentile_slot(&r.ops[0], 51), 3);
	check_int("p100 of 4", report_percentile_slot(&r.ops[0], 100), 4);
	HIST(&r, OP_READ, 0, 0, { 5, U64 }, { 6, U64 }, { 7, 2 });
	check_int("p100 past 2^64", report_percentile_slot(&r.ops[0], 100), 7);
	check_int("p99 past 2^64", report_percentile_slot(&r.ops[0], 99), 6);
	/* total 2^65, rank 2^64: slot 5 holds only 2^64 - 1 */
	check_int("p50 past 2^64", report_percentile_slot(&r.ops[0], 50), 6);
	check_int("p49 past 2^64", report_percentile_slot(&r.ops[0], 49), 5);
}

static void test_extended_line(void)
{
	struct report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	init_report(&r);
	HIST(&r, OP_READ, 1500, 1499, { 1, 2 }, { 2, 1 });
	f = open_memstream(&buf, &len);
	if (!CHECK(f, "extended: memstream"))
		return;
	check_int("extended: empty prints nothing",
		  report_extended_line(f, &r.ops[OP_WRITE], 0), 0);
	check_int("extended: usecs", report_extended_line(f, &r.ops[0], 0), 0);
	check_int("extended: msecs", report_extended_line(f, &r.ops[0], 1), 0);
	/* mean (2^64 - 1) / (2^65 - 2) ns = 0.0005 usecs, rounds up */
	HIST(&r, OP_READ, U64, U64, { 1, U64 }, { 63, U64 });
	check_int("extended: huge", report_extended_line(f, &r.ops[0], 0), 0);
	fclose(f);
	check_str("extended: lines", buf,
		  "count 3, mean 0.500 usecs, max 1.499 usecs, "
		  "p50 in [0, 1], p90 in [2, 3], p99 in [2, 3]\n"
		  "count 3, mean 0.001 msecs, max 0.001 msecs, "
		  "p50 in [0, 1], p90 in [2, 3], p99 in [2, 3]\n"
		  "count 36893488147419103230, mean 0.001 usecs, "
		  "max 18446744073709551.615 usecs, p50 in [0, 1], "
		  "p90 in [4611686018427387904, 9223372036854775807], "
		  "p99 in [4611686018427387904, 9223372036854775807]\n");
	free(buf);
}

/* ---- text reports against the goldens ---- */

static void test_text_goldens(void)
{
	struct report r;

	init_report(&r);
	r.show_time = 1;
	r.when = 1700000000;
	HIST(&r, OP_READ, 0, 0, { 3, 5 }, { 4, 120 }, { 5, 33 }, { 7, 2 },
	     { 8, 1 });
	HIST(&r, OP_WRITE, 0, 0, { 5, 10 }, { 6, 1000 }, { 7, 400 }, { 10, 3 },
	     { 11, 7 });
	HIST(&r, OP_OPEN, 0, 0, { 1, 1 }, { 2, 2 });
	HIST(&r, OP_FSYNC, 0, 0, { 12, 9 }, { 15, 40 }, { 20, 1 });
	check_text("text basic (usecs, time, leading zeros, order)", &r,
		   TEST_GOLDEN "report_basic.txt");

	init_report(&r);
	r.milliseconds = 1;
	r.when = 1700000000;	/* ignored without show_time */
	HIST(&r, OP_READ, 0, 0, { 1, 100 }, { 2, 50 }, { 3, 25 }, { 4, 12 },
	     { 5, 6 }, { 6, 3 }, { 7, 1 });
	HIST(&r, OP_FSYNC, 0, 0, { 3, 7 });
	check_text("text msecs", &r, TEST_GOLDEN "report_msecs.txt");

	init_report(&r);
	HIST(&r, OP_READ, 0, 0, { 1, U64 }, { 2, U64 - 1 }, { 3, 1ULL << 63 },
	     { 4, 5000000000ULL }, { 5, U64 - (1ULL << 11) }, { 6, 1 },
	     { 8, 1ULL << 32 });
	HIST(&r, OP_WRITE, 0, 0, { 1, 1ULL << 32 }, { 2, (1ULL << 32) - 1 },
	     { 3, 107374182 }, { 4, 107374183 }, { 5, 3 });
	check_text("text huge counts", &r, TEST_GOLDEN "report_huge.txt");

	init_report(&r);
	HIST(&r, OP_READ, 0, 0, { 1, V40 }, { 2, (1ULL << 54) - 1 },
	     { 3, (1ULL << 54) - 2 }, { 4, (2ULL << 54) - 1 },
	     { 5, (3ULL << 54) - 2 }, { 6, (3ULL << 54) - 4 },
	     { 7, (3ULL << 54) - 5 }, { 8, (40ULL << 54) - 1 },
	     { 9, 39ULL << 54 });
	check_text("text star rounding ties", &r,
		   TEST_GOLDEN "report_stars.txt");

	init_report(&r);
	HIST(&r, OP_READ, 0, 0, { 1, 7 }, { 33, 1 });
	HIST(&r, OP_WRITE, 0, 0, { 40, 2 }, { 62, 1 }, { 63, 3 });
	HIST(&r, OP_OPEN, 0, 0, { 32, 4 }, { 2, 1 });
	check_text("text wide format (idx_max > 32, slot 63)", &r,
		   TEST_GOLDEN "report_wide.txt");

	init_report(&r);
	HIST(&r, OP_READ, 0, 0, { 10, 1 });
	check_text("text single bucket", &r,
		   TEST_GOLDEN "report_single.txt");

	init_report(&r);
	r.ops_mask = (1u << OP_READ) | (1u << OP_GETATTR);
	r.show_time = 1;
	r.when = 0;
	HIST(&r, OP_READ, 0, 0, { 0, 5 });
	HIST(&r, OP_WRITE, 0, 0, { 3, 3 });
	HIST(&r, OP_GETATTR, 0, 0, { 2, 1 }, { 4, 2 });
	check_text("text ops_mask, slot 0 only, midnight", &r,
		   TEST_GOLDEN "report_mask.txt");

	init_report(&r);
	r.extended = 1;
	HIST(&r, OP_READ, 2345678, 200123, { 3, 5 }, { 4, 120 }, { 5, 33 },
	     { 7, 2 }, { 8, 1 });
	HIST(&r, OP_FSYNC, 987654321987ULL, 1000000000, { 12, 9 }, { 15, 40 },
	     { 20, 1 });
	HIST(&r, OP_GETATTR, 1, 1, { 1, 1 });
	check_text("text extended usecs", &r,
		   TEST_GOLDEN "report_extended.txt");

	init_report(&r);
	r.extended = 1;
	r.milliseconds = 1;
	HIST(&r, OP_WRITE, 123456789, 700000500, { 1, 10 }, { 2, 80 },
	     { 3, 9 }, { 10, 1 });
	check_text("text extended msecs", &r,
		   TEST_GOLDEN "report_extended_ms.txt");
}

static void test_text_small(void)
{
	struct report r;
	char *buf = NULL;
	size_t len = 0;

	init_report(&r);
	check_int("empty report result", capture(report_text, &r, &buf, &len),
		  0);
	check_mem("empty report is one blank line", buf, len, "\n", 1);
	free(buf);

	buf = NULL;
	r.show_time = 1;
	r.when = 1700000000 + 3600 + 60 + 1;
	check_int("empty report with time", capture(report_text, &r, &buf,
						    &len), 0);
	check_str("empty report with time text", buf, "\n23:14:21:\n");
	free(buf);

	buf = NULL;
	init_report(&r);
	r.ops_mask = 0;
	HIST(&r, OP_READ, 0, 0, { 3, 3 });
	capture(report_text, &r, &buf, &len);
	check_str("ops_mask 0 hides everything", buf, "\n");
	free(buf);
}

/* ---- JSON ---- */

static void check_json(const char *name, const struct report *r,
		       const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	char vname[128];

	check_int(name, capture(report_json, r, &buf, &len), 0);
	check_str(name, buf, want);
	snprintf(vname, sizeof(vname), "%s is valid JSON", name);
	CHECK(buf && json_valid(buf), vname);
	snprintf(vname, sizeof(vname), "%s is one line", name);
	CHECK(buf && len > 0 && memchr(buf, '\n', len) == buf + len - 1,
	      vname);
	free(buf);
}

static void test_json(void)
{
	struct report r;

	init_report(&r);
	r.when = 1700000000;
	r.show_time = 1;
	check_json("json empty, every op",
		   &r, "{\"time\":1700000000,\"fs\":\"ext4\",\"unit\":\"usecs\",\"ops\":{"
		   "\"read\":{\"buckets\":[],\"count\":0,\"sum_ns\":0,"
		   "\"max_ns\":0,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0},"
		   "\"write\":{\"buckets\":[],\"count\":0,\"sum_ns\":0,"
		   "\"max_ns\":0,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0},"
		   "\"open\":{\"buckets\":[],\"count\":0,\"sum_ns\":0,"
		   "\"max_ns\":0,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0},"
		   "\"fsync\":{\"buckets\":[],\"count\":0,\"sum_ns\":0,"
		   "\"max_ns\":0,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0},"
		   "\"getattr\":{\"buckets\":[],\"count\":0,\"sum_ns\":0,"
		   "\"max_ns\":0,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0}}}\n");

	init_report(&r);
	r.milliseconds = 1;
	r.when = 0;
	r.ops_mask = (1u << OP_WRITE) | (1u << OP_FSYNC);
	HIST(&r, OP_READ, 5, 5, { 1, 1 });
	HIST(&r, OP_WRITE, 123456789, 99999999, { 1, 3 }, { 4, 12 },
	     { 63, U64 });
	HIST(&r, OP_FSYNC, U64, U64, { 2, U64 }, { 3, U64 });
	check_json("json msecs, mask, huge",
		   &r, "{\"time\":0,\"fs\":\"ext4\",\"unit\":\"msecs\",\"ops\":{"
		   "\"write\":{\"buckets\":["
		   "{\"low\":0,\"high\":1,\"count\":3},"
		   "{\"low\":8,\"high\":15,\"count\":12},"
		   "{\"low\":4611686018427387904,"
		   "\"high\":9223372036854775807,"
		   "\"count\":18446744073709551615}],"
		   "\"count\":18446744073709551630,\"sum_ns\":123456789,"
		   "\"max_ns\":99999999,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0},"
		   "\"fsync\":{\"buckets\":["
		   "{\"low\":2,\"high\":3,\"count\":18446744073709551615},"
		   "{\"low\":4,\"high\":7,\"count\":18446744073709551615}],"
		   "\"count\":36893488147419103230,"
		   "\"sum_ns\":18446744073709551615,"
		   "\"max_ns\":18446744073709551615,\"calls\":0,\"queued\":0,\"errors\":0,\"missed\":0,\"stolen\":0,\"in_flight\":0,\"unseen\":0}}}\n");

	init_report(&r);
	r.ops_mask = 0;
	check_json("json no ops", &r,
		   "{\"time\":0,\"fs\":\"ext4\",\"unit\":\"usecs\",\"ops\":{}}\n");
}

/* ---- Prometheus ---- */

static void prom_report(struct report *r)
{
	init_report(r);
	r->ops_mask = (1u << OP_READ) | (1u << OP_FSYNC);
	HIST(r, OP_READ, 1234567890123ULL, 0, { 1, 2 }, { 3, 5 }, { 10, 1 });
	HIST(r, OP_WRITE, 5, 0, { 2, 9 });
	/* The untimed series: every reason its own number. */
	r->ops[OP_READ].queued = 4;
	r->ops[OP_READ].errors = 3;
	r->flow[OP_READ].missed = 2;
	r->ops[OP_READ].stolen = 1;
	r->flow[OP_READ].in_flight = 6;
	r->flow[OP_READ].unseen = 8;
	r->flow[OP_FSYNC].missed = U64;
	r->flow[OP_FSYNC].in_flight = 7;
	/* Not in the mask: never printed. */
	r->ops[OP_WRITE].queued = 99;
}

static void test_prom(void)
{
	struct report r;
	char *buf = NULL;
	size_t len = 0;

	prom_report(&r);
	check_int("prom usecs", capture(report_prom, &r, &buf, &len), 0);
	check_golden("prom usecs text", buf, len,
		     TEST_GOLDEN "report_prom.txt");
	free(buf);

	buf = NULL;
	init_report(&r);
	r.milliseconds = 1;
	r.ops_mask = 1u << OP_OPEN;
	HIST(&r, OP_OPEN, U64, 0, { 0, 1 }, { 63, 2 });
	check_int("prom msecs", capture(report_prom, &r, &buf, &len), 0);
	check_golden("prom msecs text (slot 0, slot 63, sum 2^64-1)", buf, len,
		     TEST_GOLDEN "report_prom_ms.txt");
	free(buf);
}

static int count_dir_entries(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -1;
	while ((de = readdir(dir)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

static void test_prom_file(void)
{
	char dir[] = "/tmp/ext4dist-test-XXXXXX";
	char path[256], sub[256], stale[320];
	struct report r;
	struct stat st;
	char *text;
	size_t len;
	FILE *f;

	if (!CHECK(mkdtemp(dir), "prom file: temporary directory"))
		return;
	prom_report(&r);
	snprintf(path, sizeof(path), "%s/ext4dist.prom", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("old content\n", f);
		fclose(f);
	}
	check_int("prom file: write over old", report_prom_write_file(path, &r, 1),
		  0);
	text = test_read_file(path, &len);
	check_golden("prom file: content", text ? text : "", text ? len : 0,
		     TEST_GOLDEN "report_prom.txt");
	free(text);
	check_int("prom file: no temporary left", count_dir_entries(dir), 1);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644,
	      "prom file: mode 0644 (umask 022)");

	/* a stale temporary of our own pid is replaced */
	snprintf(stale, sizeof(stale), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(stale, "w");
	if (f)
		fclose(f);
	check_int("prom file: stale temporary",
		  report_prom_write_file(path, &r, 1), 0);
	check_int("prom file: stale temporary gone", count_dir_entries(dir), 1);

	/* rename onto a directory fails: error returned, temporary removed */
	snprintf(sub, sizeof(sub), "%s/adir", dir);
	mkdir(sub, 0755);
	check_int("prom file: target is a directory",
		  report_prom_write_file(sub, &r, 1), -EISDIR);
	check_int("prom file: temporary removed after error",
		  count_dir_entries(dir), 2);

	snprintf(sub, sizeof(sub), "%s/missing/x.prom", dir);
	check_int("prom file: missing directory",
		  report_prom_write_file(sub, &r, 1), -ENOENT);

	unlink(path);
	snprintf(sub, sizeof(sub), "%s/adir", dir);
	rmdir(sub);
	CHECK(rmdir(dir) == 0, "prom file: directory clean at the end");
}

/* ---- write errors ---- */

static void test_write_errors(void)
{
	struct report r;
	FILE *f = fopen("/dev/full", "w");

	if (!CHECK(f, "open /dev/full"))
		return;
	setvbuf(f, NULL, _IONBF, 0);
	prom_report(&r);
	r.extended = 1;
	check_int("text to a full device", report_text(f, &r), -EIO);
	clearerr(f);
	check_int("json to a full device", report_json(f, &r), -EIO);
	clearerr(f);
	check_int("prom to a full device", report_prom(f, &r), -EIO);
	clearerr(f);
	check_int("hist to a full device",
		  report_log2_hist(f, r.ops[0].slots, NR_SLOTS, "usecs"), -EIO);
	clearerr(f);
	check_int("extended to a full device",
		  report_extended_line(f, &r.ops[0], 0), -EIO);
	fclose(f);
	check_int("hist with too many slots",
		  report_log2_hist(stdout, r.ops[0].slots, 65, "usecs"),
		  -EINVAL);
}

/* ---- what the histograms do not hold ---- */

static void test_untimed_text(void)
{
	struct report r;
	char *buf = NULL;
	size_t len = 0;

	init_report(&r);
	HIST(&r, OP_WRITE, 0, 0, { 2, 1 });
	r.ops[OP_WRITE].queued = 3;
	r.ops[OP_WRITE].errors = 1;
	r.ops[OP_FSYNC].errors = 2;		/* no timed call at all */
	r.ops[OP_READ].queued = 1;
	r.ops[OP_READ].stolen = 5;		/* a warning, not stdout */
	r.ops[OP_OPEN].stolen = 4;
	check_int("untimed text", capture(report_text, &r, &buf, &len), 0);
	check_str("untimed text: below the histogram, or alone", buf,
		  "\n"
		  "\noperation = 'read'\n"
		  "not in the histogram: 1 asynchronous (-EIOCBQUEUED)\n"
		  "\noperation = 'write'\n"
		  "     usecs               : count     distribution\n"
		  "         0 -> 1          : 0        |                                        |\n"
		  "         2 -> 3          : 1        |****************************************|\n"
		  "not in the histogram: 3 asynchronous (-EIOCBQUEUED), 1 error\n"
		  "\noperation = 'fsync'\n"
		  "not in the histogram: 2 errors\n");
	free(buf);
}

static void test_untimed_json(void)
{
	struct report r;

	init_report(&r);
	r.ops_mask = 1u << OP_FSYNC;
	HIST(&r, OP_FSYNC, 10, 9, { 1, 1 });
	r.flow[OP_FSYNC].entries = 20;
	r.ops[OP_FSYNC].queued = 2;
	r.ops[OP_FSYNC].errors = 3;
	r.flow[OP_FSYNC].missed = 4;
	r.ops[OP_FSYNC].stolen = 5;
	r.flow[OP_FSYNC].in_flight = 6;
	r.flow[OP_FSYNC].unseen = 7;
	check_json("json untimed", &r,
		   "{\"time\":0,\"fs\":\"ext4\",\"unit\":\"usecs\",\"ops\":{\"fsync\":{\"buckets\":[{\"low\":0,\"high\":1,\"count\":1}],\"count\":1,\"sum_ns\":10,\"max_ns\":9,\"calls\":20,\"queued\":2,\"errors\":3,\"missed\":4,\"stolen\":5,\"in_flight\":6,\"unseen\":7}}}\n");
}

static void test_warnings(void)
{
	const char *why = "kretprobe instances exhausted: raise --maxactive";
	struct report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	init_report(&r);
	r.interval = 1;
	r.start_slots = 32768;
	r.flow[OP_FSYNC].missed = 21;
	r.flow[OP_FSYNC].in_flight = 3;	/* not final: says nothing */
	r.ops[OP_READ].stolen = 1;
	r.flow[OP_OPEN].missed = 1;
	r.flow[OP_OPEN].unseen = 1;
	r.flow[OP_WRITE].unseen = 40;
	f = open_memstream(&buf, &len);
	check_int("warnings", report_warnings(f, &r, why), 0);
	fclose(f);
	check_str("warnings: per operation and reason, in this interval", buf,
		  "ext4dist: warning: in this interval 1 read call was not timed: another thread whose id is the same modulo 32768 was in the function at the same time and took its start record\n"
		  "ext4dist: warning: in this interval 40 write calls were not counted: the kernel did not run the entry program for them (the program was still running on that CPU for an earlier call, preempted or interrupted)\n"
		  "ext4dist: warning: in this interval 1 open call was not timed: the return probe never ran (kretprobe instances exhausted: raise --maxactive)\n"
		  "ext4dist: warning: in this interval 1 open call was not counted: the kernel did not run the entry program for it (the program was still running on that CPU for an earlier call, preempted or interrupted)\n"
		  "ext4dist: warning: in this interval 21 fsync calls were not timed: the return probe never ran (kretprobe instances exhausted: raise --maxactive)\n");
	free(buf);

	init_report(&r);
	r.interval = 1;
	r.final = 1;
	r.start_slots = 4096;	/* the size the run chose */
	r.flow[OP_FSYNC].in_flight = 3;
	r.ops[OP_WRITE].stolen = 2;
	r.pid_filter = 1;	/* -p: the kernel's count is of every process */
	r.flow[OP_READ].unseen = 1;
	f = open_memstream(&buf, &len);
	check_int("final warnings", report_warnings(f, &r, why), 0);
	fclose(f);
	check_str("final warnings: calls that never returned", buf,
		  "ext4dist: warning: 1 read call was not counted: the kernel did not run the entry program for it (the program was still running on that CPU for an earlier call, preempted or interrupted), of any process: the kernel does not say whose\n"
		  "ext4dist: warning: 2 write calls were not timed: another thread whose id is the same modulo 4096 was in the function at the same time and took their start records\n"
		  "ext4dist: warning: 3 fsync calls had not returned when tracing stopped: the return probe never ran (kretprobe instances exhausted: raise --maxactive), or they were still running\n");
	free(buf);

	init_report(&r);
	r.flow[OP_READ].entries = 5;	/* all timed: nothing to say */
	f = open_memstream(&buf, &len);
	check_int("no warnings", report_warnings(f, &r, why), 0);
	fclose(f);
	check_int("no warnings: nothing printed", (long long)len, 0);
	free(buf);
}

/* ---- several file systems at once ---- */

static void test_multi_fs(void)
{
	struct report r[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	init_report(&r[0]);
	r[0].ops_mask = 1u << OP_FSYNC;
	HIST(&r[0], OP_FSYNC, 9000000, 0, { 12, 3 });
	init_report(&r[1]);
	r[1].fs_name = "xfs";
	r[1].metric = "xfsdist";
	r[1].ops_mask = (1u << OP_READ) | (1u << OP_WRITE);
	HIST(&r[1], OP_READ, 20000, 0, { 4, 2 });
	r[1].ops[OP_WRITE].errors = 1;
	f = open_memstream(&buf, &len);
	if (!CHECK(f, "two file systems: memstream"))
		return;
	check_int("two file systems: prom", report_prom_all(f, r, 2), 0);
	fclose(f);
	check_golden("two file systems: each its families, labelled fs", buf,
		     len, TEST_GOLDEN "report_prom_two.txt");
	free(buf);
	check_int("two file systems: rendered",
		  report_prom_render(r, 2, &buf, &len), 0);
	check_golden("two file systems: rendered into memory", buf, len,
		     TEST_GOLDEN "report_prom_two.txt");
	free(buf);

	/* The text names the file system above its sections. */
	r[1].multi_fs = 1;
	buf = NULL;
	check_int("multi_fs text", capture(report_text, &r[1], &buf, &len), 0);
	check_str("multi_fs text: file system line", buf,
		  "\nfile system = 'xfs'\n"
		  "\noperation = 'read'\n"
		  "     usecs               : count     distribution\n"
		  "         0 -> 1          : 0        |                                        |\n"
		  "         2 -> 3          : 0        |                                        |\n"
		  "         4 -> 7          : 0        |                                        |\n"
		  "         8 -> 15         : 2        |****************************************|\n"
		  "\noperation = 'write'\n"
		  "not in the histogram: 1 error\n");
	free(buf);

	/* ... and each warning line. */
	r[1].flow[OP_READ].missed = 2;
	r[1].interval = 1;
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!CHECK(f, "multi_fs warnings: memstream"))
		return;
	check_int("multi_fs warnings", report_warnings(f, &r[1], "why"), 0);
	fclose(f);
	check_str("multi_fs warnings: the file system named", buf,
		  "ext4dist: warning: in this interval 2 xfs read calls were not timed: the return probe never ran (why)\n");
	free(buf);
}

static const struct test_case test_cases[] = {
	TEST_CASE(json_checker),
	TEST_CASE(names_bounds),
	TEST_CASE(stars),
	TEST_CASE(percentiles),
	TEST_CASE(extended_line),
	TEST_CASE(text_goldens),
	TEST_CASE(text_small),
	TEST_CASE(json),
	TEST_CASE(prom),
	TEST_CASE(prom_file),
	TEST_CASE(write_errors),
	TEST_CASE(untimed_text),
	TEST_CASE(untimed_json),
	TEST_CASE(warnings),
	TEST_CASE(multi_fs),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	umask(022);
	setenv("TZ", "UTC", 1);	/* fixed timestamps */
	tzset();
	return test_main(argc, argv, test_cases);
}
