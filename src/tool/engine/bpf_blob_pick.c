// SPDX-License-Identifier: GPL-2.0
#include "tool/engine/bpf_blob.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "loader/kernel/karch.h"
#include "loader/util/errbuf.h"
#include "loader/util/text_pages.h"
#include "tool/engine/bpf_blob_lines.h"

/* bpf_blob.S: each object gzip-compressed, its size, room to inflate it. */
extern const unsigned char ext4dist_bpf_obj_gz[], ext4dist_bpf_obj64_gz[];
extern const uint32_t ext4dist_bpf_obj_gz_len, ext4dist_bpf_obj64_gz_len;
extern const uint32_t ext4dist_bpf_obj_cap, ext4dist_bpf_obj64_cap;
extern const uint32_t ext4dist_bpf_obj_lines[4], ext4dist_bpf_obj64_lines[4];
extern const uint32_t ext4dist_bpf_obj_parts[], ext4dist_bpf_obj64_parts[];
extern unsigned char ext4dist_bpf_obj_room[], ext4dist_bpf_obj64_room[];

/* What a room holds. */
enum { NOT_YET, WHOLE, NO_LINES, SOME, FAILED };

struct packed {
	const unsigned char *gz;
	const uint32_t *gz_len;
	unsigned char *room;
	const uint32_t *cap;
	/*
	 * Offset and length of .BTF and .BTF.ext, and the compressed
	 * lengths of the gzip members before them and of theirs.
	 */
	const uint32_t *lines;
	/*
	 * The first member as several: each one's end and compressed
	 * length, up to a 0, 0 (at once: the first member is one).
	 */
	const uint32_t *parts;
	int state;
};

static struct packed own = {
	ext4dist_bpf_obj_gz, &ext4dist_bpf_obj_gz_len, ext4dist_bpf_obj_room,
	&ext4dist_bpf_obj_cap, ext4dist_bpf_obj_lines, ext4dist_bpf_obj_parts,
	NOT_YET
};
static struct packed other = {
	ext4dist_bpf_obj64_gz, &ext4dist_bpf_obj64_gz_len,
	ext4dist_bpf_obj64_room, &ext4dist_bpf_obj64_cap,
	ext4dist_bpf_obj64_lines, ext4dist_bpf_obj64_parts, NOT_YET
};

/*
 * Inflates one gzip member of gz_len bytes into exactly len bytes at out
 * (what keep does not keep, not written), or with head its first len
 * bytes alone, every byte shown to w if any: zlib's Z_STREAM_END, or
 * another answer (Z_MEM_ERROR without memory).
 */
static int inflate_member(const unsigned char *gz, size_t gz_len,
			  unsigned char *out, size_t len,
			  const struct ranges *keep, int head,
			  struct ext_walk *w)
{
	static unsigned char scratch[4096];
	size_t pos = 0, r = 0;
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one. */
	ret = inflateInit2(&z, 16 + MAX_WBITS);
	if (ret != Z_OK)
		return ret;
	/*
	 * No CRC-32 of the output: these bytes are this binary's own, and
	 * the check took some 40 % of the inflate's instructions.  The
	 * stream's structure and exact length are still held to below.
	 */
	inflateValidate(&z, 0);
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)gz_len;
	do {
		size_t stop = len;
		int kept = !keep || !keep->n;

		while (!kept && r < keep->n && keep->end[r] <= pos)
			r++;
		if (!kept && r < keep->n && keep->start[r] <= pos) {
			kept = 1;
			stop = keep->end[r] < len ? keep->end[r] : len;
		} else if (!kept) {
			if (r < keep->n && keep->start[r] < stop)
				stop = keep->start[r];
			if (stop - pos > sizeof(scratch))
				stop = pos + sizeof(scratch);
		}
		z.next_out = kept ? out + pos : scratch;
		z.avail_out = (uInt)(stop - pos);
		ret = inflate(&z, Z_NO_FLUSH);
		if (w)
			ext_walk_seen(w, pos, kept ? out + pos : scratch,
				      z.total_out - pos);
		pos = z.total_out;
	} while (ret == Z_OK && pos < len);
	/* head: the member's first len bytes alone. */
	if (head) {
		inflateEnd(&z);
		return pos == len ? Z_STREAM_END : ret == Z_OK ? Z_DATA_ERROR : ret;
	}
	/* Exactly len bytes, the stream's end, no input left. */
	if (ret == Z_OK) {
		z.next_out = scratch;
		z.avail_out = 0;
		ret = inflate(&z, Z_FINISH);
	}
	if (ret == Z_STREAM_END && (z.total_out != len || z.avail_in))
		ret = Z_DATA_ERROR;
	inflateEnd(&z);
	return ret;
}

/* A NUL-terminated name at off of the section names at [s, s + len). */
static const char *name_at(const unsigned char *s, size_t len, size_t off)
{
	if (off >= len || !memchr(s + off, '\0', len - off))
		return NULL;
	return (const char *)s + off;
}

/*
 * The ranges of [0, end) to keep: every section but the programs that
 * keep(name, arg) refuses (SHF_EXECINSTR sections named "kind/..."), from
 * the section headers, which must lie at or past from (inflated there
 * already), the ELF header in room's first bytes; and where .BTF.ext
 * lies (ext_len 0: nowhere).  0, or -1 when the layout is not that: then
 * everything is kept.
 */
static int ranges_of(const unsigned char *room, size_t cap, size_t from,
		     size_t end, int (*keep)(const char *, void *), void *arg,
		     struct ranges *rg, size_t *ext, size_t *ext_len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)room;
	const Elf64_Shdr *sh, *names;
	size_t i;

	rg->n = 0;
	*ext = *ext_len = 0;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shoff < from ||
	    eh->e_shoff > cap || eh->e_shnum > (cap - eh->e_shoff) / sizeof(*sh) ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff % 8)
		return -1;
	sh = (const Elf64_Shdr *)(room + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	if (names->sh_offset < from || names->sh_offset > cap ||
	    names->sh_size > cap - names->sh_offset)
		return -1;
	/* Every byte up to the first refused program; then section by section. */
	rg->start[0] = 0;
	rg->end[0] = end;
	rg->n = 1;
	for (i = 1; i < eh->e_shnum; i++) {
		const char *name = name_at(room + names->sh_offset,
					   names->sh_size, sh[i].sh_name);
		size_t a = sh[i].sh_offset, b;

		if (!name)
			return -1;
		if (!strcmp(name, ".BTF.ext") && sh[i].sh_offset <= cap &&
		    sh[i].sh_size <= cap - sh[i].sh_offset) {
			*ext = sh[i].sh_offset;
			*ext_len = sh[i].sh_size;
		}
		if (sh[i].sh_type == SHT_NOBITS || !(sh[i].sh_flags & SHF_EXECINSTR) ||
		    !strchr(name, '/') || a >= end || keep(name, arg))
			continue;
		b = sh[i].sh_size > end - a ? end : a + sh[i].sh_size;
		/* Cut [a, b) out of the range that holds it. */
		if (rg->n == RANGES_MAX)
			return -1;
		{
			size_t k;

			for (k = 0; k < rg->n; k++)
				if (rg->start[k] <= a && b <= rg->end[k])
					break;
			if (k == rg->n)
				return -1;	/* sections overlap */
			memmove(&rg->start[k + 1], &rg->start[k],
				(rg->n - k) * sizeof(rg->start[0]));
			memmove(&rg->end[k + 1], &rg->end[k],
				(rg->n - k) * sizeof(rg->end[0]));
			rg->n++;
			rg->end[k] = a;
			rg->start[k + 1] = b;
		}
	}
	return 0;
}

/*
 * What of [a, b) rg keeps, as offsets from a, into part: 1, or 0 when it
 * keeps none of it (rg->n 0 keeps everything).
 */
static int ranges_in(const struct ranges *rg, size_t a, size_t b,
		     struct ranges *part)
{
	size_t k;

	part->n = 0;
	if (!rg->n)
		return 1;
	for (k = 0; k < rg->n; k++) {
		size_t s = rg->start[k] > a ? rg->start[k] : a;
		size_t e = rg->end[k] < b ? rg->end[k] : b;

		if (s < e) {
			part->start[part->n] = s - a;
			part->end[part->n++] = e - a;
		}
	}
	return part->n > 0;
}

/*
 * The bytes before the lines, [0, off), from the gz0 bytes of the first
 * member or of the members p->parts lists: one that holds nothing rg
 * keeps is not inflated at all, its pages left untouched (a kprobe run
 * inflates none of the kprobe_multi or fentry programs: some 60 % of
 * these bytes, and of the inflate's instructions).  zlib's answer, or
 * Z_DATA_ERROR when the members do not lie end to end over exactly
 * [0, off) and gz0 bytes (a broken build).
 */
static int inflate_parts(struct packed *p, size_t off, size_t gz0,
			 const struct ranges *rg)
{
	static struct ranges part;
	size_t from = 0, used = 0, i;
	int ret = Z_STREAM_END;

	if (!p->parts[1])
		return inflate_member(p->gz, gz0, p->room, off, rg, 0, NULL);
	for (i = 0; p->parts[2 * i + 1] && ret == Z_STREAM_END; i++) {
		size_t end = p->parts[2 * i], gz_len = p->parts[2 * i + 1];

		if (end <= from || end > off || gz_len > gz0 - used)
			return Z_DATA_ERROR;
		if (ranges_in(rg, from, end, &part))
			ret = inflate_member(p->gz + used, gz_len,
					     p->room + from, end - from,
					     &part, 0, NULL);
		used += gz_len;
		from = end;
	}
	if (ret == Z_STREAM_END && (from != off || used != gz0))
		ret = Z_DATA_ERROR;
	return ret;
}

/*
 * The whole pages of p's room go back to the kernel (a later read finds
 * them zero-filled, the .bss being private anonymous memory); the two
 * partial pages at its ends stay, inflated again like the rest.
 */
static void release(struct packed *p)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = ((uintptr_t)p->room + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p->room + *p->cap) & ~(page - 1);

	if (p->state != WHOLE && p->state != NO_LINES && p->state != SOME)
		return;
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
	p->state = NOT_YET;
}

/*
 * The lines' member [off, off + len) written with keep: .BTF whole, of
 * .BTF.ext only the line_info of the programs kept
 * (bpf_blob_lines.c), when it lies at [ext, ext + ext_len) in it; else
 * every byte.
 */
static int inflate_lines(struct packed *p, size_t off, size_t len,
			 size_t ext, size_t ext_len,
			 int (*keep)(const char *, void *), void *arg)
{
	const unsigned char *gz = p->gz + p->lines[2];
	size_t gz_len = p->lines[3];
	static struct ranges btf, rg;
	struct ext_walk w;
	int ret;

	rg.n = 0;
	if (keep && ext_len && ext > off && ext - off < len) {
		ext_walk_init(&w, p->room + off, len, ext - off, ext_len, keep,
			      arg, &rg);
		/* .BTF written, .BTF.ext watched going by. */
		btf.n = 1;
		btf.start[0] = 0;
		btf.end[0] = ext - off;
		ret = inflate_member(gz, gz_len, p->room + off, len, &btf, 0,
				     &w);
		if (ret != Z_STREAM_END)
			return ret;
		ext_walk_done(&w);
	}
	return inflate_member(gz, gz_len, p->room + off, len, &rg, 0, NULL);
}

/*
 * Inflates p into its room, whole or (lines 0) without the gzip member
 * of its source lines: those bytes are never written, so their pages take
 * no memory and their inflating no time; with keep, the programs it
 * refuses are left out the same way (inflated, never written, or not
 * inflated at all where a member of the first piece holds none it keeps:
 * the last member, which holds the section headers, first), and so are
 * their source lines.  A room inflated before is given back first, so that
 * what is left out reads as zeros.  Returns its size, 0 when it does not
 * inflate to exactly that, or -ENOMEM when zlib had no memory for its
 * state (tried again next time).
 */
static long inflated(struct packed *p, int lines,
		     int (*keep)(const char *, void *), void *arg)
{
	size_t off = p->lines[0], len = p->lines[1];
	size_t gz0 = p->lines[2], gz1 = p->lines[3];
	size_t ext = 0, ext_len = 0;
	static struct ranges rg;
	int ret;

	if (p->state == WHOLE || (p->state == NO_LINES && !lines))
		return (long)*p->cap;
	if (p->state == FAILED)
		return 0;
	release(p);
	if (!len)
		off = *p->cap;
	if (!*p->gz_len || !*p->cap || off > *p->cap || len > *p->cap - off ||
	    gz0 > *p->gz_len || gz1 > *p->gz_len - gz0 ||
	    off < sizeof(Elf64_Ehdr)) {
		p->state = FAILED;
		return 0;
	}
	rg.n = 0;
	ret = inflate_member(p->gz + gz0 + gz1, *p->gz_len - gz0 - gz1,
			     p->room + off + len, *p->cap - off - len, NULL, 0,
			     NULL);
	if (ret == Z_STREAM_END && keep) {
		/* The ELF header alone first: where the sections lie. */
		ret = inflate_member(p->gz, gz0, p->room, sizeof(Elf64_Ehdr),
				     NULL, 1, NULL);
		if (ret == Z_STREAM_END &&
		    ranges_of(p->room, *p->cap, off + len, off, keep, arg, &rg,
			      &ext, &ext_len))
			rg.n = ext_len = 0;
	}
	if (ret == Z_STREAM_END)
		ret = inflate_parts(p, off, gz0, &rg);
	if (ret == Z_STREAM_END && lines)
		ret = inflate_lines(p, off, len, ext, ext_len, keep, arg);
	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	p->state = ret != Z_STREAM_END ? FAILED : rg.n ? SOME :
		   lines ? WHOLE : NO_LINES;
	return p->state != FAILED ? (long)*p->cap : 0;
}

size_t ext4dist_bpf_obj_size(void)
{
	long n = inflated(&own, 1, NULL, NULL);

	return n > 0 ? (size_t)n : 0;
}

/*
 * The pt_regs layout ext4dist_bpf_obj reads: the Makefile compiles it for
 * the architecture it compiles this file for.
 */
#if defined(__x86_64__)
#define EXT4DIST_BPF_ARCH "x86"
#elif defined(__aarch64__)
#define EXT4DIST_BPF_ARCH "arm64"
#elif defined(__arm__)
#define EXT4DIST_BPF_ARCH "arm"
#elif defined(__mips__) && _MIPS_SIM == _ABIO32 && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EXT4DIST_BPF_ARCH "mips"
#elif defined(__s390x__)
#define EXT4DIST_BPF_ARCH "s390"
#elif defined(__riscv) && __riscv_xlen == 64
#define EXT4DIST_BPF_ARCH "riscv"
#else
#error "ext4dist builds for x86_64, arm64, 32-bit ARM, 32-bit little-endian MIPS, s390x and riscv64"
#endif

const char *bpf_blob_own_arch(void)
{
	return EXT4DIST_BPF_ARCH;
}

/* b set up over p's object, inflated: 0, -EINVAL or -ENOMEM. */
static int blob_of(struct packed *p, const char *arch, char *data,
		   int lines, int (*keep)(const char *, void *), void *arg,
		   struct bpf_blob *b)
{
	long n = inflated(p, lines, keep, arg);

	b->arch = arch;
	b->data = data;
	b->size = n > 0 ? (size_t)n : 0;
	return n > 0 ? 0 : n < 0 ? (int)n : -EINVAL;
}

static int blob_pick(const char *bpf_arch, int lines,
		     int (*keep)(const char *, void *), void *arg,
		     struct bpf_blob *b)
{
	if (!bpf_arch)
		return -ENOENT;
	if (strcmp(bpf_arch, EXT4DIST_BPF_ARCH) == 0)
		return blob_of(&own, EXT4DIST_BPF_ARCH,
			       (char *)ext4dist_bpf_obj_room, lines, keep, arg,
			       b);
	if (strcmp(bpf_arch, "arm64") == 0 && ext4dist_bpf_obj64_gz_len)
		return blob_of(&other, "arm64", (char *)ext4dist_bpf_obj64_room,
			       lines, keep, arg, b);
	return -ENOENT;
}

/*
 * zlib's text is run for the last time in an inflate (text_pages.c): a
 * dump drops it there, a run after its banner.
 */
int bpf_blob_for(const char *bpf_arch, struct bpf_blob *b)
{
	int err = blob_pick(bpf_arch, 1, NULL, NULL, b);

	text_pages_drop();
	return err;
}

int bpf_blob_for_run(const char *bpf_arch,
		     int (*keep)(const char *section, void *arg), void *arg,
		     struct bpf_blob *b)
{
	return blob_pick(bpf_arch, 0, keep, arg, b);
}

void bpf_blob_release_room(struct bpf_blob *b)
{
	if (b->data == (char *)ext4dist_bpf_obj_room)
		release(&own);
	else if (b->data && b->data == (char *)ext4dist_bpf_obj64_room)
		release(&other);
	b->data = NULL;
	b->size = 0;
}

void bpf_blob_release(struct bpf_blob *b)
{
	bpf_blob_release_room(b);
	text_pages_drop();
}

int bpf_blob_running(int lines, int (*keep)(const char *section, void *arg),
		     void *arg, struct bpf_blob *b, struct errbuf *eb)
{
	struct karch k;
	int err = karch_running(&k) ? -ENOENT :
		  blob_pick(k.bpf_arch, lines, keep, arg, b);

	if (err && err != -ENOMEM)
		err = blob_pick(bpf_blob_own_arch(), lines, keep, arg, b);
	text_pages_drop();
	return bpf_blob_error(err, b, eb);
}

int bpf_blob_error(int err, const struct bpf_blob *b, struct errbuf *eb)
{
	if (err == -ENOMEM)
		return errbuf_set(eb, err,
				  "out of memory: zlib cannot inflate the embedded BPF object");
	if (err)
		return errbuf_set(eb, err,
				  "the embedded BPF object for %s kernels does not inflate to its recorded size (a broken build)",
				  b->arch ? b->arch : bpf_blob_own_arch());
	return 0;
}
