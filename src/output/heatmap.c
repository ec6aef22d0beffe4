// SPDX-License-Identifier: GPL-2.0
/* The heatmap's grid of counts (the picture: heatmap_svg.c). */
#include "heatmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int heat_init(struct heatmap *h, const struct heat_panel *p, unsigned int n,
	      time_t start, unsigned long long start_ns,
	      unsigned long long step_ns, int milliseconds)
{
	memset(h, 0, sizeof(*h));
	if (!n || n > HEAT_MAX_PANELS || !step_ns)
		return -EINVAL;
	memcpy(h->panels, p, n * sizeof(*p));
	h->npanels = n;
	h->start = start;
	h->start_ns = start_ns;
	h->step_ns = step_ns;
	h->milliseconds = milliseconds;
	return 0;
}

void heat_free(struct heatmap *h)
{
	free(h->cells);
	h->cells = NULL;
	h->cap = h->ncols = 0;
}

static size_t col_cells(const struct heatmap *h)
{
	return (size_t)h->npanels * NR_SLOTS;
}

/* Columns added in pairs: each column now spans twice the time. */
static void fold(struct heatmap *h)
{
	size_t w = col_cells(h), i;
	unsigned int c;

	for (c = 0; c < h->ncols; c++) {
		unsigned long long *dst = h->cells + (c / 2) * w;
		const unsigned long long *src = h->cells + c * w;

		if (c % 2 == 0) {
			memmove(dst, src, w * sizeof(*dst));
			continue;
		}
		for (i = 0; i < w; i++)
			dst[i] += src[i];
	}
	h->ncols = (h->ncols + 1) / 2;
	memset(h->cells + h->ncols * w, 0,
	       (h->cap - h->ncols) * w * sizeof(*h->cells));
	h->shift++;
}

/* The column of base column base, the grid grown (or folded) to hold it. */
static int column(struct heatmap *h, unsigned long long base)
{
	unsigned long long col;
	size_t w = col_cells(h);

	while ((base >> h->shift) >= HEAT_MAX_COLS)
		fold(h);
	col = base >> h->shift;
	if (col >= h->cap) {
		unsigned int cap = h->cap ? h->cap : 16;
		unsigned long long *cells;

		while (cap <= col)
			cap *= 2;
		if (cap > HEAT_MAX_COLS)
			cap = HEAT_MAX_COLS;
		cells = realloc(h->cells, cap * w * sizeof(*cells));
		if (!cells)
			return -ENOMEM;
		memset(cells + h->cap * w, 0,
		       (cap - h->cap) * w * sizeof(*cells));
		h->cells = cells;
		h->cap = cap;
	}
	if (col >= h->ncols)
		h->ncols = (unsigned int)col + 1;
	return (int)col;
}

int heat_extend(struct heatmap *h, unsigned long long n)
{
	int col = n ? column(h, n - 1) : 0;

	return col < 0 ? col : 0;
}

int heat_add(struct heatmap *h, unsigned int panel, unsigned long long col,
	     unsigned int slot, unsigned long long count)
{
	int c;

	if (panel >= h->npanels || slot >= NR_SLOTS)
		return -EINVAL;
	c = column(h, col);
	if (c < 0)
		return c;
	h->cells[(size_t)c * col_cells(h) + (size_t)panel * NR_SLOTS + slot] += count;
	return 0;
}

int heat_add_hist(struct heatmap *h, unsigned int panel,
		  unsigned long long col, const struct op_hist *hist)
{
	unsigned int s;
	int err = heat_extend(h, col + 1);

	for (s = 0; s < NR_SLOTS && !err; s++)
		if (hist->slots[s])
			err = heat_add(h, panel, col, s, hist->slots[s]);
	return err;
}

unsigned int heat_slot(unsigned long long delta_ns, unsigned long long factor)
{
	unsigned long long units = delta_ns / factor;
	unsigned int slot = 1;

	while (units >= 2) {
		units >>= 1;
		slot++;
	}
	return slot;
}

int heat_add_event(struct heatmap *h, unsigned int panel,
		   unsigned long long end_ns, unsigned long long delta_ns)
{
	unsigned long long col = end_ns > h->start_ns ?
				 (end_ns - h->start_ns) / h->step_ns : 0;

	return heat_add(h, panel, col,
			heat_slot(delta_ns, h->milliseconds ? 1000000ULL :
							      1000ULL), 1);
}

int heat_panel_of(const struct heatmap *h, const char *fs, unsigned int op)
{
	unsigned int i;

	for (i = 0; i < h->npanels; i++)
		if (h->panels[i].op == op && strcmp(h->panels[i].fs, fs) == 0)
			return (int)i;
	return -ENOENT;
}

unsigned long long heat_cell(const struct heatmap *h, unsigned int panel,
			     unsigned int col, unsigned int slot)
{
	if (panel >= h->npanels || col >= h->ncols || slot >= NR_SLOTS)
		return 0;
	return h->cells[(size_t)col * col_cells(h) + (size_t)panel * NR_SLOTS +
			slot];
}
