// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a module file: raw (mapped), or gzip, xz or zstd (told by the
 * magic bytes) streamed through a small buffer, keeping only what a
 * symbol lookup reads: the ELF header, the section headers, the symbol
 * tables with their strings, the section names and the notes.  Memory
 * follows what is kept, not what the stream inflates to: a file that
 * inflates to hundreds of MiB costs a few.
 */
#include "loader/ksym/module_file.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef EXT4DIST_WITH_XZ
#include <lzma.h>
#endif
#ifdef EXT4DIST_WITH_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

/* Output is taken CHUNK bytes at a time. */
#define CHUNK		(64u << 10)
/*
 * Kept on the first pass besides the headers: the start (the build id
 * note sits near it) and what comes just before the section headers
 * (ld -r puts .symtab, .strtab and .shstrtab there).  A needed section
 * elsewhere costs a second pass.
 */
#define HEAD_KEEP	(256u << 10)
#define TAIL_KEEP	(2u << 20)
/* Section headers kept: 8 MiB, 131072 sections of 64 bytes. */
#define SHDRS_MAX	(8u << 20)
/* What a decompressor may allocate (xz's dictionary, zstd's window). */
#define DECODER_MEM	(16u << 20)
#define ZSTD_WINDOW_LOG	24

/* A file's bytes, mapped. */
struct buf {
	const unsigned char *data;
	size_t len;
};

/*
 * Maps the file read-only: only the pages the ELF reader touches (the
 * headers and symbol tables, a tenth of ext4.ko) are read and count in
 * ext4dist's memory, where read() into a buffer would hold all of it.
 */
static int map_file(const char *path, struct buf *b)
{
	struct stat st;
	void *p;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		err = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_size == 0)
		err = -EINVAL;
	else if (st.st_size > (off_t)MODSYM_MAX_SIZE)
		err = -EFBIG;
	if (!err) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
			 0);
		if (p == MAP_FAILED) {
			err = -errno;
		} else {
			b->data = p;
			b->len = (size_t)st.st_size;
		}
	}
	close(fd);
	return err;
}

enum ko_format { KO_RAW, KO_GZIP, KO_XZ, KO_ZSTD };

static const char *const format_names[] = { "raw", "gzip", "xz", "zstd" };

static enum ko_format detect_format(const struct buf *b)
{
	static const unsigned char gz[] = { 0x1f, 0x8b };
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (b->len >= sizeof(gz) && !memcmp(b->data, gz, sizeof(gz)))
		return KO_GZIP;
	if (b->len >= sizeof(xz) && !memcmp(b->data, xz, sizeof(xz)))
		return KO_XZ;
	if (b->len >= sizeof(zst) && !memcmp(b->data, zst, sizeof(zst)))
		return KO_ZSTD;
	return KO_RAW;
}

/* ---- one decompression stream, read in pieces ----------------------- */

struct unpack {
	enum ko_format fmt;
	const struct buf *in;
	int ended;		/* the stream's end (and check) was read */
	z_stream z;
#ifdef EXT4DIST_WITH_XZ
	lzma_stream x;
#endif
#ifdef EXT4DIST_WITH_ZSTD
	ZSTD_DStream *zs;
	ZSTD_inBuffer zin;
	size_t left;		/* 0: a frame ended and was flushed */
#endif
};

static int unpack_init(struct unpack *u, enum ko_format fmt,
		       const struct buf *in)
{
	memset(u, 0, sizeof(*u));
	u->fmt = fmt;
	u->in = in;
	switch (fmt) {
	case KO_GZIP:
		/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one */
		if (inflateInit2(&u->z, 16 + MAX_WBITS) != Z_OK)
			return -ENOMEM;
		u->z.next_in = (unsigned char *)in->data;
		u->z.avail_in = (uInt)in->len;
		return 0;
#ifdef EXT4DIST_WITH_XZ
	case KO_XZ: {
		lzma_stream init = LZMA_STREAM_INIT;

		u->x = init;
		if (lzma_stream_decoder(&u->x, DECODER_MEM,
					LZMA_CONCATENATED) != LZMA_OK)
			return -ENOMEM;
		u->x.next_in = in->data;
		u->x.avail_in = in->len;
		return 0;
	}
#endif
#ifdef EXT4DIST_WITH_ZSTD
	case KO_ZSTD:
		u->zs = ZSTD_createDStream();
		if (!u->zs)
			return -ENOMEM;
		ZSTD_DCtx_setParameter(u->zs, ZSTD_d_windowLogMax,
				       ZSTD_WINDOW_LOG);
		u->zin.src = in->data;
		u->zin.size = in->len;
		u->left = 1;
		return 0;
#endif
	default:
		return -ENOTSUP;
	}
}

static void unpack_end(struct unpack *u)
{
	switch (u->fmt) {
	case KO_GZIP:
		inflateEnd(&u->z);
		break;
#ifdef EXT4DIST_WITH_XZ
	case KO_XZ:
		lzma_end(&u->x);
		break;
#endif
#ifdef EXT4DIST_WITH_ZSTD
	case KO_ZSTD:
		ZSTD_freeDStream(u->zs);
		break;
#endif
	default:
		break;
	}
}

/*
 * Up to len bytes of output into dst: their number, 0 at the stream's
 * end, or -EINVAL (corrupted or truncated), -ENOMEM, -E2BIG (it needs
 * more than DECODER_MEM).
 */
static long unpack_some(struct unpack *u, unsigned char *dst, size_t len)
{
	if (u->ended)
		return 0;
	switch (u->fmt) {
	case KO_GZIP: {
		int zret;

		u->z.next_out = dst;
		u->z.avail_out = (uInt)len;
		zret = inflate(&u->z, Z_NO_FLUSH);
		if (zret == Z_STREAM_END)
			u->ended = 1;
		else if (zret == Z_MEM_ERROR)
			return -ENOMEM;
		/* Z_BUF_ERROR with room left: the input ended too early. */
		else if (zret != Z_OK)
			return -EINVAL;
		return (long)(len - u->z.avail_out);
	}
#ifdef EXT4DIST_WITH_XZ
	case KO_XZ: {
		lzma_ret ret;

		u->x.next_out = dst;
		u->x.avail_out = len;
		/* LZMA_FINISH: all input is there; short input is an error */
		ret = lzma_code(&u->x, LZMA_FINISH);
		if (ret == LZMA_STREAM_END)
			u->ended = 1;
		else if (ret == LZMA_MEM_ERROR)
			return -ENOMEM;
		else if (ret == LZMA_MEMLIMIT_ERROR)
			return -E2BIG;
		else if (ret != LZMA_OK)
			return -EINVAL;
		return (long)(len - u->x.avail_out);
	}
#endif
#ifdef EXT4DIST_WITH_ZSTD
	case KO_ZSTD: {
		ZSTD_outBuffer ob = { dst, len, 0 };

		/* left == 0 means a frame ended and its data was all flushed. */
		if (u->zin.pos == u->zin.size && !u->left) {
			u->ended = 1;
			return 0;
		}
		u->left = ZSTD_decompressStream(u->zs, &ob, &u->zin);
		if (ZSTD_isError(u->left))
			return ZSTD_getErrorCode(u->left) ==
			       ZSTD_error_frameParameter_windowTooLarge ?
			       -E2BIG : ZSTD_getErrorCode(u->left) ==
			       ZSTD_error_memory_allocation ? -ENOMEM : -EINVAL;
		/* No input left, output not full, frame not done: truncated. */
		if (u->left && u->zin.pos == u->zin.size && ob.pos < ob.size)
			return -EINVAL;
		if (!u->left && u->zin.pos == u->zin.size && !ob.pos) {
			u->ended = 1;
			return 0;
		}
		return (long)ob.pos;
	}
#endif
	default:
		return -ENOTSUP;
	}
}

/* ---- what is kept of the output ------------------------------------- */

/* A range of the inflated file: [off, end). */
struct range {
	uint64_t off, end;
};

/* Sections kept: a module has a symbol table, its strings and a few notes. */
#define MAX_RANGES 256

struct keep {
	struct range r[MAX_RANGES];
	unsigned int n;
	int too_many;		/* more ranges were wanted than r holds */
};

static void keep_add(struct keep *k, uint64_t off, uint64_t end)
{
	if (end <= off)
		return;
	if (k->n == MAX_RANGES) {
		k->too_many = 1;
		return;
	}
	k->r[k->n].off = off;
	k->r[k->n].end = end;
	k->n++;
}

static int kept(const struct keep *k, uint64_t off, uint64_t end)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		if (k->r[i].off <= off && end <= k->r[i].end)
			return 1;
	return 0;
}

/*
 * The inflated file, as far as kept: an anonymous mapping of
 * MODSYM_MAX_SIZE bytes whose pages cost memory only once written.
 */
struct image {
	unsigned char *data;
	uint64_t len;		/* the inflated size */
};

/* pos..pos+n of the output (in chunk) into img where k keeps it. */
static void copy_kept(struct image *img, const struct keep *k, uint64_t pos,
		      const unsigned char *chunk, size_t n)
{
	uint64_t end = pos + n, a, b;
	unsigned int i;

	for (i = 0; i < k->n; i++) {
		a = k->r[i].off > pos ? k->r[i].off : pos;
		b = k->r[i].end < end ? k->r[i].end : end;
		if (a < b)
			memcpy(img->data + a, chunk + (a - pos), (size_t)(b - a));
	}
}

/*
 * One pass over the whole stream: what k keeps goes into img, img->len
 * gets the inflated size.  first: the pass that reads the ELF header,
 * which then adds the section headers (and the windows around) to k.
 */
static int one_pass(enum ko_format fmt, const struct buf *in,
		    struct image *img, struct keep *k,
		    int (*on_header)(struct image *, struct keep *))
{
	static unsigned char chunk[CHUNK];
	struct unpack u;
	uint64_t pos = 0;
	long n;
	int err, header_seen = !on_header;

	err = unpack_init(&u, fmt, in);
	if (err)
		return err;
	for (;;) {
		n = unpack_some(&u, chunk, sizeof(chunk));
		if (n < 0) {
			err = (int)n;
			break;
		}
		if (n == 0 && u.ended)
			break;
		if (pos + (uint64_t)n > MODSYM_MAX_SIZE) {
			err = -EFBIG;
			break;
		}
		copy_kept(img, k, pos, chunk, (size_t)n);
		pos += (uint64_t)n;
		/* The ELF header decides what else is kept. */
		if (!header_seen && pos >= sizeof(Elf64_Ehdr)) {
			header_seen = 1;
			err = on_header(img, k);
			if (err)
				break;
			/* The part of this chunk the header now keeps. */
			copy_kept(img, k, pos - (uint64_t)n, chunk, (size_t)n);
		}
	}
	unpack_end(&u);
	if (!err && !header_seen)
		err = -ENOEXEC;		/* shorter than an ELF header */
	img->len = pos;
	return err;
}

/* A field of the ELF header at off, size bytes, in its byte order. */
static uint64_t field(const unsigned char *h, size_t off, size_t size)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++) {
		size_t b = h[EI_DATA] == ELFDATA2MSB ? i : size - 1 - i;

		v = (v << 8) | h[off + b];
	}
	return v;
}

/*
 * The first pass's look at the ELF header: a relocatable ELF file, its
 * section headers within MODSYM_MAX_SIZE and SHDRS_MAX; they, the start
 * and the end before them are kept.  A stream that is no module stops
 * here, however far it would inflate.
 */
static int on_header(struct image *img, struct keep *k)
{
	const unsigned char *h = img->data;
	int is64 = h[EI_CLASS] == ELFCLASS64;
	uint64_t shoff, shsize, shnum, head;

	if (memcmp(h, ELFMAG, SELFMAG) ||
	    (h[EI_CLASS] != ELFCLASS32 && !is64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB) ||
	    field(h, 16, 2) != ET_REL)
		return -ENOEXEC;
	shoff = field(h, is64 ? 40 : 32, is64 ? 8 : 4);
	shsize = field(h, is64 ? 58 : 46, 2);
	shnum = field(h, is64 ? 60 : 48, 2);
	/* 0 sections: the count is in section 0 (more than 65279). */
	if (!shnum)
		shnum = SHDRS_MAX / (shsize ? shsize : 1);
	if (shsize != (is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) ||
	    !shoff)
		return -ENOEXEC;
	if (shnum * shsize > SHDRS_MAX ||
	    shoff + shnum * shsize > MODSYM_MAX_SIZE)
		return -EFBIG;
	head = shoff < HEAD_KEEP ? shoff : HEAD_KEEP;
	keep_add(k, 0, head);
	keep_add(k, shoff > TAIL_KEEP ? shoff - TAIL_KEEP : 0,
		 shoff + shnum * shsize);
	return 0;
}

/*
 * The ranges a symbol lookup reads (modsym.c): section names, symbol
 * tables with their strings and extended indexes, notes.  0, or
 * -ENOEXEC for section headers libelf cannot read.
 */
static int wanted(struct image *img, struct keep *w)
{
	Elf *e = elf_memory((char *)img->data, img->len);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh, link;
	int err = 0;

	if (!e)
		return -ENOEXEC;
	if (elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx)) {
		elf_end(e);
		return -ENOEXEC;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh)) {
			err = -ENOEXEC;
			break;
		}
		if (sh.sh_type == SHT_NOBITS)
			continue;
		if (elf_ndxscn(scn) == shstrndx || sh.sh_type == SHT_NOTE ||
		    sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_SYMTAB_SHNDX)
			keep_add(w, sh.sh_offset, sh.sh_offset + sh.sh_size);
		if (sh.sh_type == SHT_SYMTAB &&
		    gelf_getshdr(elf_getscn(e, sh.sh_link), &link) &&
		    link.sh_type != SHT_NOBITS)
			keep_add(w, link.sh_offset, link.sh_offset + link.sh_size);
	}
	elf_end(e);
	return err;
}

/*
 * The compressed file in, inflated as far as a symbol lookup needs:
 * one pass, and a second when something it needs lay outside what the
 * first kept.
 */
static int inflate_kept(enum ko_format fmt, const struct buf *in,
			struct image *img)
{
	struct keep first = { .n = 0 }, need = { .n = 0 };
	unsigned int i;
	int err;

	keep_add(&first, 0, sizeof(Elf64_Ehdr));
	err = one_pass(fmt, in, img, &first, on_header);
	if (err)
		return err;
	elf_version(EV_CURRENT);
	err = wanted(img, &need);
	if (err)
		return err;
	if (need.too_many)
		return -ENOEXEC;
	for (i = 0; i < need.n; i++)
		if (!kept(&first, need.r[i].off, need.r[i].end))
			break;
	if (i == need.n)
		return 0;
	return one_pass(fmt, in, img, &need, NULL);
}

int module_file_load(const char *path, struct module_image *out,
		     struct errbuf *eb)
{
	struct buf raw = { NULL, 0 };
	struct image img = { NULL, 0 };
	enum ko_format fmt;
	void *p;
	int err;

	if (!path || !out)
		return -EINVAL;
	out->data = NULL;
	out->len = 0;
	out->mapped = 0;
	err = map_file(path, &raw);
	if (errbuf_nofile(eb, err, "cannot open %s", path))
		return err;
	if (err)
		return errbuf_set(eb, err, "%s: %s", path, strerror(-err));
	fmt = detect_format(&raw);
	if (fmt == KO_RAW) {
		out->data = (unsigned char *)raw.data;
		out->len = raw.len;
		out->mapped = 1;
		return 0;
	}
	p = mmap(NULL, MODSYM_MAX_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		munmap((void *)raw.data, raw.len);
		return errbuf_set(eb, err,
				  "%s: no address space to inflate it into: %s",
				  path, strerror(-err));
	}
	img.data = p;
	err = inflate_kept(fmt, &raw, &img);
	munmap((void *)raw.data, raw.len);
	if (err == -ENOTSUP)
		errbuf_fmt(eb,
			   "%s: %s-compressed modules are not supported by this build",
			   path, format_names[fmt]);
	else if (err == -E2BIG)
		errbuf_fmt(eb,
			   "%s: %s stream needs more than %u MiB to inflate (its dictionary or window): not a module file as the kernel makes them",
			   path, format_names[fmt], DECODER_MEM >> 20);
	else if (err == -ENOEXEC)
		errbuf_fmt(eb, "%s: not a valid relocatable ELF file once inflated (%s)",
			   path, format_names[fmt]);
	else if (err == -EFBIG)
		errbuf_fmt(eb,
			   "%s: inflates to more than %u MiB, or says it does: not a module file",
			   path, MODSYM_MAX_SIZE >> 20);
	else if (err)
		errbuf_fmt(eb, "%s: cannot decompress %s data: %s",
			   path, format_names[fmt], strerror(-err));
	if (err) {
		munmap(p, MODSYM_MAX_SIZE);
		return err == -ENOEXEC ? -EINVAL : err;
	}
	out->data = img.data;
	out->len = (size_t)img.len;
	out->mapped = 2;
	return 0;
}

void module_file_free(struct module_image *img)
{
	if (!img)
		return;
	if (img->mapped == 1 && img->data)
		munmap(img->data, img->len);
	else if (img->mapped == 2 && img->data)
		munmap(img->data, MODSYM_MAX_SIZE);
	else
		free(img->data);
	img->data = NULL;
	img->len = 0;
	img->mapped = 0;
}

int modsym_ko_path(const char *base, char *buf, size_t len)
{
	static const char *const suffixes[] = { "", ".xz", ".zst", ".gz" };
	size_t i;
	int n;

	if (!base || !buf)
		return -EINVAL;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		n = snprintf(buf, len, "%s%s", base, suffixes[i]);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (access(buf, R_OK) == 0)
			return 0;
	}
	return -ENOENT;
}
