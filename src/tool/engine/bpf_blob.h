/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF objects compiled from bpf/ext4dist.bpf.c, linked into the binary. */
#ifndef EXT4DIST_TOOL_BPF_BLOB_H
#define EXT4DIST_TOOL_BPF_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "loader/util/errbuf.h"

/*
 * For kernels of this binary's architecture: embedded compressed
 * (bpf_blob.S), inflated here by ext4dist_bpf_obj_size() or
 * bpf_blob_for(), whichever comes first.
 */
extern const char ext4dist_bpf_obj[];
/* Its size, once inflated; 0 if it could not be (a build error). */
size_t ext4dist_bpf_obj_size(void);

/* One embedded object and the kernels it is for. */
struct bpf_blob {
	const char *arch;	/* pt_regs layout: "x86", "arm64", "arm", "mips"... */
	char *data;		/* writable: bpf_obj_parse_in() reads it in place */
	size_t size;
};

/*
 * The object for kernels of bpf_arch (struct karch): this binary's own,
 * or in a 32-bit ARM build the arm64 one, inflated.  -ENOENT when it
 * carries none, -EINVAL when it does not inflate to its recorded size,
 * -ENOMEM when zlib has no memory to inflate it.
 */
int bpf_blob_for(const char *bpf_arch, struct bpf_blob *b);
/*
 * The same without the bytes of its source lines (.BTF, .BTF.ext) nor,
 * with keep, of the programs keep(section, arg) refuses: those bytes are
 * left zero or stale and their pages untouched (where the build could
 * say where the lines lie).  What a run parses, with bpf_obj_parse_in()
 * and the same keep, without lines.
 */
int bpf_blob_for_run(const char *bpf_arch,
		     int (*keep)(const char *section, void *arg), void *arg,
		     struct bpf_blob *b);

/*
 * The object for the running kernel, as a run would load it; this
 * binary's own where uname cannot say or none is for that kernel.  For
 * the dumps, which print an object whatever the kernel: with its source
 * lines (lines 1) or without, and with keep (NULL: all) only the
 * programs it keeps, as bpf_blob_for_run() leaves the others out, and
 * only their source lines (the line_info blocks of the others in
 * .BTF.ext left zero: empty blocks of no name to a reader).  0, or
 * -errno with the reason in eb (bpf_blob_error()).
 */
int bpf_blob_running(int lines, int (*keep)(const char *section, void *arg),
		     void *arg, struct bpf_blob *b, struct errbuf *eb);

/*
 * Gives b's inflated pages back to the kernel once it is parsed: b->data
 * becomes NULL (b->arch stays), and the next bpf_blob_for() inflates it
 * again.  The binary's text read so far goes too (text_pages.c): a dump's
 * next batch maps what it runs.
 */
void bpf_blob_release(struct bpf_blob *b);
/*
 * The same without the text: a run's start-up keeps it to the banner,
 * where it goes at once (each drop between costs the faults that map
 * it again, for little less peak RSS).
 */
void bpf_blob_release_room(struct bpf_blob *b);

/* eb's line for bpf_blob_for()'s -ENOMEM or -EINVAL about b; err itself. */
int bpf_blob_error(int err, const struct bpf_blob *b, struct errbuf *eb);

/* This binary's own: the object ext4dist_bpf_obj holds. */
const char *bpf_blob_own_arch(void);

#endif
