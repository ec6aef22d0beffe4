// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for src/zstd_no_legacy.c, linked as the static binary links it:
 * before a static libzstd (Makefile).  A frame of today's format still
 * decodes; one of the v0.7 format (its magic number, then anything) is
 * refused as an unsupported version, where libzstd's own decoder would
 * have taken it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#ifdef EXT4DIST_WITH_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

#include "test.h"

#ifdef EXT4DIST_WITH_ZSTD
/* ZSTD_decompressStream() over the whole of src into dst: its answer. */
static size_t stream(const void *src, size_t len, void *dst, size_t cap,
		     size_t *out)
{
	ZSTD_DStream *zs = ZSTD_createDStream();
	ZSTD_inBuffer in = { src, len, 0 };
	ZSTD_outBuffer ob = { dst, cap, 0 };
	size_t r;

	if (!zs)
		return (size_t)-ZSTD_error_memory_allocation;
	r = ZSTD_decompressStream(zs, &ob, &in);
	*out = ob.pos;
	ZSTD_freeDStream(zs);
	return r;
}

static void test_current_format(void)
{
	char text[4096], packed[8192], back[4096];
	size_t n, got = 0, r;
	unsigned int i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 23);
	n = ZSTD_compress(packed, sizeof(packed), text, sizeof(text), 3);
	if (!CHECK(!ZSTD_isError(n), "compressed"))
		return;
	r = stream(packed, n, back, sizeof(back), &got);
	check_int("current format: frame done", (long long)r, 0);
	check_mem("current format: the same bytes", back, got, text,
		  sizeof(text));
}

static void test_legacy_refused(void)
{
	/* ZSTDv07_MAGICNUMBER, little-endian, then a frame header's worth. */
	static const unsigned char v07[] = {
		0x27, 0xb5, 0x2f, 0xfd, 0x00, 0x01, 0x02, 0x03,
		0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	};
	static const unsigned char v05[] = {
		0x25, 0xb5, 0x2f, 0xfd, 0x00, 0x01, 0x02, 0x03,
	};
	char back[256];
	size_t got = 0, r;

	r = stream(v07, sizeof(v07), back, sizeof(back), &got);
	check_int("v0.7 frame: refused as an unsupported version",
		  ZSTD_getErrorCode(r), ZSTD_error_version_unsupported);
	check_int("v0.7 frame: nothing written", (long long)got, 0);
	r = stream(v05, sizeof(v05), back, sizeof(back), &got);
	check_int("v0.5 frame: refused as an unsupported version",
		  ZSTD_getErrorCode(r), ZSTD_error_version_unsupported);
	check_int("v0.5 frame: nothing written", (long long)got, 0);
	check_int("v0.7 frame: its content size unknown",
		  (long long)ZSTD_getFrameContentSize(v07, sizeof(v07)),
		  (long long)ZSTD_CONTENTSIZE_UNKNOWN);
	r = ZSTD_findFrameCompressedSize(v07, sizeof(v07));
	check_int("v0.7 frame: no compressed size", ZSTD_getErrorCode(r),
		  ZSTD_error_version_unsupported);
}

static const struct test_case test_cases[] = {
	TEST_CASE(current_format),
	TEST_CASE(legacy_refused),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
#else
int main(void)
{
	printf("SKIP zstd_legacy: no static libzstd (libzstd-dev): the binary reads no .ko.zst and links no zstd\n");
	return 0;
}
#endif
