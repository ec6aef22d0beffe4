// SPDX-License-Identifier: GPL-2.0
/*
 * The line_info a listing reads, and only that: .BTF.ext holds the
 * source lines of every program, one block per program section (a
 * section name and its records), some 150 KiB of the object, where a
 * listing of one program reads a few hundred bytes of it.  The lines'
 * gzip member is inflated once through a scratch buffer while this
 * walks its blocks, then again writing .BTF, .BTF.ext's header and the
 * blocks kept; the others stay zero, which btf_lines.c reads as empty
 * blocks of no name (8 zero bytes each: hence records of a multiple of
 * 8 bytes, as clang writes them).
 */
#include "tool/engine/bpf_blob_lines.h"

#include <string.h>
#include <linux/btf.h>

#include "loader/obj/btf_lines.h"
#include "loader/util/byteorder.h"

enum { STEP_BTF, STEP_EXT, STEP_REC, STEP_SEC, STEP_DONE, STEP_FAILED };

static void want(struct ext_walk *w, int step, size_t at, size_t need)
{
	w->step = step;
	w->at = at;
	w->need = need;
	w->got = 0;
}

/* [a, b) written, joined to the range before when they touch. */
static int keep_range(struct ranges *rg, size_t a, size_t b)
{
	if (rg->n && rg->end[rg->n - 1] == a) {
		rg->end[rg->n - 1] = b;
		return 0;
	}
	if (rg->n == RANGES_MAX)
		return -1;
	rg->start[rg->n] = a;
	rg->end[rg->n] = b;
	rg->n++;
	return 0;
}

/* Everything after line_info is kept (CO-RE records, padding). */
static void finish(struct ext_walk *w)
{
	if (w->li_end < w->len && keep_range(w->rg, w->li_end, w->len))
		w->step = STEP_FAILED;
	else
		w->step = STEP_DONE;
}

static void on_btf(struct ext_walk *w)
{
	struct btf_header h;

	memcpy(&h, w->buf, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) || !h.str_len ||
	    h.hdr_len > w->ext ||
	    (uint64_t)h.str_off + h.str_len > w->ext - h.hdr_len) {
		w->step = STEP_FAILED;
		return;
	}
	/* Written by the time .BTF.ext's blocks go by. */
	w->strs = (const char *)w->member + h.hdr_len + h.str_off;
	w->str_len = h.str_len;
	want(w, STEP_EXT, w->ext, sizeof(struct btf_ext_hdr));
}

static void on_ext(struct ext_walk *w)
{
	struct btf_ext_hdr h;
	size_t li;

	memcpy(&h, w->buf, sizeof(h));
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof(h) ||
	    h.hdr_len > w->ext_len || h.line_info_len < 4 ||
	    (uint64_t)h.line_info_off + h.line_info_len > w->ext_len - h.hdr_len ||
	    w->strs[w->str_len - 1] != '\0') {
		w->step = STEP_FAILED;
		return;
	}
	li = w->ext + h.hdr_len + h.line_info_off;
	w->li_end = li + h.line_info_len;
	/* .BTF, .BTF.ext's header, func_info and the record size. */
	if (keep_range(w->rg, 0, li + 4)) {
		w->step = STEP_FAILED;
		return;
	}
	want(w, STEP_REC, li, 4);
}

static void on_rec(struct ext_walk *w)
{
	w->rec_size = get_bo32(w->buf, 0);
	if (w->rec_size < 16 || w->rec_size % 8) {
		w->step = STEP_FAILED;
		return;
	}
	if (w->at + 4 == w->li_end)
		finish(w);
	else
		want(w, STEP_SEC, w->at + 4, 8);
}

static void on_sec(struct ext_walk *w)
{
	uint32_t name = get_bo32(w->buf, 0), num = get_bo32(w->buf + 4, 0);
	uint64_t end = w->at + 8 + (uint64_t)num * w->rec_size;

	if (name >= w->str_len || end > w->li_end ||
	    (w->keep(w->strs + name, w->arg) &&
	     keep_range(w->rg, w->at, (size_t)end))) {
		w->step = STEP_FAILED;
		return;
	}
	if (end == w->li_end)
		finish(w);
	else
		want(w, STEP_SEC, (size_t)end, 8);
}

void ext_walk_init(struct ext_walk *w, const unsigned char *member,
		   size_t len, size_t ext, size_t ext_len,
		   int (*keep)(const char *, void *), void *arg,
		   struct ranges *rg)
{
	memset(w, 0, sizeof(*w));
	w->member = member;
	w->len = len;
	w->ext = ext;
	w->ext_len = ext_len;
	w->keep = keep;
	w->arg = arg;
	w->rg = rg;
	rg->n = 0;
	want(w, STEP_BTF, 0, sizeof(struct btf_header));
	if (ext > len || ext_len > len - ext)
		w->step = STEP_FAILED;
}

void ext_walk_seen(struct ext_walk *w, size_t pos, const unsigned char *b,
		   size_t n)
{
	static void (*const on[])(struct ext_walk *) = {
		[STEP_BTF] = on_btf, [STEP_EXT] = on_ext,
		[STEP_REC] = on_rec, [STEP_SEC] = on_sec,
	};

	while (w->step < STEP_DONE) {
		size_t next = w->at + w->got, k;

		if (next < pos) {
			w->step = STEP_FAILED;
			return;
		}
		if (next >= pos + n)
			return;
		k = w->need - w->got;
		if (k > pos + n - next)
			k = pos + n - next;
		memcpy(w->buf + w->got, b + (next - pos), k);
		w->got += k;
		if (w->got == w->need)
			on[w->step](w);
	}
}

int ext_walk_done(struct ext_walk *w)
{
	if (w->step == STEP_DONE)
		return 0;
	w->rg->n = 0;
	return -1;
}
