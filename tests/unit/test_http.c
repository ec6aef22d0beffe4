// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's HTTP layer (src/serve/): the request parser on a table
 * of requests, whole and byte by byte; --listen's addresses and systemd's
 * sockets; and the server itself, run in a child process on a loopback
 * socket and answered by real clients here: the exact bytes of each
 * answer, HEAD, 404, 405 with Allow, 400, 414, 431, 505, and the clients
 * that must be cut off: a request never finished, 1 MB of header
 * fields, hundreds of connections at once, noise, an answer never read.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "serve/http_request.h"
#include "serve/http_server.h"
#include "serve/listen.h"
#include "lib/tcp_dial.h"
#include "test.h"

/* ---- the parser ---- */

struct req_case {
	const char *name, *text;
	int status, route, head, get;
};

static const struct req_case req_cases[] = {
	{ "GET /metrics", "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 200,
	  HTTP_ROUTE_METRICS, 0, 1 },
	{ "Prometheus' scrape",
	  "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9435\r\nUser-Agent: Prometheus/2.42.0\r\n"
	  "Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n"
	  "Accept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n",
	  200, HTTP_ROUTE_METRICS, 0, 1 },
	{ "HEAD", "HEAD /metrics HTTP/1.0\r\n\r\n", 200, HTTP_ROUTE_METRICS,
	  1, 1 },
	{ "query string", "GET /metrics?x=1 HTTP/1.1\r\n\r\n", 200,
	  HTTP_ROUTE_METRICS, 0, 1 },
	{ "absolute form", "GET http://h:9435/metrics HTTP/1.1\r\n\r\n", 200,
	  HTTP_ROUTE_METRICS, 0, 1 },
	{ "bare LF", "GET / HTTP/1.1\nHost: x\n\n", 200, HTTP_ROUTE_ROOT, 0,
	  1 },
	{ "other path", "GET /metricsx HTTP/1.1\r\n\r\n", 200,
	  HTTP_ROUTE_NONE, 0, 1 },
	{ "POST", "POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
	  200, HTTP_ROUTE_METRICS, 0, 0 },
	{ "lower-case get", "get /metrics HTTP/1.1\r\n\r\n", 200,
	  HTTP_ROUTE_METRICS, 0, 0 },
	{ "HTTP/2.0", "GET /metrics HTTP/2.0\r\n\r\n", 505, 0, 0, 0 },
	{ "HTTP/1.2", "GET /metrics HTTP/1.2\r\n\r\n", 505, 0, 0, 0 },
	{ "HTTP/0.9", "GET /metrics\r\n\r\n", 400, 0, 0, 0 },
	{ "version noise", "GET /metrics HTTP/1.1x\r\n\r\n", 400, 0, 0, 0 },
	{ "two spaces", "GET  /metrics HTTP/1.1\r\n\r\n", 400, 0, 0, 0 },
	{ "folded field", "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n", 400, 0, 0,
	  0 },
	{ "field without colon", "GET / HTTP/1.1\r\nA b\r\n\r\n", 400, 0, 0,
	  0 },
	{ "space in field name", "GET / HTTP/1.1\r\nA b: c\r\n\r\n", 400, 0,
	  0, 0 },
	{ "control in value", "GET / HTTP/1.1\r\nA: b\x01\r\n\r\n", 400, 0,
	  0, 0 },
	{ "TLS hello", "\x16\x03\x01\x02\x00\x01", 400, 0, 0, 0 },
	{ "long method", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 400, 0, 0, 0 },
	{ "empty line first", "\r\nGET / HTTP/1.1\r\n\r\n", 400, 0, 0, 0 },
};

static void test_parse(void)
{
	unsigned int i;
	char name[128];

	for (i = 0; i < sizeof(req_cases) / sizeof(req_cases[0]); i++) {
		const struct req_case *c = &req_cases[i];
		size_t len = strlen(c->text), k;
		struct http_request r, step;
		int got = 0, same = 1;

		snprintf(name, sizeof(name), "parse %s", c->name);
		check_int(name, http_request_parse(c->text, len, 8192, &r), 1);
		check_int(name, r.status, c->status);
		if (c->status == 200) {
			snprintf(name, sizeof(name), "parse %s: route, head, get",
				 c->name);
			check_int(name, r.route * 100 + r.head * 10 + r.get,
				  c->route * 100 + c->head * 10 + c->get);
		}
		/* Byte by byte: the same answer, at the same point or before. */
		for (k = 1; k <= len && !got; k++)
			got = http_request_parse(c->text, k, 8192, &step);
		same = got && step.status == r.status && step.route == r.route;
		snprintf(name, sizeof(name), "parse %s: byte by byte", c->name);
		CHECK(same, name);
	}
}

static void test_parse_limits(void)
{
	char buf[8192];
	struct http_request r;

	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "GET /", 5);
	check_int("request line past the buffer: read on before",
		  http_request_parse(buf, 8191, 8192, &r), 0);
	check_int("request line past the buffer",
		  http_request_parse(buf, 8192, 8192, &r), 1);
	check_int("request line past the buffer: 414", r.status, 414);
	memcpy(buf, "GET / HTTP/1.1\r\nX: ", 19);
	check_int("fields past the buffer",
		  http_request_parse(buf, 8192, 8192, &r), 1);
	check_int("fields past the buffer: 431", r.status, 431);
	memcpy(buf, "GET / HTTP/1.1\r\nX: a\0b", 22);
	check_int("NUL in a field being read",
		  http_request_parse(buf, 22, 8192, &r), 1);
	check_int("NUL in a field being read: 400", r.status, 400);
	check_int("nothing yet", http_request_parse(buf, 0, 8192, &r), 0);
	check_str("reason 431", http_reason(431),
		  "Request Header Fields Too Large");
}

/* ---- --listen ---- */

static void listen_case(const char *spec, int want_err, int family,
			const char *addr, unsigned int port, const char *msg)
{
	struct errbuf eb = { "" };
	struct listen_spec ls;
	char name[128], a[64] = "";
	int err = listen_parse(spec, &ls, &eb);
	unsigned int got_port = 0;

	snprintf(name, sizeof(name), "--listen %s", spec);
	check_int(name, err, want_err);
	if (err) {
		check_str(name, eb.msg, msg);
		return;
	}
	if (ls.addr.ss_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ls.addr;

		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		got_port = ntohs(in->sin_port);
	} else if (ls.addr.ss_family == AF_INET6) {
		struct sockaddr_in6 *in = (struct sockaddr_in6 *)&ls.addr;

		inet_ntop(AF_INET6, &in->sin6_addr, a, sizeof(a));
		got_port = ntohs(in->sin6_port);
	}
	check_int(name, ls.addr.ss_family, family);
	check_str(name, a, addr);
	check_int(name, got_port, port);
}

static void test_listen_parse(void)
{
	struct errbuf eb = { "" };
	struct listen_spec ls;

	listen_case("9435", 0, AF_INET, "127.0.0.1", 9435, NULL);
	listen_case(":9435", 0, AF_INET, "127.0.0.1", 9435, NULL);
	listen_case("0.0.0.0:80", 0, AF_INET, "0.0.0.0", 80, NULL);
	listen_case("10.1.2.3:65535", 0, AF_INET, "10.1.2.3", 65535, NULL);
	listen_case("[::1]:9435", 0, AF_INET6, "::1", 9435, NULL);
	listen_case("[::]:1", 0, AF_INET6, "::", 1, NULL);
	listen_case("0", -EINVAL, 0, "", 0,
		    "invalid port: '0' (expected 1 to 65535)");
	listen_case("65536", -EINVAL, 0, "", 0,
		    "invalid port: '65536' (expected 1 to 65535)");
	listen_case("localhost:9435", -EINVAL, 0, "", 0,
		    "invalid address: 'localhost' (expected a numeric IPv4 address such as 127.0.0.1 or 0.0.0.0, [IPV6] in brackets, or systemd)");
	listen_case("[::1:9435", -EINVAL, 0, "", 0,
		    "invalid address: '[::1' (expected a numeric IPv4 address such as 127.0.0.1 or 0.0.0.0, [IPV6] in brackets, or systemd)");
	listen_case("[fe80::zz]:9435", -EINVAL, 0, "", 0,
		    "invalid IPv6 address: 'fe80::zz' (expected [::1]:PORT, [::]:PORT...)");
	listen_case("127.0.0.1:", -EINVAL, 0, "", 0,
		    "invalid port: '' (expected 1 to 65535)");
	listen_case("::1", -EINVAL, 0, "", 0,
		    "invalid address: ':' (expected a numeric IPv4 address such as 127.0.0.1 or 0.0.0.0, [IPV6] in brackets, or systemd)");
	check_int("--listen systemd", listen_parse("systemd", &ls, &eb), 0);
	check_int("--listen systemd: from LISTEN_FDS", ls.systemd, 1);
}

/* A loopback listener on a port the kernel picks. */
static int loopback_listener(unsigned int *port)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	socklen_t l = sizeof(in);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&in, sizeof(in)) ||
	    listen(fd, 512) || getsockname(fd, (struct sockaddr *)&in, &l)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(in.sin_port);
	return fd;
}

static void test_listen_open(void)
{
	struct errbuf eb = { "" };
	struct listen_spec ls;
	unsigned int port, n;
	int busy = loopback_listener(&port), fds[LISTEN_MAX_FDS];
	char spec[32], want[256], where[64];

	if (!CHECK(busy >= 0, "a listener to collide with"))
		return;
	snprintf(spec, sizeof(spec), "127.0.0.1:%u", port);
	listen_parse(spec, &ls, &eb);
	check_int("address in use", listen_open(&ls, spec, fds, &n, &eb),
		  -EADDRINUSE);
	snprintf(want, sizeof(want),
		 "--listen %s: cannot listen there: Address already in use; another process listens there (ss -ltnp says which): give another port",
		 spec);
	check_str("address in use: message", eb.msg, want);
	check_int("address in use: nothing open", n, 0);
	close(busy);
	check_int("the port free again", listen_open(&ls, spec, fds, &n, &eb), 0);
	listen_describe(fds[0], where, sizeof(where));
	check_str("listening where asked", where, spec);
	close(fds[0]);
	listen_parse("203.0.113.9:9435", &ls, &eb);
	check_int("an address of no interface",
		  listen_open(&ls, "203.0.113.9:9435", fds, &n, &eb),
		  -EADDRNOTAVAIL);
	check_str("an address of no interface: message", eb.msg,
		  "--listen 203.0.113.9:9435: cannot listen there: Cannot assign requested address; no interface of this machine has that address: give one it has, 127.0.0.1 or 0.0.0.0");
}

/*
 * systemd's sockets, in a child whose descriptor 3 is made for the case
 * (the test's own 3 is left alone): prints the result on the pipe.
 */
static void systemd_case(const char *name, const char *pid_env,
			 const char *fds_env, int listening, int want_err,
			 const char *want_msg)
{
	int p[2], status = 0;
	char got[512] = "";
	pid_t child;
	ssize_t n;

	if (pipe(p))
		return;
	child = fork();
	if (child == 0) {
		struct listen_spec ls = { .systemd = 1 };
		struct errbuf eb = { "" };
		unsigned int port, k = 0;
		int fd = listening ? loopback_listener(&port) :
				     socket(AF_INET, SOCK_STREAM, 0);
		int fds[LISTEN_MAX_FDS], err;
		char pidbuf[32];

		close(p[0]);
		if (fd < 0 || dup2(fd, LISTEN_FDS_START) < 0)
			_exit(3);
		if (pid_env && !strcmp(pid_env, "self")) {
			snprintf(pidbuf, sizeof(pidbuf), "%d", (int)getpid());
			setenv("LISTEN_PID", pidbuf, 1);
		} else if (pid_env) {
			setenv("LISTEN_PID", pid_env, 1);
		} else {
			unsetenv("LISTEN_PID");
		}
		if (fds_env)
			setenv("LISTEN_FDS", fds_env, 1);
		else
			unsetenv("LISTEN_FDS");
		setenv("LISTEN_FDNAMES", "web", 1);
		err = listen_open(&ls, "systemd", fds, &k, &eb);
		dprintf(p[1], "%d %u %s|%s", err, k,
			getenv("LISTEN_PID") || getenv("LISTEN_FDNAMES") ?
			"env kept" : "env gone", eb.msg);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	close(p[0]);
	waitpid(child, &status, 0);
	if (want_err) {
		char want[512];

		snprintf(want, sizeof(want), "%d 0 env kept|%s", want_err,
			 want_msg ? want_msg : "");
		if (!want_msg)	/* the message names the child's pid */
			*(strchr(got, '|') ? strchr(got, '|') + 1 : got) = '\0';
		check_str(name, got, want);
	} else {
		check_str(name, got, "0 1 env gone|");
	}
}

static void test_listen_systemd(void)
{
	systemd_case("systemd: one listening socket", "self", "1", 1, 0, NULL);
	systemd_case("systemd: nothing passed", NULL, NULL, 1, -ENOENT,
		     "--listen systemd: no socket was passed (LISTEN_PID and LISTEN_FDS are not set): start ext4dist from its socket unit (packaging/systemd/ext4dist.socket), or give --listen ADDR:PORT");
	systemd_case("systemd: another process's", "1", "1", 1, -ESRCH, NULL);
	systemd_case("systemd: not listening", "self", "1", 0, -EINVAL,
		     "--listen systemd: descriptor 3 is not listening: the socket unit needs Accept=no");
	systemd_case("systemd: too many", "self", "9", 1, -EINVAL,
		     "--listen systemd: LISTEN_FDS is '9': expected 1 to 8 sockets");
}

/* ---- the server, in a child ---- */

#define TEST_READ_MS	300
#define TEST_WRITE_MS	400
#define TEST_LINGER_MS	200

struct served {
	pid_t pid;
	int stop;		/* closing it stops the child */
	int stats;		/* the child's http_stats at its end */
	unsigned int port;
};

static size_t metrics_len = 64;
static unsigned int scrapes;
/* The child's read deadline: TEST_READ_MS but where no timeout is wanted. */
static int read_ms = TEST_READ_MS;

/* "scrape N" then x's up to metrics_len bytes, ending in a newline. */
static int fake_metrics(void *ctx, struct http_body **body)
{
	char *text = malloc(metrics_len);
	int n;

	(void)ctx;
	if (!text)
		return -ENOMEM;
	memset(text, 'x', metrics_len);
	n = snprintf(text, metrics_len, "scrape %u", ++scrapes);
	text[n] = ' ';
	text[metrics_len - 1] = '\n';
	*body = http_body_new(text, metrics_len);
	free(text);
	return *body ? 0 : -ENOMEM;
}

static void serve_child(int lfd, int stop, int out)
{
	struct http_server *s = http_server_new(&lfd, 1, fake_metrics, NULL);
	struct pollfd p[HTTP_MAX_POLLFDS + 1];
	unsigned int conns_max = 0;

	if (!s)
		_exit(3);
	http_server_limits(s, read_ms, TEST_WRITE_MS, TEST_LINGER_MS);
	for (;;) {
		unsigned int n = http_server_pollfds(s, p, HTTP_MAX_POLLFDS);
		int t = http_server_timeout(s, http_now_ms());

		p[n].fd = stop;
		p[n].events = POLLIN;
		p[n].revents = 0;
		if (poll(p, n + 1, t) < 0 && errno != EINTR)
			_exit(4);
		if (p[n].revents)
			break;
		http_server_handle(s, p, n, http_now_ms());
		if (http_server_conns(s) > conns_max)
			conns_max = http_server_conns(s);
	}
	if (write(out, http_server_stats(s), sizeof(struct http_stats)) < 0 ||
	    write(out, &conns_max, sizeof(conns_max)) < 0)
		_exit(5);
	http_server_free(s);
	_exit(0);
}

static int serve_start(struct served *sv)
{
	int stop[2], stats[2], lfd = loopback_listener(&sv->port);

	if (lfd < 0 || pipe(stop) || pipe(stats))
		return -1;
	sv->pid = fork();
	if (sv->pid == 0) {
		close(stop[1]);
		close(stats[0]);
		serve_child(lfd, stop[0], stats[1]);
	}
	close(lfd);
	close(stop[0]);
	close(stats[1]);
	sv->stop = stop[1];
	sv->stats = stats[0];
	return 0;
}

/* Stops the child; its stats and the most connections it held. */
static void serve_stop(struct served *sv, struct http_stats *st,
		       unsigned int *conns_max)
{
	int status;

	close(sv->stop);
	memset(st, 0, sizeof(*st));
	*conns_max = 0;
	if (read(sv->stats, st, sizeof(*st)) != (ssize_t)sizeof(*st) ||
	    read(sv->stats, conns_max, sizeof(*conns_max)) !=
	    (ssize_t)sizeof(*conns_max))
		fprintf(stderr, "server child: no stats\n");
	close(sv->stats);
	waitpid(sv->pid, &status, 0);
	check_int("server child exited 0", WIFEXITED(status) ?
		  WEXITSTATUS(status) : 128 + WTERMSIG(status), 0);
}

static int dial(unsigned int port)
{
	struct sockaddr_in in = { .sin_family = AF_INET };

	in.sin_port = htons((unsigned short)port);
	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return tcp_dial(&in, 5);
}

/* One request, the whole answer. */
static char *ask(unsigned int port, const char *req, size_t req_len,
		 size_t *len)
{
	int fd = dial(port);
	char *got;

	*len = 0;
	if (fd < 0)
		return NULL;
	if (send(fd, req, req_len, MSG_NOSIGNAL) != (ssize_t)req_len) {
		close(fd);
		return NULL;
	}
	got = tcp_read_all(fd, 4096, len);
	close(fd);
	return got;
}

static void check_answer(const char *name, unsigned int port,
			 const char *req, const char *want)
{
	size_t len;
	char *got = ask(port, req, strlen(req), &len);

	check_str(name, got ? got : "(no answer)", want);
	free(got);
}

static long long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000LL +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_answers(void)
{
	struct served sv;
	struct http_stats st;
	unsigned int conns_max;
	char want[512];

	if (!CHECK(serve_start(&sv) == 0, "server started"))
		return;
	snprintf(want, sizeof(want),
		 "HTTP/1.1 200 OK\r\n"
		 "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
		 "Content-Length: 64\r\nConnection: close\r\n\r\n"
		 "scrape 1 %.54s\n",
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	check_answer("GET /metrics: the exact answer", sv.port,
		     "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", want);
	check_answer("HEAD /metrics: the header fields alone", sv.port,
		     "HEAD /metrics HTTP/1.1\r\n\r\n",
		     "HTTP/1.1 200 OK\r\n"
		     "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
		     "Content-Length: 64\r\nConnection: close\r\n\r\n");
	check_answer("404", sv.port, "GET /nope HTTP/1.1\r\n\r\n",
		     "HTTP/1.1 404 Not Found\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: 10\r\nConnection: close\r\n\r\n"
		     "Not Found\n");
	check_answer("405 with Allow", sv.port,
		     "POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\nab",
		     "HTTP/1.1 405 Method Not Allowed\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: 19\r\n"
		     "Allow: GET, HEAD\r\nConnection: close\r\n\r\n"
		     "Method Not Allowed\n");
	check_answer("505", sv.port, "GET /metrics HTTP/3.0\r\n\r\n",
		     "HTTP/1.1 505 HTTP Version Not Supported\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: 27\r\nConnection: close\r\n\r\n"
		     "HTTP Version Not Supported\n");
	check_answer("noise: 400 at once", sv.port, "\x16\x03\x01\x02\x00",
		     "HTTP/1.1 400 Bad Request\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: 12\r\nConnection: close\r\n\r\n"
		     "Bad Request\n");
	check_answer("/: the page", sv.port, "GET / HTTP/1.0\r\n\r\n",
		     "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
		     "Content-Length: 157\r\nConnection: close\r\n\r\n"
		     "<html><head><title>ext4dist</title></head><body>\n"
		     "<h1>ext4dist</h1>\n"
		     "<p>File system latency for Prometheus: <a href=\"/metrics\">/metrics</a></p>\n"
		     "</body></html>\n");
	serve_stop(&sv, &st, &conns_max);
	check_int("answered: 7", (long long)st.answered, 7);
	check_int("answers 2xx: 3", (long long)st.status[2], 3);
	check_int("answers 4xx: 3", (long long)st.status[4], 3);
	check_int("answers 5xx: 1", (long long)st.status[5], 1);
}

/* A request never finished: cut off at the read deadline. */
static void test_slow_request(void)
{
	struct served sv;
	struct http_stats st;
	struct timespec t0;
	unsigned int conns_max;
	size_t len;
	char *got;
	long long ms;
	int fd;

	if (!CHECK(serve_start(&sv) == 0, "server started"))
		return;
	fd = dial(sv.port);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	send(fd, "GET /metrics HTTP/1.1\r\nHost:", 28, MSG_NOSIGNAL);
	got = tcp_read_all(fd, 4096, &len);
	ms = ms_since(&t0);
	check_int("partial request: closed without an answer", (long long)len,
		  0);
	CHECK(ms >= TEST_READ_MS - 20 && ms < TEST_READ_MS + 500,
	      "partial request: closed at the read deadline");
	free(got);
	close(fd);
	serve_stop(&sv, &st, &conns_max);
	check_int("partial request: timed out", (long long)st.timed_out, 1);
}

/* 1 MB of header fields: 431 after 8 KiB, then cut off. */
static void test_huge_headers(void)
{
	struct served sv;
	struct http_stats st;
	struct timespec t0;
	unsigned int conns_max;
	size_t sent = 0, len = 0;
	char *junk = malloc(1 << 20), got[256] = "";
	long long ms;
	int fd, ended = 0;

	if (!junk || !CHECK(serve_start(&sv) == 0, "server started")) {
		free(junk);
		return;
	}
	memset(junk, 'a', 1 << 20);
	memcpy(junk, "GET /metrics HTTP/1.1\r\nX-Big: ", 30);
	fd = dial(sv.port);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Send what the socket takes, reading the answer meanwhile. */
	while (ms_since(&t0) < 3000) {
		ssize_t n = sent < (1 << 20) ?
			    send(fd, junk + sent, (1 << 20) - sent, MSG_NOSIGNAL) :
			    0;
		ssize_t r;

		if (n > 0)
			sent += (size_t)n;
		r = recv(fd, got + len, sizeof(got) - 1 - len, 0);
		if (r > 0)
			len += (size_t)r;
		if (r == 0 || (r < 0 && errno != EAGAIN) ||
		    (n < 0 && errno != EAGAIN)) {
			ended = 1;
			break;
		}
		usleep(1000);
	}
	ms = ms_since(&t0);
	got[len] = '\0';
	CHECK(!strncmp(got, "HTTP/1.1 431 Request Header Fields Too Large\r\n", 46),
	      "1 MB of header fields: 431");
	CHECK(ended && ms < TEST_LINGER_MS + 1000,
	      "1 MB of header fields: cut off soon (closed or reset)");
	close(fd);
	free(junk);
	serve_stop(&sv, &st, &conns_max);
	check_int("1 MB of header fields: one 4xx answer", (long long)st.status[4],
		  1);
}

/*
 * Hundreds of idle connections: a scrape still gets through.  With no
 * read deadline to run out, the counts are exact: the server takes the
 * connections in the order they were made (the listen queue), holds 64,
 * and each one past them closes the one that has waited longest, the
 * scrape's too.
 */
static void test_many_connections(void)
{
	enum { IDLE = 300 };
	struct served sv;
	struct http_stats st;
	struct timespec t0;
	unsigned int conns_max, i, open_ = 0;
	int fds[IDLE];
	size_t len;
	char *got;
	long long ms;

	read_ms = 60000;
	if (!CHECK(serve_start(&sv) == 0, "server started")) {
		read_ms = TEST_READ_MS;
		return;
	}
	for (i = 0; i < IDLE; i++) {
		fds[i] = dial(sv.port);
		open_ += fds[i] >= 0;
	}
	check_int("300 idle connections made", open_, IDLE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = ask(sv.port, "GET /metrics HTTP/1.1\r\n\r\n", 25, &len);
	ms = ms_since(&t0);
	CHECK(got && !strncmp(got, "HTTP/1.1 200 OK\r\n", 17),
	      "a scrape among 300 idle connections: answered");
	CHECK(ms < 1000, "a scrape among 300 idle connections: at once");
	free(got);
	for (i = 0; i < IDLE; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	serve_stop(&sv, &st, &conns_max);
	read_ms = TEST_READ_MS;
	check_int("300 idle connections: at most 64 held at once", conns_max,
		  HTTP_MAX_CONNS);
	check_int("300 idle connections and a scrape: all accepted",
		  (long long)st.accepted, IDLE + 1);
	check_int("300 idle connections: each past 64 closed the oldest",
		  (long long)st.evicted, IDLE + 1 - HTTP_MAX_CONNS);
	check_int("300 idle connections: none refused, none timed out",
		  (long long)(st.refused + st.timed_out), 0);
	check_int("one answer", (long long)st.answered, 1);
}

/* An answer never read: cut off at the write deadline. */
static void test_unread_answer(void)
{
	struct served sv;
	struct http_stats st;
	unsigned int conns_max;
	int fd, small = 4096;
	size_t len;
	char *got;

	metrics_len = 32 << 20;
	if (!CHECK(serve_start(&sv) == 0, "server started"))
		return;
	fd = dial(sv.port);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	send(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25, MSG_NOSIGNAL);
	usleep((TEST_WRITE_MS + 300) * 1000);
	/* Meanwhile, another client is served. */
	got = ask(sv.port, "HEAD /metrics HTTP/1.1\r\n\r\n", 26, &len);
	CHECK(got && !strncmp(got, "HTTP/1.1 200 OK\r\n", 17),
	      "another client served meanwhile");
	free(got);
	close(fd);
	serve_stop(&sv, &st, &conns_max);
	metrics_len = 64;
	check_int("the unread answer timed out", (long long)st.timed_out, 1);
	check_int("the other one answered", (long long)st.answered, 1);
}

/* Two clients at once each get a whole answer of their own. */
static void test_two_at_once(void)
{
	struct served sv;
	struct http_stats st;
	unsigned int conns_max;
	size_t l1, l2;
	char *a, *b;
	int f1, f2;

	metrics_len = 1 << 20;
	if (!CHECK(serve_start(&sv) == 0, "server started"))
		return;
	f1 = dial(sv.port);
	f2 = dial(sv.port);
	send(f1, "GET /metrics HTTP/1.1\r\n\r\n", 25, MSG_NOSIGNAL);
	send(f2, "GET /metrics HTTP/1.1\r\n\r\n", 25, MSG_NOSIGNAL);
	b = tcp_read_all(f2, 4096, &l2);
	a = tcp_read_all(f1, 4096, &l1);
	CHECK(a && b && l1 == l2 && l1 > (1 << 20),
	      "two at once: each a whole answer");
	CHECK(a && b && strstr(a, "scrape 1 ") && strstr(b, "scrape 2 "),
	      "two at once: each its own scrape");
	free(a);
	free(b);
	close(f1);
	close(f2);
	serve_stop(&sv, &st, &conns_max);
	metrics_len = 64;
	check_int("two at once: two answers", (long long)st.answered, 2);
}

static const struct test_case test_cases[] = {
	TEST_CASE(parse),
	TEST_CASE(parse_limits),
	TEST_CASE(listen_parse),
	TEST_CASE(listen_open),
	TEST_CASE(listen_systemd),
	TEST_CASE(answers),
	TEST_CASE(slow_request),
	TEST_CASE(huge_headers),
	TEST_CASE(many_connections),
	TEST_CASE(unread_answer),
	TEST_CASE(two_at_once),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	return test_main(argc, argv, test_cases);
}
