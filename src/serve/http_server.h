/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's HTTP server: a few listening sockets and at most
 * HTTP_MAX_CONNS connections, all non-blocking, driven by the caller's
 * poll() (no thread, no blocking call), so that serving never holds up
 * tracing.  GET and HEAD of /metrics answer the Prometheus text format;
 * / a short page; any other path 404, any other method 405.  One request
 * per connection (Connection: close).
 *
 * Every connection has a deadline for each stage: HTTP_READ_MS to send
 * its whole request, HTTP_WRITE_MS to take the whole answer, then at most
 * HTTP_LINGER_MS (and HTTP_LINGER_BYTES) of what it still sends is read
 * and dropped before the close, so that the answer is not lost to a
 * reset.  A full table makes room by closing the connection that has
 * been waiting longest for its request.  Memory: HTTP_MAX_REQUEST bytes
 * per connection, and the answers, which connections share.
 */
#ifndef EXT4DIST_SERVE_HTTP_SERVER_H
#define EXT4DIST_SERVE_HTTP_SERVER_H

#include <poll.h>
#include <stddef.h>

#include "serve/listen.h"

#define HTTP_MAX_CONNS		64
#define HTTP_MAX_REQUEST	8192
#define HTTP_READ_MS		5000
#define HTTP_WRITE_MS		10000
#define HTTP_LINGER_MS		1000
#define HTTP_LINGER_BYTES	65536
/* pollfd entries http_server_pollfds() may fill. */
#define HTTP_MAX_POLLFDS	(LISTEN_MAX_FDS + HTTP_MAX_CONNS)
/* An accept failing for want of descriptors: wait this long to retry. */
#define HTTP_ACCEPT_PAUSE_MS	100

/* An answer's body, shared by the connections sending it. */
struct http_body {
	unsigned int refs;
	size_t len;
	char data[];
};

/* A body holding a copy of len bytes, one reference; NULL without memory. */
struct http_body *http_body_new(const char *data, size_t len);
struct http_body *http_body_get(struct http_body *b);
void http_body_put(struct http_body *b);

/*
 * The metrics of a scrape: 0 with *body a reference the server puts, or
 * -errno (the client gets 500).
 */
typedef int (*http_metrics_fn)(void *ctx, struct http_body **body);

/* What the server has done, for -v and the tests. */
struct http_stats {
	unsigned long long accepted, answered, timed_out, evicted, refused;
	unsigned long long status[6];	/* by class: 1xx..5xx */
};

struct http_server;

/*
 * A server on the listening sockets fds[0..n-1] (it owns them from now
 * on).  NULL without memory (the sockets are closed).
 */
struct http_server *http_server_new(const int *fds, unsigned int n,
				    http_metrics_fn metrics, void *ctx);
/* Other deadlines than HTTP_READ_MS, HTTP_WRITE_MS, HTTP_LINGER_MS. */
void http_server_limits(struct http_server *s, int read_ms, int write_ms,
			int linger_ms);
/* Every connection and listening socket closed, the memory freed. */
void http_server_free(struct http_server *s);

/*
 * The descriptors to poll now, and for what, in p[0..max-1]: returns how
 * many (at most HTTP_MAX_POLLFDS).
 */
unsigned int http_server_pollfds(struct http_server *s, struct pollfd *p,
				 unsigned int max);
/*
 * Milliseconds from now_ms (CLOCK_MONOTONIC) to the nearest deadline, -1
 * when there is none.
 */
int http_server_timeout(const struct http_server *s, long long now_ms);
/*
 * After poll(): serves what p[0..n-1] (as http_server_pollfds() filled
 * them) say is ready, and cuts off the connections past their deadline.
 */
void http_server_handle(struct http_server *s, const struct pollfd *p,
			unsigned int n, long long now_ms);

const struct http_stats *http_server_stats(const struct http_server *s);
/* Connections open now. */
unsigned int http_server_conns(const struct http_server *s);

/* CLOCK_MONOTONIC in milliseconds. */
long long http_now_ms(void);

#endif
