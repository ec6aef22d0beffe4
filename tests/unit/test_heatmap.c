// SPDX-License-Identifier: GPL-2.0
/*
 * The latency heatmap (src/output/heatmap.c, heatmap_svg.c) on plain
 * arrays: the grid's columns, their folding past HEAT_MAX_COLS with no
 * call lost, the slot of an event's latency against the programs' own
 * (bpf/log2.h), the human units of the axis, and the SVG: a golden file,
 * and its structure read back (a cell per column and bucket, each count
 * in its data-count and its title, the rows the panel says).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../bpf/log2.h"
#include "output/heatmap.h"
#include "test.h"

static const struct heat_panel two[] = {
	{ "ext4", OP_READ }, { "ext4", OP_FSYNC },
};

static unsigned long long total(const struct heatmap *h, unsigned int p)
{
	unsigned long long n = 0;
	unsigned int c, s;

	for (c = 0; c < h->ncols; c++)
		for (s = 0; s < NR_SLOTS; s++)
			n += heat_cell(h, p, c, s);
	return n;
}

static void test_grid(void)
{
	struct heatmap h;
	struct op_hist hist;

	check_int("init: no panel", heat_init(&h, two, 0, 0, 0, 1, 0),
		  -EINVAL);
	check_int("init: no step", heat_init(&h, two, 2, 0, 0, 0, 0), -EINVAL);
	check_int("init", heat_init(&h, two, 2, 1000, 0, 1000000000ULL, 0), 0);
	check_int("empty: no column", h.ncols, 0);
	check_int("extend to 3 columns", heat_extend(&h, 3), 0);
	check_int("3 columns", h.ncols, 3);
	memset(&hist, 0, sizeof(hist));
	hist.slots[1] = 2;
	hist.slots[9] = 40;
	check_int("interval 4's histogram", heat_add_hist(&h, 0, 4, &hist), 0);
	check_int("5 columns, interval 3 empty", h.ncols, 5);
	check_int("cell (4, 9)", (long long)heat_cell(&h, 0, 4, 9), 40);
	check_int("cell (3, 9)", (long long)heat_cell(&h, 0, 3, 9), 0);
	check_int("the other panel untouched", (long long)total(&h, 1), 0);
	check_int("panel of ext4 fsync", heat_panel_of(&h, "ext4", OP_FSYNC),
		  1);
	check_int("panel of xfs read", heat_panel_of(&h, "xfs", OP_READ),
		  -ENOENT);
	check_int("slot 64 refused", heat_add(&h, 0, 0, NR_SLOTS, 1), -EINVAL);
	check_int("panel 2 refused", heat_add(&h, 2, 0, 1, 1), -EINVAL);
	heat_free(&h);
}

/* Past HEAT_MAX_COLS, columns pair up: no count lost, none moved. */
static void test_fold(void)
{
	struct heatmap h;
	unsigned long long col, want = 0;
	int err = 0;

	heat_init(&h, two, 2, 0, 0, 1000000000ULL, 0);
	for (col = 0; col < 3 * HEAT_MAX_COLS + 7 && !err; col++) {
		err = heat_add(&h, 0, col, (unsigned int)(col % 7) + 1, col + 1);
		want += col + 1;
	}
	check_int("3 * max + 7 base columns added", err, 0);
	check_int("folded twice: a column spans 4", h.shift, 2);
	check_int("columns", h.ncols, (3 * HEAT_MAX_COLS + 7 + 3) / 4);
	check_int("every call kept", (long long)total(&h, 0), (long long)want);
	/* base columns 0..3 in column 0: slots 1..4, counts 1..4 */
	check_int("column 0 slot 1", (long long)heat_cell(&h, 0, 0, 1), 1);
	check_int("column 0 slot 4", (long long)heat_cell(&h, 0, 0, 4), 4);
	/* base 4..7: slots 5, 6, 7, 1 */
	check_int("column 1 slot 1 (base 7)", (long long)heat_cell(&h, 0, 1, 1),
		  8);
	check_int("allocation bounded", h.cap <= HEAT_MAX_COLS, 1);
	heat_free(&h);
}

static void test_slot(void)
{
	static const unsigned long long deltas[] = {
		0, 999, 1000, 1999, 2000, 3999, 4000, 1234567, 1 << 20,
		(1ULL << 40) + 5, 999999999999ULL, (1ULL << 62) + 1,
	};
	unsigned int i, bad = 0;
	struct heatmap h;

	for (i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
		if (heat_slot(deltas[i], 1000) != log2_slot(deltas[i], 1000))
			bad++;
		if (heat_slot(deltas[i], 1000000) !=
		    log2_slot(deltas[i], 1000000))
			bad++;
	}
	check_int("event slots as the programs' log2_slot", bad, 0);
	check_int("1.999 us: slot 1", heat_slot(1999, 1000), 1);
	check_int("128 us: slot 8", heat_slot(128000, 1000), 8);

	heat_init(&h, two, 2, 0, 5000000000ULL, 1000000000ULL, 0);
	h.events = 1;
	check_int("event before the start", heat_add_event(&h, 1, 1, 3000), 0);
	check_int("event at 7.5 s", heat_add_event(&h, 1, 12500000000ULL,
						    300000), 0);
	check_int("column 0, slot 2", (long long)heat_cell(&h, 1, 0, 2), 1);
	check_int("column 7, slot 9", (long long)heat_cell(&h, 1, 7, 9), 1);
	check_int("8 columns", h.ncols, 8);
	heat_free(&h);
}

static void test_human(void)
{
	static const struct {
		unsigned int k;
		int ms;
		const char *want;
	} cases[] = {
		{ 0, 0, "1 µs" }, { 1, 0, "2 µs" }, { 9, 0, "512 µs" },
		{ 10, 0, "1.02 ms" }, { 12, 0, "4.1 ms" }, { 16, 0, "65.5 ms" },
		{ 17, 0, "131 ms" }, { 20, 0, "1.05 s" }, { 30, 0, "1074 s" },
		{ 0, 1, "1 ms" }, { 10, 1, "1.02 s" }, { 63, 1,
		  "9223372036854776 s" },
	};
	unsigned int i;
	char buf[64], name[64];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		heat_human(buf, sizeof(buf), cases[i].k, cases[i].ms);
		snprintf(name, sizeof(name), "2^%u %s", cases[i].k,
			 cases[i].ms ? "ms" : "us");
		check_str(name, buf, cases[i].want);
	}
}

static void sample(struct heatmap *h)
{
	heat_init(h, two, 2, 1700000000, 0, 5000000000ULL, 0);
	heat_add(h, 0, 0, 3, 1);
	heat_add(h, 0, 0, 4, 6);
	heat_add(h, 0, 2, 4, 100);
	heat_add(h, 0, 2, 1, 2);
	heat_add(h, 0, 2, 0, 1);	/* drawn with slot 1 */
	heat_extend(h, 4);
}

/*
 * The cells of a panel read back from the SVG: how many, and whether
 * each data-count is the grid's and its title says the same.
 */
static void read_cells(const char *svg, const struct heatmap *h,
		       unsigned int p, unsigned int want_cells)
{
	char id[32], name[96];
	const char *at, *end;
	unsigned int n = 0, bad = 0, rows = 0, cols = 0;

	snprintf(id, sizeof(id), "id=\"%s-%s\"", h->panels[p].fs,
		 p == 0 ? "read" : "fsync");
	at = strstr(svg, id);
	if (!CHECK(at, "panel found"))
		return;
	sscanf(at + strlen(id), " data-rows=\"%u\" data-cols=\"%u\"", &rows,
	       &cols);
	end = strstr(at, "</svg>");
	while ((at = strstr(at, "<rect x=")) && end && at < end) {
		unsigned int col, slot;
		unsigned long long cnt, want;
		const char *d = strstr(at, "data-col="), *t;
		char title_end[48];

		if (!d || d > strstr(at, ">"))
			break;	/* a legend swatch: no data */
		sscanf(d, "data-col=\"%u\" data-slot=\"%u\" data-count=\"%llu\"",
		       &col, &slot, &cnt);
		want = heat_cell(h, p, col, slot) +
		       (slot == 1 ? heat_cell(h, p, col, 0) : 0);
		snprintf(title_end, sizeof(title_end), ": %llu call%s</title>",
			 cnt, cnt == 1 ? "" : "s");
		t = strstr(at, "</title>");
		if (cnt != want || !t ||
		    strncmp(t - strlen(title_end) + strlen("</title>"),
			    title_end, strlen(title_end)))
			bad++;
		n++;
		at++;
	}
	snprintf(name, sizeof(name), "%s: cells", id);
	check_int(name, n, want_cells);
	snprintf(name, sizeof(name), "%s: counts and titles", id);
	check_int(name, bad, 0);
	snprintf(name, sizeof(name), "%s: rows x columns", id);
	check_int(name, rows * cols, want_cells);
}

static void test_svg(void)
{
	struct heatmap h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	sample(&h);
	f = open_memstream(&buf, &len);
	if (!CHECK(f, "svg: memstream"))
		return;
	check_int("svg", heat_svg(f, &h), 0);
	fclose(f);
	check_golden("svg: golden", buf, len, TEST_GOLDEN "heatmap.svg");
	/* slots 1..4 drawn (slot 0 with 1), 4 columns */
	read_cells(buf, &h, 0, 4 * 4);
	read_cells(buf, &h, 1, 0);
	CHECK(strstr(buf, ">no call timed</text>"), "svg: an empty panel says so");
	CHECK(!strstr(buf, "<script") && !strstr(buf, "href"),
	      "svg: self-contained (no script, no link)");
	free(buf);
	heat_free(&h);
}

static void test_svg_file(void)
{
	const char *dir = test_tmpdir("heatmap");
	struct heatmap h;
	char *text;
	size_t len;

	if (!CHECK(dir, "svg file: temporary directory"))
		return;
	sample(&h);
	check_int("svg file", heat_write_file(test_tmp_path("h.svg"), &h), 0);
	text = test_read_file(test_tmp_path("h.svg"), &len);
	check_golden("svg file: content", text ? text : "", text ? len : 0,
		     TEST_GOLDEN "heatmap.svg");
	free(text);
	check_int("svg file: a directory refused",
		  heat_write_file(dir, &h), -EISDIR);
	heat_free(&h);
	unlink(test_tmp_path("h.svg"));
	rmdir(dir);
}

static const struct test_case test_cases[] = {
	TEST_CASE(grid),
	TEST_CASE(fold),
	TEST_CASE(slot),
	TEST_CASE(human),
	TEST_CASE(svg),
	TEST_CASE(svg_file),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return test_main(argc, argv, test_cases);
}
