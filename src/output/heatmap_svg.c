// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap as one self-contained SVG document (format in heatmap.h):
 * no script, no style sheet, no font or image from elsewhere, so a
 * browser, an image viewer or a mail client shows it as it is.
 */
#include <errno.h>
#include <stdlib.h>

#include "file_replace.h"
#include "loader/util/ilog2.h"
#include "heatmap.h"
#include "numfmt.h"
#include "report.h"

/* Layout, in pixels. */
#define LEFT		84u	/* the latency labels */
#define TOP		48u	/* title and subtitle */
#define BOTTOM		46u	/* the time labels and the axis title */
#define ROW_H		16u
#define GAP		24u	/* between the cells and the legend */
#define LEGEND_W	150u
#define SWATCH_H	14u
#define MIN_PLOT_W	240u
#define PLOT_W		720u	/* what the columns share, within limits */
#define MIN_COL_W	3u
#define MAX_COL_W	28u

struct rgb {
	unsigned int r, g, b;
};

/* Light yellow through orange to dark red: more calls, darker. */
static const struct rgb ramp[3] = {
	{ 254, 232, 154 }, { 244, 121, 41 }, { 150, 10, 40 },
};
static const struct rgb no_calls = { 245, 245, 245 };

/* Class 1..k of a count: 1, 2-3, 4-7...; 0 for none. */
static unsigned int count_class(unsigned long long n)
{
	return n ? ilog2_ull(n) + 1 : 0;
}

static struct rgb class_colour(unsigned int c, unsigned int classes)
{
	unsigned int t, lo;
	struct rgb a, b;

	if (!c)
		return no_calls;
	t = classes > 1 ? (c - 1) * 256 / (classes - 1) : 256;
	lo = t >= 128 ? 1 : 0;
	a = ramp[lo];
	b = ramp[lo + 1];
	t = (t - lo * 128) * 2;	/* 0..256 between a and b */
	return (struct rgb){ (a.r * (256 - t) + b.r * t) / 256,
			     (a.g * (256 - t) + b.g * t) / 256,
			     (a.b * (256 - t) + b.b * t) / 256 };
}

static void put_fill(FILE *f, struct rgb c)
{
	fprintf(f, " fill=\"#%02x%02x%02x\"", c.r, c.g, c.b);
}

void heat_human(char *buf, size_t len, unsigned int k, int milliseconds)
{
	static const char *const units[] = { "ns", "µs", "ms", "s" };
	u128 ns = u128_mul64(u128_shl(u128_of(1), k),
			     milliseconds ? 1000000ULL : 1000ULL);
	u128 scale = u128_of(1), q, x;
	unsigned int u = 0, decimals = 0;
	char digits[NUMFMT_LEN];

	while (u < 3 && u128_cmp(ns, u128_mul64(scale, 1000)) >= 0) {
		scale = u128_mul64(scale, 1000);
		u++;
	}
	q = u128_divmod(ns, scale, NULL);
	if (u128_cmp(q, u128_of(10)) < 0)
		decimals = 2;
	else if (u128_cmp(q, u128_of(100)) < 0)
		decimals = 1;
	/* ns * 10^decimals / scale, rounded half up. */
	x = u128_mul64(ns, decimals == 2 ? 100 : decimals == 1 ? 10 : 1);
	x = u128_divmod(u128_add(u128_mul64(x, 2), scale),
			u128_mul64(scale, 2), NULL);
	if (numfmt_decimal(digits, sizeof(digits), x, decimals, 1) < 0)
		snprintf(digits, sizeof(digits), "?");
	snprintf(buf, len, "%s %s", digits, units[u]);
}

static void put_time(FILE *f, time_t t, const char *fmt)
{
	char buf[32] = "?";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(buf, sizeof(buf), fmt, &tm);
	fputs(buf, f);
}

/* Where column col starts, in whole seconds of the wall clock. */
static time_t col_time(const struct heatmap *h, unsigned long long col)
{
	return h->start +
	       (time_t)(((col << h->shift) * h->step_ns) / 1000000000ULL);
}

/* The cells of a panel and what they span. */
struct grid {
	unsigned int lo, hi;		/* slots drawn: hi = 0 when none */
	unsigned long long max;		/* the largest count */
	unsigned int classes;		/* count_class(max) */
	unsigned int col_w;
};

/* Slot 0 (never filled by the programs) is drawn with slot 1. */
static unsigned long long cell(const struct heatmap *h, unsigned int p,
			       unsigned int col, unsigned int slot)
{
	unsigned long long n = heat_cell(h, p, col, slot);

	return slot == 1 ? n + heat_cell(h, p, col, 0) : n;
}

static void measure(const struct heatmap *h, unsigned int p, struct grid *g)
{
	unsigned int col, s;

	g->lo = NR_SLOTS;
	g->hi = 0;
	g->max = 0;
	for (col = 0; col < h->ncols; col++)
		for (s = 1; s < NR_SLOTS; s++) {
			unsigned long long n = cell(h, p, col, s);

			if (!n)
				continue;
			if (s < g->lo)
				g->lo = s;
			if (s > g->hi)
				g->hi = s;
			if (n > g->max)
				g->max = n;
		}
	g->classes = count_class(g->max);
	g->col_w = h->ncols ? PLOT_W / h->ncols : MAX_COL_W;
	if (g->col_w < MIN_COL_W)
		g->col_w = MIN_COL_W;
	if (g->col_w > MAX_COL_W)
		g->col_w = MAX_COL_W;
}

static unsigned int rows(const struct grid *g)
{
	return g->hi ? g->hi - g->lo + 1 : 0;
}

static unsigned int plot_w(const struct heatmap *h, const struct grid *g)
{
	unsigned int w = g->col_w * h->ncols;

	return w < MIN_PLOT_W ? MIN_PLOT_W : w;
}

static unsigned int panel_h(const struct grid *g)
{
	unsigned int cells = TOP + rows(g) * ROW_H + BOTTOM;
	unsigned int legend = TOP + (g->classes + 2) * SWATCH_H + 10;

	return cells > legend ? cells : legend;
}

static unsigned int panel_w(const struct heatmap *h, const struct grid *g)
{
	return LEFT + plot_w(h, g) + GAP + LEGEND_W;
}

static void put_cell(FILE *f, const struct heatmap *h, unsigned int p,
		     const struct grid *g, unsigned int col, unsigned int s)
{
	const char *unit = report_unit(h->milliseconds);
	unsigned long long n = cell(h, p, col, s), low, high;

	report_slot_bounds(s, &low, &high);
	fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\"",
		LEFT + col * g->col_w, TOP + (g->hi - s) * ROW_H, g->col_w,
		ROW_H);
	put_fill(f, class_colour(count_class(n), g->classes));
	fprintf(f, " data-col=\"%u\" data-slot=\"%u\" data-count=\"%llu\"><title>",
		col, s, n);
	put_time(f, col_time(h, col), "%H:%M:%S");
	fputs(" to ", f);
	put_time(f, col_time(h, col + 1), "%H:%M:%S");
	fprintf(f, ", %llu -> %llu %s: %llu call%s</title></rect>\n", low, high,
		unit, n, n == 1 ? "" : "s");
}

/* The latency axis: each row's lower bound at its lower edge, the top's. */
static void put_latency_axis(FILE *f, const struct heatmap *h,
			     const struct grid *g)
{
	char label[48];
	unsigned int s;

	for (s = g->lo; s <= g->hi + 1; s++) {
		unsigned int y = TOP + (g->hi + 1 - s) * ROW_H;

		if (s == 1)
			snprintf(label, sizeof(label), "0");
		else
			heat_human(label, sizeof(label), s - 1,
				   h->milliseconds);
		fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#888\"/>\n",
			LEFT - 4, y, LEFT, y);
		fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\" font-size=\"10\">%s</text>\n",
			LEFT - 6, y + 3, label);
	}
	fprintf(f, "<text transform=\"translate(14,%u) rotate(-90)\" text-anchor=\"middle\">latency (log2 buckets)</text>\n",
		TOP + rows(g) * ROW_H / 2);
}

/* The time axis: a label every few columns, where there is room. */
static void put_time_axis(FILE *f, const struct heatmap *h,
			  const struct grid *g)
{
	unsigned int every = (64 + g->col_w - 1) / g->col_w, col;
	unsigned int y = TOP + rows(g) * ROW_H;
	unsigned long long span = (h->step_ns << h->shift) / 1000000000ULL;

	for (col = 0; col <= h->ncols; col += every) {
		unsigned int x = LEFT + col * g->col_w;

		fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#888\"/>\n",
			x, y, x, y + 4);
		fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\" font-size=\"10\">",
			x, y + 15);
		put_time(f, col_time(h, col), "%H:%M:%S");
		fputs("</text>\n", f);
	}
	fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">time (a column per %llu s%s)</text>\n",
		LEFT + g->col_w * h->ncols / 2, y + 34, span,
		h->events ? ", each call at its end" : "");
}

static void put_legend(FILE *f, const struct grid *g, unsigned int x)
{
	unsigned int c, y = TOP;

	fprintf(f, "<text x=\"%u\" y=\"%u\">calls in a cell</text>\n", x,
		y - 6);
	for (c = 0; c <= g->classes; c++, y += SWATCH_H) {
		unsigned long long lo = c ? 1ULL << (c - 1) : 0;
		unsigned long long hi = c ? (lo << 1) - 1 : 0;

		if (c && hi > g->max)
			hi = g->max;
		fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"18\" height=\"%u\"",
			x, y, SWATCH_H - 2);
		put_fill(f, class_colour(c, g->classes));
		fputs(" stroke=\"#ccc\"/>\n", f);
		fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"10\">", x + 24,
			y + SWATCH_H - 4);
		if (lo == hi)
			fprintf(f, "%llu", lo);
		else
			fprintf(f, "%llu to %llu", lo, hi);
		fputs("</text>\n", f);
	}
}

static void put_panel(FILE *f, const struct heatmap *h, unsigned int p,
		      unsigned int y)
{
	const struct heat_panel *hp = &h->panels[p];
	unsigned int col, s;
	struct grid g;

	measure(h, p, &g);
	fprintf(f, "<svg x=\"0\" y=\"%u\" width=\"%u\" height=\"%u\" id=\"%s-%s\" data-rows=\"%u\" data-cols=\"%u\">\n",
		y, panel_w(h, &g), panel_h(&g), hp->fs,
		report_op_name(hp->op), rows(&g), h->ncols);
	fprintf(f, "<text x=\"%u\" y=\"18\" font-size=\"14\" font-weight=\"bold\">%s %s latency</text>\n",
		LEFT, hp->fs, report_op_name(hp->op));
	fprintf(f, "<text x=\"%u\" y=\"34\">from ", LEFT);
	put_time(f, h->start, "%Y-%m-%d %H:%M:%S");
	fprintf(f, ", %u column%s</text>\n", h->ncols,
		h->ncols == 1 ? "" : "s");
	if (!g.hi) {
		fprintf(f, "<text x=\"%u\" y=\"%u\">no call timed</text>\n",
			LEFT, TOP + 12);
	} else {
		for (s = g.hi; s >= g.lo; s--)
			for (col = 0; col < h->ncols; col++)
				put_cell(f, h, p, &g, col, s);
		put_latency_axis(f, h, &g);
		put_time_axis(f, h, &g);
	}
	put_legend(f, &g, LEFT + plot_w(h, &g) + GAP);
	fputs("</svg>\n", f);
}

int heat_svg(FILE *f, const struct heatmap *h)
{
	unsigned int p, w = 0, height = 0;
	struct grid g;

	for (p = 0; p < h->npanels; p++) {
		measure(h, p, &g);
		if (panel_w(h, &g) > w)
			w = panel_w(h, &g);
		height += panel_h(&g);
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" font-family=\"sans-serif\" font-size=\"11\" data-start=\"%lld\" data-start-ns=\"%llu\" data-step-ns=\"%llu\">\n",
		w, height, w, height, (long long)h->start, h->start_ns,
		h->step_ns << h->shift);
	fprintf(f, "<rect width=\"%u\" height=\"%u\" fill=\"#ffffff\"/>\n", w,
		height);
	for (p = 0, height = 0; p < h->npanels; p++) {
		put_panel(f, h, p, height);
		measure(h, p, &g);
		height += panel_h(&g);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

int heat_write_file(const char *path, const struct heatmap *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int err;

	if (!m)
		return -errno;
	err = heat_svg(m, h);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (!err)
		err = file_replace(path, buf, len);
	free(buf);
	return err;
}
