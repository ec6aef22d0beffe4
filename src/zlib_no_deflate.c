// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the static binary before libz (Makefile): zlib's
 * compressor.  libelf's elf_compress.o names deflate beside the inflate
 * it shares that file with, so a static link pulled in zlib's deflate.c
 * and trees.c (some 35 KB of the x86_64 binary), though ext4dist
 * compresses nothing: it only reads ELF files.  These definitions come
 * first, so the linker leaves zlib's own out; libelf's elf_compress()
 * would then fail as on a stream zlib refuses.
 */
#include <zlib.h>

int ZEXPORT deflateInit_(z_streamp strm, int level, const char *version,
			 int stream_size)
{
	(void)strm; (void)level; (void)version; (void)stream_size;
	return Z_STREAM_ERROR;
}

int ZEXPORT deflate(z_streamp strm, int flush)
{
	(void)strm; (void)flush;
	return Z_STREAM_ERROR;
}

int ZEXPORT deflateEnd(z_streamp strm)
{
	(void)strm;
	return Z_STREAM_ERROR;
}
