// SPDX-License-Identifier: GPL-2.0
/*
 * One HTTP/1.x request as RFC 9112 spells it: request-line, header
 * fields, an empty line.  Strict where a lenient reading could be
 * tricked (bytes that are not allowed, a header folded onto the next
 * line), lenient where HTTP clients differ harmlessly (a bare LF ending
 * a line).
 */
#include "serve/http_request.h"

#include <string.h>

#define METHOD_MAX	16

/* RFC 9110 token characters (methods, field names). */
static int tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Visible characters and space/tab: what a field value may hold. */
static int vchar_or_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || (c >= 0x21 && c != 0x7f);
}

/* The end of the line at p (its LF), or NULL when not within end. */
static const char *line_end(const char *p, const char *end)
{
	return memchr(p, '\n', (size_t)(end - p));
}

/* The length of a line without its CR LF or LF. */
static size_t line_len(const char *p, const char *lf)
{
	return (size_t)(lf - p) - (lf > p && lf[-1] == '\r');
}

static int done(struct http_request *r, int status)
{
	r->status = status;
	return 1;
}

/*
 * 1 while the start of a first line can still become a request: a
 * method's characters, then a space.  What speaks another protocol (a
 * TLS hello, binary noise) is refused at once, not when the buffer is
 * full or the time is up.
 */
static int method_so_far(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < METHOD_MAX; i++) {
		if (p[i] == ' ')
			return i > 0;
		if (!tchar((unsigned char)p[i]))
			return 0;
	}
	return i < METHOD_MAX;
}

/* A route from the request-target: origin form, or absolute form. */
static enum http_route route_of(const char *t, size_t n)
{
	const char *q;
	size_t path;

	if (n > 7 && !strncmp(t, "http://", 7)) {
		q = memchr(t + 7, '/', n - 7);
		if (!q)
			return HTTP_ROUTE_ROOT;
		n -= (size_t)(q - t);
		t = q;
	}
	q = memchr(t, '?', n);
	path = q ? (size_t)(q - t) : n;
	if (path == 8 && !memcmp(t, "/metrics", 8))
		return HTTP_ROUTE_METRICS;
	if (path == 1 && t[0] == '/')
		return HTTP_ROUTE_ROOT;
	return HTTP_ROUTE_NONE;
}

/* method SP request-target SP HTTP/1.x */
static int request_line(const char *p, size_t n, struct http_request *r)
{
	const char *sp1 = memchr(p, ' ', n), *sp2, *v;
	size_t m, t, vn, i;

	if (!sp1)
		return 400;
	m = (size_t)(sp1 - p);
	if (!m || m >= METHOD_MAX)
		return 400;
	for (i = 0; i < m; i++)
		if (!tchar((unsigned char)p[i]))
			return 400;
	sp2 = memchr(sp1 + 1, ' ', n - m - 1);
	if (!sp2)
		return 400;
	t = (size_t)(sp2 - sp1 - 1);
	if (!t)
		return 400;
	for (i = 0; i < t; i++)
		if ((unsigned char)sp1[1 + i] <= 0x20 ||
		    (unsigned char)sp1[1 + i] == 0x7f)
			return 400;
	v = sp2 + 1;
	vn = n - (size_t)(v - p);
	if (vn != 8 || strncmp(v, "HTTP/", 5) || v[6] != '.' ||
	    v[5] < '0' || v[5] > '9' || v[7] < '0' || v[7] > '9')
		return 400;
	if (v[5] != '1' || (v[7] != '0' && v[7] != '1'))
		return 505;
	r->get = (m == 3 && !memcmp(p, "GET", 3)) ||
		 (m == 4 && !memcmp(p, "HEAD", 4));
	r->head = m == 4 && !memcmp(p, "HEAD", 4);
	r->route = route_of(sp1 + 1, t);
	return 200;
}

/*
 * name ":" OWS value OWS; 0 or 400.  A body the request announces is
 * never read: the connection closes after the answer.
 */
static int field_line(const char *p, size_t n)
{
	const char *colon = memchr(p, ':', n);
	size_t c, i;

	if (!colon || colon == p)
		return 400;
	c = (size_t)(colon - p);
	for (i = 0; i < c; i++)
		if (!tchar((unsigned char)p[i]))
			return 400;
	for (i = c + 1; i < n; i++)
		if (!vchar_or_ws((unsigned char)p[i]))
			return 400;
	return 0;
}

int http_request_parse(const char *buf, size_t len, size_t cap,
		       struct http_request *r)
{
	const char *end = buf + len, *p = buf, *lf;
	int status;

	memset(r, 0, sizeof(*r));
	lf = line_end(p, end);
	if (!lf && !method_so_far(buf, len))
		return done(r, 400);
	if (!lf)
		return len >= cap ? done(r, 414) : 0;
	status = request_line(p, line_len(p, lf), r);
	if (status != 200)
		return done(r, status);
	for (p = lf + 1; (lf = line_end(p, end)); p = lf + 1) {
		size_t n = line_len(p, lf);

		if (!n)
			return done(r, 200);
		/* obs-fold: RFC 9112 lets a server refuse it. */
		if (p[0] == ' ' || p[0] == '\t')
			return done(r, 400);
		status = field_line(p, n);
		if (status)
			return done(r, status);
	}
	/* A NUL in the line still being read: refused at once. */
	if (memchr(p, '\0', (size_t)(end - p)))
		return done(r, 400);
	return len >= cap ? done(r, 431) : 0;
}

const char *http_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 414: return "URI Too Long";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Unknown";
	}
}
