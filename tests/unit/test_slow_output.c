// SPDX-License-Identifier: GPL-2.0
/*
 * Slow mode's lines against golden files that
 * tests/unit/golden/make_slow_golden.py renders with BCC ext4slower's
 * format strings in Python: text, CSV, and --json.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/slow.h"
#include "output/utf8.h"
#include "test.h"

#define NOW ((time_t)1796237615)

struct ev_in {
	unsigned long long end_ns, delta_ns, pos;
	long long ret;
	unsigned int tgid, tid, op;
	const char *comm;
	const char *name;	/* NULL: not read */
	size_t name_len;	/* bytes of name (a full one has no NUL) */
};

/* The events of make_slow_golden.py, in its order. */
static const struct ev_in events[] = {
	{ 123456789012345ULL, 10500000, 8192, 4096, 1234, 1234, OP_READ,
	  "dd", "file1.dat", 9 },
	{ 123456799000000ULL, 1005999, 5000, 1048576, 99999, 100001, OP_WRITE,
	  "a-very-long-com", "log with spaces", 15 },
	{ 123456800000000ULL, 123456789000ULL, 0, 0, 1, 1, OP_OPEN, "bash",
	  "abcdefghijklmnopqrstuvwxyz012345", 32 },
	{ 123456800000001ULL, 999, 0, -5, 4194303, 4194303, OP_FSYNC,
	  "fsync-er", NULL, 0 },
	{ 123456800000002ULL, 2500000, 1ULL << 40, -529, 77, 78, OP_WRITE,
	  "\xc3\xa9\xe6\xbc\xa2\xe5\xad\x97-\xe6\xbc", "caf\xe9.txt", 8 },
	{ 123456800000003ULL, 20000000, 1023, 100, 5, 5, OP_READ,
	  "ctl\x01\x7f", "q\"b\\s\n", 6 },
	/* Terminal commands, a forged line and field, a lone 0x9b byte. */
	{ 123456800000004ULL, 30000000, 0, 7, 66, 66, OP_WRITE,
	  "\x1b[31mred,\ttab", "x\xc2\x9b" "2J,1,R\r\n9\x9b", 14 },
};

#define NR_EVENTS (sizeof(events) / sizeof(events[0]))

static void make_event(const struct ev_in *in, struct slow_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->end_ns = in->end_ns;
	ev->delta_ns = in->delta_ns;
	ev->pos = in->pos;
	ev->ret = in->ret;
	ev->tgid = in->tgid;
	ev->tid = in->tid;
	ev->op = in->op;
	memcpy(ev->comm, in->comm, strlen(in->comm));
	if (in->name) {
		memcpy(ev->name, in->name, in->name_len);
		ev->flags = SLOW_NAME_READ;
	}
}

static void render(enum slow_format fmt, unsigned long min_ms,
		   size_t nr_events, const char *golden, const char *name)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	struct slow_event ev;
	int err;

	if (!CHECK(f, "open_memstream"))
		return;
	err = slow_header(f, fmt, "ext4", min_ms);
	for (i = 0; !err && i < nr_events; i++) {
		make_event(&events[i], &ev);
		err = slow_event_print(f, fmt, &ev, NOW);
	}
	fclose(f);
	check_int(name, err, 0);
	check_golden(name, buf, len, golden);
	free(buf);
}

static void test_text(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	render(SLOW_TEXT, 10, NR_EVENTS, TEST_GOLDEN "slow_text.txt", "text lines");
	render(SLOW_TEXT, 0, 0, TEST_GOLDEN "slow_text_all.txt",
	       "min_ms 0: banner without a threshold");
}

static void test_csv(void)
{
	render(SLOW_CSV, 10, NR_EVENTS, TEST_GOLDEN "slow_csv.txt", "CSV lines");
}

static void test_json(void)
{
	render(SLOW_JSON, 10, NR_EVENTS, TEST_GOLDEN "slow_json.txt", "JSON lines");
}

static void test_letters(void)
{
	check_int("R", slow_op_letter(OP_READ), 'R');
	check_int("W", slow_op_letter(OP_WRITE), 'W');
	check_int("O", slow_op_letter(OP_OPEN), 'O');
	check_int("S", slow_op_letter(OP_FSYNC), 'S');
	check_int("past the end", slow_op_letter(NR_OPS), '?');
}

/* Python's decode('utf-8', 'replace'), one maximal subpart at a time. */
static void test_utf8(void)
{
	char out[64];

	check_int("ascii points", (long long)utf8_clean("abc", 3, out, sizeof(out)), 3);
	check_str("ascii", out, "abc");
	utf8_clean("a\xe6\xbc" "b", 4, out, sizeof(out));
	check_str("truncated sequence: one replacement", out,
		  "a" UTF8_REPLACEMENT "b");
	utf8_clean("\xed\xa0\x80", 3, out, sizeof(out));
	check_str("surrogate: three replacements", out,
		  UTF8_REPLACEMENT UTF8_REPLACEMENT UTF8_REPLACEMENT);
	utf8_clean("\xf0\x9f\x98\x80!", 5, out, sizeof(out));
	check_str("4-byte sequence kept", out, "\xf0\x9f\x98\x80!");
	utf8_clean("\xc0\xaf", 2, out, sizeof(out));
	check_str("overlong: two replacements", out,
		  UTF8_REPLACEMENT UTF8_REPLACEMENT);
	utf8_clean("ab\0cd", 5, out, sizeof(out));
	check_str("stops at NUL", out, "ab");
	utf8_clean("\xe6\xbc\xa2\xe5\xad\x97", 6, out, 4);
	check_str("no partial character in a short buffer", out, "\xe6\xbc\xa2");
}

/* field(s, width, prec, also): utf8_put_field()'s bytes. */
static const char *field(const char *s, int width, int prec, const char *also)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		return "(fmemopen failed)";
	utf8_put_field(f, s, width, prec, also);
	fclose(f);
	return buf;
}

/*
 * The escapes of text and CSV: C0, DEL and C1 (U+0080-U+009F, in UTF-8
 * 0xc2 0x80-0x9f) as \xHH, a backslash doubled, also's characters; the
 * width and precision count characters before escaping.
 */
static void test_escapes(void)
{
	check_str("plain", field("abc", 5, 5, NULL), "abc  ");
	check_str("ESC, newline, CR, tab", field("\x1b[2J\n\r\t", 0, -1, NULL),
		  "\\x1b[2J\\x0a\\x0d\\x09");
	check_str("every C0 boundary and DEL", field("\x01\x1f\x20\x7e\x7f", 0, -1, NULL),
		  "\\x01\\x1f ~\\x7f");
	check_str("C1: NEL, CSI, the last", field("\xc2\x85\xc2\x9b\xc2\x9f", 0, -1, NULL),
		  "\\x85\\x9b\\x9f");
	check_str("U+00A0 and U+0080's neighbours kept",
		  field("\xc2\xa0\xc3\x80", 0, -1, NULL), "\xc2\xa0\xc3\x80");
	check_str("backslash doubled: an escape cannot be forged",
		  field("a\\x1b", 0, -1, NULL), "a\\\\x1b");
	check_str("CSV: a comma too", field("a,b\n", 0, -1, ","),
		  "a\\x2cb\\x0a");
	check_str("text: commas kept", field("a,b", 0, -1, NULL), "a,b");
	check_str("width and precision count characters",
		  field("\x1b\x1b\x1bxyz", 5, 4, NULL),
		  "\\x1b\\x1b\\x1bx ");
}

static const struct test_case test_cases[] = {
	TEST_CASE(text),
	TEST_CASE(csv),
	TEST_CASE(json),
	TEST_CASE(letters),
	TEST_CASE(utf8),
	TEST_CASE(escapes),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
