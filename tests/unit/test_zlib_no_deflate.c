// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/zlib_no_deflate.c, linked as the static binary links it:
 * before libz (Makefile).  The compressor refuses to start, and inflate,
 * which ext4dist reads its object and gzip'd module files with, is
 * zlib's own still.
 */
#include <string.h>
#include <zlib.h>

#include "test.h"

/* zlib's compress2() at level 9 of the text below (made with Python's zlib). */
static const unsigned char packed[] = {
	0x78, 0xda, 0x4b, 0xad, 0x28, 0x31, 0x49, 0xc9, 0x2c, 0x2e, 0x51,
	0x28, 0x4a, 0x4d, 0x4c, 0x29, 0x56, 0xc8, 0x2c, 0x29, 0x56, 0xc8,
	0x4f, 0xca, 0x4a, 0x4d, 0x2e, 0x51, 0x28, 0xcf, 0x2c, 0xc9, 0x50,
	0xc8, 0xcc, 0x4b, 0xcb, 0x49, 0x2c, 0x49, 0x55, 0x48, 0xcc, 0xc9,
	0xcf, 0x4b, 0xe5, 0x02, 0x00, 0x83, 0x3b, 0x10, 0x88,
};
static const char text[] = "ext4dist reads its object with inflate alone\n";

static void test_no_compressor(void)
{
	z_stream zs;

	memset(&zs, 0, sizeof(zs));
	check_int("deflateInit refuses", deflateInit(&zs, 9), Z_STREAM_ERROR);
	check_int("deflate refuses", deflate(&zs, Z_FINISH), Z_STREAM_ERROR);
	check_int("deflateEnd refuses", deflateEnd(&zs), Z_STREAM_ERROR);
}

static void test_inflate_still_there(void)
{
	char out[128];
	uLongf len = sizeof(out);

	check_int("uncompress: zlib's inflate", uncompress((Bytef *)out, &len,
		   packed, sizeof(packed)), Z_OK);
	check_int("uncompress: its length", (int)len, (int)strlen(text));
	check_int("uncompress: its bytes", memcmp(out, text, strlen(text)), 0);
}

static const struct test_case test_cases[] = {
	TEST_CASE(no_compressor),
	TEST_CASE(inflate_still_there),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
