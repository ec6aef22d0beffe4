/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's HTTP requests: the request line and header fields of
 * one HTTP/1.0 or HTTP/1.1 request, read from a buffer that holds what
 * the client sent so far, and the answer they call for.  Nothing is kept
 * from the request but the method's kind and the route: no header is
 * needed to answer a scrape.  Pure functions (the fuzzer drives them).
 */
#ifndef EXT4DIST_SERVE_HTTP_REQUEST_H
#define EXT4DIST_SERVE_HTTP_REQUEST_H

#include <stddef.h>

/* What the request asks for. */
enum http_route {
	HTTP_ROUTE_NONE = 0,	/* any other path: 404 */
	HTTP_ROUTE_METRICS,	/* /metrics */
	HTTP_ROUTE_ROOT,	/* /: a page that points to /metrics */
};

struct http_request {
	/*
	 * The answer: 200 when the request is understood (the route says
	 * what to send; 404 and 405 are decided from it), else 400 (not
	 * HTTP), 414 (request line longer than the buffer), 431 (header
	 * fields past the buffer) or 505 (an HTTP version other than 1.0
	 * and 1.1).
	 */
	int status;
	int head;		/* HEAD: the answer without its body */
	int get;		/* GET or HEAD; any other method gets 405 */
	enum http_route route;
};

/*
 * Reads buf[0..len): 0 while the request is incomplete and len < cap (read
 * on), else 1 with *r filled: complete (an empty line ends the header
 * fields), malformed, or too long for cap bytes.  Line ends may be CRLF
 * or a bare LF.  Never reads past len; buf need not be NUL-terminated.
 */
int http_request_parse(const char *buf, size_t len, size_t cap,
		       struct http_request *r);

/* The reason phrase of a status this server sends ("Not Found"). */
const char *http_reason(int status);

#endif
