// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a module file into memory, decompressed: raw, gzip, xz or zstd,
 * told by the magic bytes.
 */
#include "loader/ksym/module_file.h"

#include <errno.h>
#include <fcntl.h>
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
#endif

/* A growing output buffer: len bytes used of cap. */
struct buf {
	unsigned char *data;
	size_t len;
	size_t cap;
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
			b->len = b->cap = (size_t)st.st_size;
		}
	}
	close(fd);
	return err;
}

/* Makes room for more output; fails past MODSYM_MAX_SIZE. */
static int buf_grow(struct buf *b)
{
	size_t cap = b->cap ? b->cap * 2 : 1u << 16;
	unsigned char *p;

	if (b->cap >= MODSYM_MAX_SIZE)
		return -EFBIG;
	if (cap > MODSYM_MAX_SIZE)
		cap = MODSYM_MAX_SIZE;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

static int gunzip(const struct buf *in, struct buf *out)
{
	z_stream z;
	int zret, err = 0;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header and trailer, not a zlib one */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = in->data;
	z.avail_in = in->len;
	for (;;) {
		if (out->len == out->cap) {
			err = buf_grow(out);
			if (err)
				break;
		}
		z.next_out = out->data + out->len;
		z.avail_out = out->cap - out->len;
		zret = inflate(&z, Z_NO_FLUSH);
		out->len = out->cap - z.avail_out;
		if (zret == Z_STREAM_END)
			break;
		if (zret == Z_OK || (zret == Z_BUF_ERROR && !z.avail_out))
			continue;
		/* Z_BUF_ERROR with room left: the input ended too early. */
		err = zret == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
		break;
	}
	inflateEnd(&z);
	return err;
}

#ifdef EXT4DIST_WITH_XZ
static int unxz(const struct buf *in, struct buf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;
	int err;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	s.next_in = in->data;
	s.avail_in = in->len;
	do {
		if (out->len == out->cap) {
			err = buf_grow(out);
			if (err)
				goto out;
		}
		s.next_out = out->data + out->len;
		s.avail_out = out->cap - out->len;
		/* LZMA_FINISH: all input is there; short input is an error */
		ret = lzma_code(&s, LZMA_FINISH);
		out->len = out->cap - s.avail_out;
	} while (ret == LZMA_OK);
	if (ret == LZMA_STREAM_END)
		err = 0;
	else
		err = ret == LZMA_MEM_ERROR ? -ENOMEM : -EINVAL;
out:
	lzma_end(&s);
	return err;
}
#endif

#ifdef EXT4DIST_WITH_ZSTD
static int unzstd(const struct buf *in, struct buf *out)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in->data, in->len, 0 };
	ZSTD_outBuffer ob;
	size_t left = 1;
	int err = 0;

	if (!ds)
		return -ENOMEM;
	/* left == 0 means a frame ended and its data was all flushed. */
	while (ib.pos < ib.size || left) {
		if (out->len == out->cap) {
			err = buf_grow(out);
			if (err)
				break;
		}
		ob.dst = out->data;
		ob.size = out->cap;
		ob.pos = out->len;
		left = ZSTD_decompressStream(ds, &ob, &ib);
		out->len = ob.pos;
		if (ZSTD_isError(left)) {
			err = -EINVAL;
			break;
		}
		/* No input left, output not full, frame not done: truncated. */
		if (left && ib.pos == ib.size && ob.pos < ob.size) {
			err = -EINVAL;
			break;
		}
	}
	ZSTD_freeDStream(ds);
	return err;
}
#endif

enum ko_format { KO_RAW, KO_GZIP, KO_XZ, KO_ZSTD };

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

int module_file_load(const char *path, struct module_image *out,
		     struct errbuf *eb)
{
	struct buf raw = { 0 }, dec = { 0 };
	const char *fmt = NULL;
	int err;

	if (!path || !out)
		return -EINVAL;
	out->data = NULL;
	out->len = 0;
	out->mapped = 0;
	err = map_file(path, &raw);
	if (err)
		return errbuf_set(eb, err, "%s: %s", path, strerror(-err));
	switch (detect_format(&raw)) {
	case KO_RAW:
		out->data = raw.data;
		out->len = raw.len;
		out->mapped = 1;
		return 0;
	case KO_GZIP:
		fmt = "gzip";
		err = gunzip(&raw, &dec);
		break;
	case KO_XZ:
		fmt = "xz";
#ifdef EXT4DIST_WITH_XZ
		err = unxz(&raw, &dec);
#else
		err = -ENOTSUP;
#endif
		break;
	case KO_ZSTD:
		fmt = "zstd";
#ifdef EXT4DIST_WITH_ZSTD
		err = unzstd(&raw, &dec);
#else
		err = -ENOTSUP;
#endif
		break;
	}
	munmap(raw.data, raw.len);
	if (err == -ENOTSUP)
		errbuf_fmt(eb,
			   "%s: %s-compressed modules are not supported by this build",
			   path, fmt);
	else if (err)
		errbuf_fmt(eb, "%s: cannot decompress %s data: %s",
			   path, fmt, strerror(-err));
	if (err) {
		free(dec.data);
		return err;
	}
	out->data = dec.data;
	out->len = dec.len;
	out->mapped = 0;
	return 0;
}

void module_file_free(struct module_image *img)
{
	if (!img)
		return;
	if (img->mapped && img->data)
		munmap(img->data, img->len);
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
