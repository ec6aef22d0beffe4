// SPDX-License-Identifier: GPL-2.0
#include "serve/listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BACKLOG 64

static int parse_port(const char *s, unsigned int *port, struct errbuf *eb)
{
	unsigned long v = 0;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9' && v <= 65535; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (p == s || *p || v < 1 || v > 65535)
		return errbuf_set(eb, -EINVAL,
				  "invalid port: '%s' (expected 1 to 65535)",
				  s);
	*port = (unsigned int)v;
	return 0;
}

int listen_parse(const char *spec, struct listen_spec *out,
		 struct errbuf *eb)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)&out->addr;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->addr;
	const char *colon = strrchr(spec, ':');
	char host[64];
	unsigned int port;
	size_t hlen;
	int err;

	memset(out, 0, sizeof(*out));
	if (!strcmp(spec, "systemd")) {
		out->systemd = 1;
		return 0;
	}
	err = parse_port(colon ? colon + 1 : spec, &port, eb);
	if (err)
		return err;
	hlen = colon ? (size_t)(colon - spec) : 0;
	if (hlen >= sizeof(host))
		return errbuf_set(eb, -EINVAL, "invalid address: '%.*s'",
				  (int)hlen, spec);
	memcpy(host, spec, hlen);
	host[hlen] = '\0';
	if (hlen >= 2 && host[0] == '[' && host[hlen - 1] == ']') {
		host[hlen - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) != 1)
			return errbuf_set(eb, -EINVAL,
					  "invalid IPv6 address: '%s' (expected [::1]:PORT, [::]:PORT...)",
					  host + 1);
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((unsigned short)port);
		out->addr_len = sizeof(*in6);
		return 0;
	}
	/* A port alone: loopback, so nothing is exposed unless asked. */
	if (!hlen)
		snprintf(host, sizeof(host), "127.0.0.1");
	if (inet_pton(AF_INET, host, &in4->sin_addr) != 1)
		return errbuf_set(eb, -EINVAL,
				  "invalid address: '%s' (expected a numeric IPv4 address such as 127.0.0.1 or 0.0.0.0, [IPV6] in brackets, or systemd)",
				  host);
	in4->sin_family = AF_INET;
	in4->sin_port = htons((unsigned short)port);
	out->addr_len = sizeof(*in4);
	return 0;
}

void listen_describe(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl = sizeof(ss);
	char a[INET6_ADDRSTRLEN] = "?";

	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		snprintf(buf, len, "fd %d", fd);
	} else if (ss.ss_family == AF_INET) {
		inet_ntop(AF_INET, &in4->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(in4->sin_port));
	} else if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(in6->sin6_port));
	} else {
		snprintf(buf, len, "fd %d (address family %d)", fd,
			 ss.ss_family);
	}
}

static int bind_one(const struct listen_spec *spec, const char *shown,
		    struct errbuf *eb)
{
	int fd, one = 1, err;
	const char *hint;

	fd = socket(spec->addr.ss_family,
		    SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errbuf_set(eb, -errno, "--listen %s: cannot make a socket: %s",
				  shown, strerror(errno));
	/* A restart must not wait for the last run's connections to age. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!bind(fd, (const struct sockaddr *)&spec->addr, spec->addr_len) &&
	    !listen(fd, BACKLOG))
		return fd;
	err = -errno;
	close(fd);
	hint = err == -EADDRINUSE ?
	       "another process listens there (ss -ltnp says which): give another port" :
	       err == -EACCES ?
	       "ports below 1024 need CAP_NET_BIND_SERVICE: give a higher port" :
	       err == -EADDRNOTAVAIL ?
	       "no interface of this machine has that address: give one it has, 127.0.0.1 or 0.0.0.0" :
	       "give another address";
	return errbuf_set(eb, err, "--listen %s: cannot listen there: %s; %s",
			  shown, strerror(-err), hint);
}

/* An inherited descriptor systemd made: a listening stream socket. */
static int check_inherited(int fd, struct errbuf *eb)
{
	int type = 0, listening = 0, flags;
	socklen_t l = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l) || type != SOCK_STREAM)
		return errbuf_set(eb, -ENOTSOCK,
				  "--listen systemd: descriptor %d is not a stream socket: the socket unit needs ListenStream=",
				  fd);
	l = sizeof(listening);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &l) ||
	    !listening)
		return errbuf_set(eb, -EINVAL,
				  "--listen systemd: descriptor %d is not listening: the socket unit needs Accept=no",
				  fd);
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC))
		return errbuf_set(eb, -errno,
				  "--listen systemd: descriptor %d: %s", fd,
				  strerror(errno));
	return 0;
}

/* sd_listen_fds(3)'s protocol, read here: no libsystemd. */
static int take_systemd(int *fds, unsigned int *n, struct errbuf *eb)
{
	const char *pid = getenv("LISTEN_PID"), *nfds = getenv("LISTEN_FDS");
	char *end;
	long v;
	unsigned int i;
	int err;

	if (!pid || !nfds)
		return errbuf_set(eb, -ENOENT,
				  "--listen systemd: no socket was passed (LISTEN_PID and LISTEN_FDS are not set): start ext4dist from its socket unit (packaging/systemd/ext4dist.socket), or give --listen ADDR:PORT");
	v = strtol(pid, &end, 10);
	if (*end || v != (long)getpid())
		return errbuf_set(eb, -ESRCH,
				  "--listen systemd: the sockets were passed to process %s, not to this one (%ld)",
				  pid, (long)getpid());
	v = strtol(nfds, &end, 10);
	if (*end || v < 1 || v > LISTEN_MAX_FDS)
		return errbuf_set(eb, -EINVAL,
				  "--listen systemd: LISTEN_FDS is '%s': expected 1 to %d sockets",
				  nfds, LISTEN_MAX_FDS);
	for (i = 0; i < (unsigned int)v; i++) {
		err = check_inherited(LISTEN_FDS_START + (int)i, eb);
		if (err)
			return err;
		fds[i] = LISTEN_FDS_START + (int)i;
	}
	*n = (unsigned int)v;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	return 0;
}

int listen_open(const struct listen_spec *spec, const char *shown, int *fds,
		unsigned int *n, struct errbuf *eb)
{
	int fd;

	*n = 0;
	if (spec->systemd)
		return take_systemd(fds, n, eb);
	fd = bind_one(spec, shown, eb);
	if (fd < 0)
		return fd;
	fds[0] = fd;
	*n = 1;
	return 0;
}
