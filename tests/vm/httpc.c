// SPDX-License-Identifier: GPL-2.0
/*
 * httpc: the HTTP clients of the exporter's VM scenarios (busybox has
 * no curl), good and bad:
 *
 *   httpc get ADDR PATH [METHOD]   one request; the whole answer on stdout
 *   httpc query ADDR EXPR [TIME]   Prometheus' /api/v1/query: the JSON
 *   httpc scrape ADDR N MS         N scrapes of /metrics, MS apart, each
 *                                  checked: status, Content-Type,
 *                                  Content-Length, buckets cumulative,
 *                                  +Inf equal to _count, and no counter
 *                                  lower than in the scrape before
 *   httpc hold ADDR N              N connections, each sending half a
 *                                  request and waiting for the server to
 *                                  cut it off
 *   httpc big ADDR BYTES           a request with BYTES of header fields
 *   httpc junk ADDR BYTES          BYTES of noise
 *
 * ADDR is A.B.C.D:PORT.  The last three print what the server did and
 * after how long ("status 431 Request Header Fields Too Large, closed
 * after 12 ms").  Exit 0 when the exchange happened as the mode expects
 * it (an answer, consistent scrapes), 1 otherwise, 2 for a bad command
 * line.  Static build: gcc -static -O2 -o httpc httpc.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../lib/tcp_dial.h"

#define TIMEOUT_MS 30000
#define MAX_SERIES 8192

static struct sockaddr_in server;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int parse_addr(const char *s)
{
	char host[64];
	const char *colon = strrchr(s, ':');

	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	server.sin_family = AF_INET;
	server.sin_port = htons((unsigned short)atoi(colon + 1));
	return inet_pton(AF_INET, host, &server.sin_addr) == 1 ? 0 : -1;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The whole answer, up to the close: malloc'ed, NUL-terminated. */
static char *exchange(const char *req, size_t req_len, size_t *len)
{
	int fd = tcp_dial(&server, TIMEOUT_MS / 1000);
	char *buf;

	*len = 0;
	if (fd < 0)
		return NULL;
	if (send_all(fd, req, req_len)) {
		close(fd);
		return NULL;
	}
	buf = tcp_read_all(fd, 65536, len);
	close(fd);
	return buf;
}

/*
 * A chunked body (Transfer-Encoding: chunked, as Go's servers send a
 * long answer) joined in place; *len the answer's new length.
 */
static void dechunk(char *answer, size_t *len)
{
	char *head_end = strstr(answer, "\r\n\r\n"), *in, *out;
	const char *te = strcasestr(answer, "\r\nTransfer-Encoding: chunked");

	if (!head_end || !te || te > head_end)
		return;
	in = out = head_end + 4;
	for (;;) {
		char *end;
		unsigned long n = strtoul(in, &end, 16);

		end = strstr(end, "\r\n");
		if (!end || !n)
			break;
		end += 2;
		if ((size_t)(end - answer) + n > *len)
			break;
		memmove(out, end, n);
		out += n;
		in = end + n + 2;
	}
	*out = '\0';
	*len = (size_t)(out - answer);
}

static char *get(const char *path, const char *method, size_t *len)
{
	char req[8192], *a;
	int n = snprintf(req, sizeof(req),
			 "%s %s HTTP/1.1\r\nHost: %s:%u\r\nUser-Agent: httpc\r\nAccept: */*\r\nConnection: close\r\n\r\n",
			 method, path, inet_ntoa(server.sin_addr),
			 ntohs(server.sin_port));

	if (n < 0 || (size_t)n >= sizeof(req))
		return NULL;
	a = exchange(req, (size_t)n, len);
	if (a)
		dechunk(a, len);
	return a;
}

/* The body of an answer, NULL when it is not a 200. */
static char *body_of(char *answer)
{
	char *b = answer ? strstr(answer, "\r\n\r\n") : NULL;

	if (!b || strncmp(answer, "HTTP/1.1 200 ", 13))
		return NULL;
	return b + 4;
}

static void url_encode(const char *s, char *out, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *s && o + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-_.~", c)) {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
}

static int mode_get(const char *path, const char *method)
{
	size_t len;
	char *a = get(path, method, &len);

	if (!a || !len) {
		fprintf(stderr, "httpc: no answer\n");
		free(a);
		return 1;
	}
	fwrite(a, 1, len, stdout);
	free(a);
	return 0;
}

static int mode_query(const char *expr, const char *when)
{
	char enc[4096], path[4500];
	size_t len;
	char *a, *b;

	url_encode(expr, enc, sizeof(enc));
	snprintf(path, sizeof(path), "/api/v1/query?query=%s%s%s", enc,
		 when ? "&time=" : "", when ? when : "");
	a = get(path, "GET", &len);
	b = body_of(a);
	if (!b) {
		fprintf(stderr, "httpc: query failed: %.200s\n", a ? a : "no answer");
		free(a);
		return 1;
	}
	printf("%s\n", b);
	free(a);
	return 0;
}

/* ---- scrape: the answers checked, one against the next ---- */

struct series {
	char *key;
	double v;
};

static struct series seen[MAX_SERIES];
static unsigned int nseen;

static double *series_slot(const char *key)
{
	unsigned int i;

	for (i = 0; i < nseen; i++)
		if (!strcmp(seen[i].key, key))
			return &seen[i].v;
	if (nseen == MAX_SERIES)
		return NULL;
	seen[nseen].key = strdup(key);
	seen[nseen].v = -1;
	return &seen[nseen++].v;
}

/* A series' labels without its le: what its buckets share. */
static void without_le(const char *key, char *out, size_t len)
{
	const char *le = strstr(key, ",le=\"");
	const char *brace = strchr(key, '{');
	size_t name = brace ? (size_t)(brace - key) : strlen(key);
	const char *base = "_bucket";

	if (name > strlen(base) && !strncmp(key + name - strlen(base), base,
					       strlen(base)))
		name -= strlen(base);
	snprintf(out, len, "%.*s%.*s}", (int)name, key,
		 le ? (int)(le - brace) : (int)strlen(brace ? brace : ""),
		 brace ? brace : "");
}

static int check_body(char *body, unsigned int scrape)
{
	char inf_key[512] = "", prev_key[512] = "", *line, *save = NULL;
	double inf = -1, prev = -1;

	for (line = strtok_r(body, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' '), key[512];
		double v, *last;

		if (line[0] == '#')
			continue;
		if (!sp)
			goto bad;
		*sp = '\0';
		v = strtod(sp + 1, NULL);
		if (strstr(line, "_bucket{")) {
			without_le(line, key, sizeof(key));
			if (!strcmp(key, prev_key) && v < prev) {
				printf("scrape %u: bucket %s below the one before (%g < %g)\n",
				       scrape, line, v, prev);
				return 1;
			}
			snprintf(prev_key, sizeof(prev_key), "%s", key);
			prev = v;
			if (strstr(line, "le=\"+Inf\"")) {
				snprintf(inf_key, sizeof(inf_key), "%s", key);
				inf = v;
			}
		}
		if (strstr(line, "_count{")) {
			snprintf(key, sizeof(key), "%s", line);
			memmove(strstr(key, "_count{"),
				strstr(key, "_count{") + 6,
				strlen(strstr(key, "_count{") + 6) + 1);
			if (strcmp(key, inf_key) || v != inf) {
				printf("scrape %u: %s %g, its +Inf bucket %s %g\n",
				       scrape, line, v, inf_key, inf);
				return 1;
			}
		}
		if (strstr(line, "in_flight"))
			continue;	/* a gauge */
		last = series_slot(line);
		if (!last) {
			printf("scrape %u: more than %d series\n", scrape,
			       MAX_SERIES);
			return 1;
		}
		if (v < *last) {
			printf("scrape %u: %s went down from %g to %g\n", scrape,
			       line, *last, v);
			return 1;
		}
		*last = v;
	}
	return 0;
bad:
	printf("scrape %u: a line without a value: %s\n", scrape, line);
	return 1;
}

static int mode_scrape(unsigned int n, unsigned int ms)
{
	static const char type[] =
		"\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n";
	unsigned int i;

	for (i = 1; i <= n; i++) {
		size_t len;
		char *a = get("/metrics", "GET", &len), *b = body_of(a), *cl;

		if (!b || !strstr(a, type)) {
			printf("scrape %u: not a 200 with the text format's type: %.100s\n",
			       i, a ? a : "no answer");
			free(a);
			return 1;
		}
		cl = strstr(a, "\r\nContent-Length: ");
		if (!cl || strtoul(cl + 18, NULL, 10) != strlen(b)) {
			printf("scrape %u: Content-Length %lu, body %zu bytes\n",
			       i, cl ? strtoul(cl + 18, NULL, 10) : 0, strlen(b));
			free(a);
			return 1;
		}
		if (check_body(b, i)) {
			free(a);
			return 1;
		}
		free(a);
		usleep(ms * 1000);
	}
	printf("%u scrapes consistent\n", n);
	return 0;
}

/* ---- the bad clients ---- */

/*
 * Sends req (what the server takes of it) while reading what it says,
 * until it closes: prints its status line, or that there was none, and
 * when the connection ended.
 */
static int push_and_listen(const char *req, size_t bytes)
{
	char buf[4096], status[256] = "";
	size_t sent = 0, got = 0;
	long long t0 = now_ms();
	const char *end = "closed";
	int fd = tcp_dial(&server, TIMEOUT_MS / 1000);

	if (fd < 0)
		return 1;
	while (now_ms() - t0 < TIMEOUT_MS) {
		struct pollfd p = { fd, POLLIN | (sent < bytes ? POLLOUT : 0), 0 };
		ssize_t n;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		if ((p.revents & POLLOUT) && sent < bytes) {
			n = send(fd, req + sent, bytes - sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n > 0)
				sent += (size_t)n;
		}
		if (!(p.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = recv(fd, buf + got, sizeof(buf) - 1 - got, MSG_DONTWAIT);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n <= 0) {
			end = n < 0 ? strerror(errno) : "closed";
			break;
		}
		got += (size_t)n;
		buf[got] = '\0';
		if (!status[0] && strchr(buf, '\n'))
			snprintf(status, sizeof(status), "%.*s",
				 (int)strcspn(buf, "\r\n"), buf);
		if (got == sizeof(buf) - 1)
			got = 0;	/* only the start matters */
	}
	close(fd);
	printf("%s, %s after %lld ms (%zu of %zu bytes sent)\n",
	       status[0] ? status : "no answer", end, now_ms() - t0, sent,
	       bytes);
	return 0;
}

/*
 * n connections, each sending half a request; every one must be cut off
 * by the server (its read deadline, or closed to make room): how many
 * were, and the longest any stayed open after it was made.
 */
static int mode_hold(unsigned int n)
{
	static const char half[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
	struct pollfd *p = calloc(n, sizeof(*p));
	long long *since = calloc(n, sizeof(*since)), t0 = now_ms(), most = 0;
	unsigned int i, made = 0, closed = 0;

	if (!p || !since)
		return 1;
	for (i = 0; i < n; i++) {
		p[i].fd = tcp_dial(&server, TIMEOUT_MS / 1000);
		p[i].events = POLLIN;
		since[i] = now_ms();
		if (p[i].fd >= 0 && !send_all(p[i].fd, half, sizeof(half) - 1))
			made++;
	}
	while (closed < made && now_ms() - t0 < TIMEOUT_MS) {
		if (poll(p, n, 1000) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			char c;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			if (recv(p[i].fd, &c, 1, MSG_DONTWAIT) > 0)
				continue;	/* an answer to half a request? */
			if (now_ms() - since[i] > most)
				most = now_ms() - since[i];
			close(p[i].fd);
			p[i].fd = -1;
			closed++;
		}
	}
	for (i = 0; i < n; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	printf("%u of %u held connections cut off by the server, each within %lld ms of its connect\n",
	       closed, made, most);
	free(p);
	free(since);
	return closed == made && made == n ? 0 : 1;
}

static int mode_flood(size_t bytes, int junk)
{
	static const char start[] = "GET /metrics HTTP/1.1\r\nX-Big: ";
	char *req = malloc(bytes);
	unsigned int seed = 12345;
	size_t i;
	int rc;

	if (!req)
		return 1;
	for (i = 0; i < bytes; i++) {
		seed = seed * 1103515245 + 12345;
		req[i] = junk ? (char)(seed >> 16) : 'a';
	}
	if (!junk && bytes > sizeof(start))
		memcpy(req, start, sizeof(start) - 1);
	rc = push_and_listen(req, bytes);
	free(req);
	return rc;
}

static void usage(void)
{
	fprintf(stderr, "usage: httpc get ADDR PATH [METHOD] | query ADDR EXPR [TIME] | scrape ADDR N MS | hold ADDR N | big ADDR BYTES | junk ADDR BYTES\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 4 || parse_addr(argv[2]))
		usage();
	if (!strcmp(argv[1], "get"))
		return mode_get(argv[3], argc > 4 ? argv[4] : "GET");
	if (!strcmp(argv[1], "query"))
		return mode_query(argv[3], argc > 4 ? argv[4] : NULL);
	if (!strcmp(argv[1], "scrape") && argc == 5)
		return mode_scrape((unsigned int)atoi(argv[3]),
				   (unsigned int)atoi(argv[4]));
	if (!strcmp(argv[1], "hold"))
		return mode_hold((unsigned int)atoi(argv[3]));
	if (!strcmp(argv[1], "big") || !strcmp(argv[1], "junk"))
		return mode_flood(strtoul(argv[3], NULL, 10),
				  !strcmp(argv[1], "junk"));
	usage();
	return 2;
}
