// SPDX-License-Identifier: GPL-2.0
#include "tool/run/exporter.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/util/vlog.h"
#include "serve/http_server.h"
#include "serve/listen.h"
#include "tool/run/stop_signals.h"

struct exporter {
	struct http_server *srv;
	int sfd;			/* the stop signals */
	struct fleet *fl;
	struct http_body *last;		/* the last scrape's answer */
	long long last_ms;
	int err;			/* a drain failed: the run ends */
};

/* The totals now, or the last answer when it is fresh enough. */
static int metrics(void *ctx, struct http_body **body)
{
	struct exporter *x = ctx;
	long long now = http_now_ms();
	char *text;
	size_t len;
	int err;

	if (x->last && now - x->last_ms < EXPORTER_FRESH_MS) {
		*body = http_body_get(x->last);
		return 0;
	}
	if (!x->fl)
		return -EAGAIN;
	err = fleet_drain(x->fl);
	if (err) {
		x->err = err;
		return err;
	}
	err = report_prom_render(x->fl->total, x->fl->n, &text, &len);
	if (err)
		return err;
	http_body_put(x->last);
	x->last = http_body_new(text, len);
	free(text);
	if (!x->last)
		return -ENOMEM;
	x->last_ms = now;
	*body = http_body_get(x->last);
	return 0;
}

int exporter_open(struct exporter **xp, const char *spec, struct errbuf *eb)
{
	struct exporter *x = calloc(1, sizeof(*x));
	struct listen_spec ls;
	int fds[LISTEN_MAX_FDS];
	unsigned int n = 0, i;
	char where[80];
	int err;

	*xp = NULL;
	if (!x)
		return errbuf_set(eb, -ENOMEM, "--listen: out of memory");
	x->sfd = -1;
	err = listen_parse(spec, &ls, eb);
	if (!err)
		err = listen_open(&ls, spec, fds, &n, eb);
	if (err)
		goto fail;
	for (i = 0; i < n; i++) {
		listen_describe(fds[i], where, sizeof(where));
		vlog(1, "listening on %s%s: GET /metrics answers in the Prometheus text format",
		     where, ls.systemd ? " (a socket systemd passed)" : "");
	}
	x->srv = http_server_new(fds, n, metrics, x);
	if (!x->srv) {
		err = errbuf_set(eb, -ENOMEM, "--listen: out of memory");
		goto fail;
	}
	x->sfd = stop_fd_open();
	if (x->sfd < 0) {
		err = errbuf_set(eb, x->sfd, "--listen: cannot wait for signals: %s",
				 strerror(-x->sfd));
		goto fail;
	}
	*xp = x;
	return 0;
fail:
	exporter_close(x);
	return err;
}

void exporter_serve(struct exporter *x, struct fleet *fl)
{
	x->fl = fl;
}

/* Milliseconds to deadline, rounded up; 0 once it has passed. */
static int ms_to(const struct timespec *deadline)
{
	struct timespec now;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (deadline->tv_sec - now.tv_sec) * 1000000000LL +
	     (deadline->tv_nsec - now.tv_nsec);
	if (ns <= 0)
		return 0;
	return ns / 1000000 >= 0x7fffffff ? 0x7fffffff :
	       (int)((ns + 999999) / 1000000);
}

int exporter_wait(struct exporter *x, const struct timespec *deadline,
		  int forever)
{
	struct pollfd p[HTTP_MAX_POLLFDS + 1];

	for (;;) {
		int left = forever ? -1 : ms_to(deadline), t, sig;
		unsigned int n;

		if (left == 0)
			return 0;
		n = http_server_pollfds(x->srv, p, HTTP_MAX_POLLFDS);
		t = http_server_timeout(x->srv, http_now_ms());
		if (t >= 0 && (left < 0 || t < left))
			left = t;
		p[n].fd = x->sfd;
		p[n].events = POLLIN;
		p[n].revents = 0;
		if (poll(p, n + 1, left) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p[n].revents) {
			sig = stop_fd_read(x->sfd);
			if (sig)
				return sig;
		}
		http_server_handle(x->srv, p, n, http_now_ms());
		if (x->err)
			return x->err;
	}
}

void exporter_close(struct exporter *x)
{
	const struct http_stats *st;

	if (!x)
		return;
	if (x->srv) {
		st = http_server_stats(x->srv);
		vlog(1, "exporter: %llu connections, %llu answered, %llu cut off at a deadline, %llu closed to make room",
		     st->accepted, st->answered, st->timed_out, st->evicted);
	}
	http_server_free(x->srv);
	http_body_put(x->last);
	if (x->sfd >= 0)
		close(x->sfd);
	free(x);
}
