// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's HTTP server (interface and limits in http_server.h):
 * each connection reads its request, gets its answer, has what it still
 * sends dropped for a moment, and is closed; none ever blocks the loop.
 */
#include "serve/http_server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "loader/util/vlog.h"
#include "serve/http_request.h"

enum conn_state { CONN_FREE = 0, CONN_READING, CONN_WRITING, CONN_LINGERING };

struct conn {
	int fd;
	enum conn_state state;
	long long deadline;		/* of the stage it is in */
	long long since;		/* accepted at */
	size_t in_len;			/* request bytes read */
	char head[320];			/* status line and header fields */
	size_t head_len;
	struct http_body *body;		/* the answer's body, or NULL */
	const char *data;		/* its bytes (body's or a constant) */
	size_t data_len;		/* 0 for HEAD */
	size_t sent;			/* of head_len + data_len */
	size_t dropped;			/* lingering: bytes read and dropped */
	char note[48];			/* an error's body: its reason */
};

struct http_server {
	int lfd[LISTEN_MAX_FDS];
	unsigned int nl;
	struct conn c[HTTP_MAX_CONNS];
	char in[HTTP_MAX_CONNS][HTTP_MAX_REQUEST];
	http_metrics_fn metrics;
	void *ctx;
	int read_ms, write_ms, linger_ms;
	long long accept_pause_until;
	/* What each pollfd of the last http_server_pollfds() stands for. */
	int map[HTTP_MAX_POLLFDS];	/* conn index, or -1 - listener index */
	unsigned int nmap;
	struct http_stats st;
};

static const char metrics_type[] = "text/plain; version=0.0.4; charset=utf-8";
static const char text_type[] = "text/plain; charset=utf-8";
static const char html_type[] = "text/html; charset=utf-8";
static const char root_page[] =
	"<html><head><title>ext4dist</title></head><body>\n"
	"<h1>ext4dist</h1>\n"
	"<p>File system latency for Prometheus: <a href=\"/metrics\">/metrics</a></p>\n"
	"</body></html>\n";

long long http_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct http_body *http_body_new(const char *data, size_t len)
{
	struct http_body *b = malloc(sizeof(*b) + len);

	if (!b)
		return NULL;
	b->refs = 1;
	b->len = len;
	memcpy(b->data, data, len);
	return b;
}

struct http_body *http_body_get(struct http_body *b)
{
	if (b)
		b->refs++;
	return b;
}

void http_body_put(struct http_body *b)
{
	if (b && --b->refs == 0)
		free(b);
}

struct http_server *http_server_new(const int *fds, unsigned int n,
				    http_metrics_fn metrics, void *ctx)
{
	struct http_server *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s || n > LISTEN_MAX_FDS) {
		for (i = 0; i < n; i++)
			close(fds[i]);
		free(s);
		return NULL;
	}
	for (i = 0; i < n; i++)
		s->lfd[i] = fds[i];
	s->nl = n;
	s->metrics = metrics;
	s->ctx = ctx;
	http_server_limits(s, HTTP_READ_MS, HTTP_WRITE_MS, HTTP_LINGER_MS);
	for (i = 0; i < HTTP_MAX_CONNS; i++)
		s->c[i].fd = -1;
	return s;
}

void http_server_limits(struct http_server *s, int read_ms, int write_ms,
			int linger_ms)
{
	s->read_ms = read_ms;
	s->write_ms = write_ms;
	s->linger_ms = linger_ms;
}

static void conn_close(struct conn *c)
{
	if (c->state == CONN_FREE)
		return;
	close(c->fd);
	http_body_put(c->body);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

void http_server_free(struct http_server *s)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < HTTP_MAX_CONNS; i++)
		conn_close(&s->c[i]);
	for (i = 0; i < s->nl; i++)
		close(s->lfd[i]);
	free(s);
}

/* What a non-blocking send or recv came to. */
enum io { IO_DONE, IO_RETRY, IO_WAIT, IO_DEAD };

static enum io io_of(ssize_t n)
{
	if (n > 0)
		return IO_DONE;
	if (n < 0 && errno == EINTR)
		return IO_RETRY;
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return IO_WAIT;
	return IO_DEAD;	/* closed by the client, or reset */
}

/* The whole answer is out: the write side closed, the rest dropped. */
static void finished(const struct http_server *s, struct conn *c,
		     long long now)
{
	shutdown(c->fd, SHUT_WR);
	http_body_put(c->body);
	c->body = NULL;
	c->state = CONN_LINGERING;
	c->deadline = now + s->linger_ms;
}

static void do_write(struct http_server *s, struct conn *c, long long now)
{
	size_t total = c->head_len + c->data_len;

	while (c->sent < total) {
		struct iovec iov[2];
		struct msghdr msg;
		unsigned int k = 0;
		ssize_t n;

		if (c->sent < c->head_len) {
			iov[k].iov_base = c->head + c->sent;
			iov[k++].iov_len = c->head_len - c->sent;
		}
		if (c->data_len) {
			size_t off = c->sent > c->head_len ?
				     c->sent - c->head_len : 0;

			iov[k].iov_base = (char *)c->data + off;
			iov[k++].iov_len = c->data_len - off;
		}
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = iov;
		msg.msg_iovlen = k;
		n = sendmsg(c->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		switch (io_of(n)) {
		case IO_RETRY:
			continue;
		case IO_WAIT:
			return;
		case IO_DEAD:
			conn_close(c);
			return;
		case IO_DONE:
			c->sent += (size_t)n;
		}
	}
	s->st.answered++;
	finished(s, c, now);
}

static void answer(struct http_server *s, struct conn *c, int status,
		   const char *type, const char *extra, int head,
		   long long now)
{
	int n;

	n = snprintf(c->head, sizeof(c->head),
		     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%sConnection: close\r\n\r\n",
		     status, http_reason(status), type, c->data_len, extra);
	c->head_len = n > 0 && (size_t)n < sizeof(c->head) ? (size_t)n : 0;
	if (head)
		c->data_len = 0;
	c->sent = 0;
	c->state = CONN_WRITING;
	c->deadline = now + s->write_ms;
	if (status >= 100 && status < 600)
		s->st.status[status / 100]++;
	do_write(s, c, now);
}

/* An answer whose body is its reason phrase. */
static void answer_text(struct http_server *s, struct conn *c, int status,
			const char *extra, int head, long long now)
{
	snprintf(c->note, sizeof(c->note), "%s\n", http_reason(status));
	c->data = c->note;
	c->data_len = strlen(c->note);
	answer(s, c, status, text_type, extra, head, now);
}

static void respond(struct http_server *s, struct conn *c,
		    const struct http_request *r, long long now)
{
	struct http_body *b = NULL;
	int err;

	if (r->status != 200) {
		answer_text(s, c, r->status, "", 0, now);
		return;
	}
	if (r->route == HTTP_ROUTE_NONE) {
		answer_text(s, c, 404, "", r->head, now);
		return;
	}
	if (!r->get) {
		answer_text(s, c, 405, "Allow: GET, HEAD\r\n", 0, now);
		return;
	}
	if (r->route == HTTP_ROUTE_ROOT) {
		c->data = root_page;
		c->data_len = sizeof(root_page) - 1;
		answer(s, c, 200, html_type, "", r->head, now);
		return;
	}
	err = s->metrics(s->ctx, &b);
	if (err || !b) {
		vlog(1, "a scrape could not be answered: %s",
		     strerror(err ? -err : ENOMEM));
		answer_text(s, c, 500, "", r->head, now);
		return;
	}
	c->body = b;
	c->data = b->data;
	c->data_len = b->len;
	answer(s, c, 200, metrics_type, "", r->head, now);
}

static void do_read(struct http_server *s, unsigned int i, long long now)
{
	struct conn *c = &s->c[i];
	char *in = s->in[i];
	struct http_request r;

	for (;;) {
		ssize_t n = recv(c->fd, in + c->in_len,
				 HTTP_MAX_REQUEST - c->in_len, MSG_DONTWAIT);

		switch (io_of(n)) {
		case IO_RETRY:
			continue;
		case IO_WAIT:
			return;
		case IO_DEAD:	/* gone before a whole request */
			conn_close(c);
			return;
		case IO_DONE:
			c->in_len += (size_t)n;
		}
		if (http_request_parse(in, c->in_len, HTTP_MAX_REQUEST, &r)) {
			respond(s, c, &r, now);
			return;
		}
	}
}

static void do_linger(struct http_server *s, unsigned int i)
{
	struct conn *c = &s->c[i];

	for (;;) {
		ssize_t n = recv(c->fd, s->in[i], HTTP_MAX_REQUEST,
				 MSG_DONTWAIT);
		enum io io = io_of(n);

		if (io == IO_RETRY)
			continue;
		if (io == IO_WAIT)
			return;
		if (io == IO_DONE)
			c->dropped += (size_t)n;
		if (io == IO_DEAD || c->dropped > HTTP_LINGER_BYTES) {
			conn_close(c);
			return;
		}
	}
}

/*
 * A free slot, making one when the table is full: the connection that
 * has waited longest for its request goes (a slow or idle client), else
 * the one lingering longest.  -1 when every one is being answered.
 */
static int oldest_in(const struct http_server *s, enum conn_state state)
{
	int oldest = -1;
	unsigned int i;

	for (i = 0; i < HTTP_MAX_CONNS; i++)
		if (s->c[i].state == state &&
		    (oldest < 0 || s->c[i].since < s->c[oldest].since))
			oldest = (int)i;
	return oldest;
}

static int free_slot(struct http_server *s)
{
	int i = oldest_in(s, CONN_FREE);

	if (i >= 0)
		return i;
	i = oldest_in(s, CONN_READING);
	if (i < 0)
		i = oldest_in(s, CONN_LINGERING);
	if (i >= 0) {
		conn_close(&s->c[i]);
		s->st.evicted++;
	}
	return i;
}

static void do_accept(struct http_server *s, int lfd, long long now)
{
	unsigned int round;

	for (round = 0; round < HTTP_MAX_CONNS; round++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		int slot;

		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				vlog(1, "cannot accept a connection: %s (waiting %d ms)",
				     strerror(errno), HTTP_ACCEPT_PAUSE_MS);
				s->accept_pause_until = now + HTTP_ACCEPT_PAUSE_MS;
			}
			return;
		}
		slot = free_slot(s);
		if (slot < 0) {
			close(fd);
			s->st.refused++;
			continue;
		}
		s->st.accepted++;
		s->c[slot].fd = fd;
		s->c[slot].state = CONN_READING;
		s->c[slot].since = now;
		s->c[slot].deadline = now + s->read_ms;
		/* Its request is often there already. */
		do_read(s, (unsigned int)slot, now);
	}
}

unsigned int http_server_pollfds(struct http_server *s, struct pollfd *p,
				 unsigned int max)
{
	unsigned int n = 0, i;
	long long now = http_now_ms();

	for (i = 0; i < s->nl && n < max; i++) {
		if (s->accept_pause_until > now)
			break;
		p[n].fd = s->lfd[i];
		p[n].events = POLLIN;
		p[n].revents = 0;
		s->map[n++] = -1 - (int)i;
	}
	for (i = 0; i < HTTP_MAX_CONNS && n < max; i++) {
		if (s->c[i].state == CONN_FREE)
			continue;
		p[n].fd = s->c[i].fd;
		p[n].events = s->c[i].state == CONN_WRITING ? POLLOUT : POLLIN;
		p[n].revents = 0;
		s->map[n++] = (int)i;
	}
	s->nmap = n;
	return n;
}

int http_server_timeout(const struct http_server *s, long long now_ms)
{
	long long next = -1;
	unsigned int i;

	if (s->accept_pause_until > now_ms)
		next = s->accept_pause_until;
	for (i = 0; i < HTTP_MAX_CONNS; i++)
		if (s->c[i].state != CONN_FREE &&
		    (next < 0 || s->c[i].deadline < next))
			next = s->c[i].deadline;
	if (next < 0)
		return -1;
	return next <= now_ms ? 0 : (int)(next - now_ms);
}

static void expire(struct http_server *s, long long now)
{
	unsigned int i;

	for (i = 0; i < HTTP_MAX_CONNS; i++) {
		struct conn *c = &s->c[i];

		if (c->state == CONN_FREE || c->deadline > now)
			continue;
		if (c->state != CONN_LINGERING)
			s->st.timed_out++;
		conn_close(c);
	}
}

void http_server_handle(struct http_server *s, const struct pollfd *p,
			unsigned int n, long long now_ms)
{
	unsigned int i;

	/* Connections first: an accept may reuse a slot. */
	for (i = 0; i < n && i < s->nmap; i++) {
		struct conn *c;

		if (s->map[i] < 0 || !p[i].revents)
			continue;
		c = &s->c[s->map[i]];
		if (c->fd != p[i].fd)
			continue;
		if (c->state == CONN_READING)
			do_read(s, (unsigned int)s->map[i], now_ms);
		else if (c->state == CONN_WRITING)
			do_write(s, c, now_ms);
		else if (c->state == CONN_LINGERING)
			do_linger(s, (unsigned int)s->map[i]);
	}
	for (i = 0; i < n && i < s->nmap; i++)
		if (s->map[i] < 0 && p[i].revents)
			do_accept(s, s->lfd[-1 - s->map[i]], now_ms);
	expire(s, now_ms);
}

const struct http_stats *http_server_stats(const struct http_server *s)
{
	return &s->st;
}

unsigned int http_server_conns(const struct http_server *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < HTTP_MAX_CONNS; i++)
		n += s->c[i].state != CONN_FREE;
	return n;
}
