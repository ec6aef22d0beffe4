// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the exporter's request parser (src/serve/
 * http_request.c) on whatever a client may send, whole and in two
 * parts, each in a heap block of its exact size so that ASan sees a read
 * past it.  The two readings must agree: a request complete in the
 * first part answers as the whole does, and one is never complete in a
 * part and not in the whole.
 */
#include "serve/http_request.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 8192

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct http_request whole, part;
	size_t cut = size ? data[0] % (size + 1) : 0;
	char *buf = malloc(size ? size : 1);
	int done_whole, done_part;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	done_whole = http_request_parse(buf, size, CAP, &whole);
	done_part = http_request_parse(buf, cut, CAP, &part);
	if (done_part && (!done_whole || part.status != whole.status ||
			  part.route != whole.route || part.head != whole.head))
		abort();
	if (whole.status && !http_reason(whole.status)[0])
		abort();
	free(buf);
	return 0;
}
