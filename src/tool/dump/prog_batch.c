// SPDX-License-Identifier: GPL-2.0
/*
 * A listing of every program used to hold the whole object inflated
 * (370 KB with its source lines) while it printed.  A batch holds the
 * object's section headers, symbols, relocations and .BTF (some 45 KB), the
 * batch's code and the line_info of its programs alone (bpf_blob_running()
 * with keep); the price is inflating the object again for each batch
 * (the full listing: 12 batches, 43 ms instead of 12 on the build host).
 */
#include "tool/dump/prog_batch.h"

#include <string.h>

/* Bytes of code a batch holds at most, but for a longer single program. */
#define BATCH_BYTES 16384

int prog_batch_none(const char *section, void *arg)
{
	(void)section;
	(void)arg;
	return 0;
}

static int wanted(const struct prog_batch *b, size_t i)
{
	return !b->want || b->want(&b->names->progs[i], b->arg);
}

static int in_batch(const char *section, void *arg)
{
	const struct prog_batch *b = arg;
	size_t i;

	for (i = b->first; i < b->end; i++)
		if (wanted(b, i) && !strcmp(b->names->progs[i].section, section))
			return 1;
	return 0;
}

int prog_batch_next(struct prog_batch *b, int lines, struct errbuf *eb)
{
	struct obj_parse_opts o = { .borrow = 1, .keep = in_batch, .arg = b };
	size_t n = b->names->nr_progs, bytes = 0;
	int err;

	prog_batch_end(b);
	b->first = b->end;
	while (b->first < n && !wanted(b, b->first))
		b->first++;
	if (b->first == n)
		return 0;
	for (b->end = b->first; b->end < n; b->end++) {
		size_t size = b->names->progs[b->end].insn_cnt *
			      sizeof(struct bpf_insn);

		if (!wanted(b, b->end))
			continue;
		if (bytes && bytes + size > BATCH_BYTES)
			break;
		bytes += size;
	}
	o.lines = lines;
	err = bpf_blob_running(lines, in_batch, b, &b->blob, eb);
	if (err)
		return err;
	err = bpf_obj_parse_in(b->blob.data, b->blob.size, &o, &b->obj, eb);
	if (err) {
		bpf_blob_release(&b->blob);
		return err;
	}
	b->parsed = 1;
	return 1;
}

void prog_batch_end(struct prog_batch *b)
{
	if (b->parsed)
		bpf_obj_free(&b->obj);
	b->parsed = 0;
	/* The next batch maps the text it runs anew (text_pages.c). */
	if (b->blob.data)
		bpf_blob_release(&b->blob);
}
