/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client's side of one TCP exchange, for tests/unit/test_http.c and
 * tests/vm/httpc.c (header only: httpc builds from its one file).
 */
#ifndef EXT4DIST_TESTS_TCP_DIAL_H
#define EXT4DIST_TESTS_TCP_DIAL_H

#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* A connection to *to, its sends and receives given up after secs: its fd, or -1. */
static inline int tcp_dial(const struct sockaddr_in *to, int secs)
{
	struct timeval tv = { secs, 0 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (const struct sockaddr *)to, sizeof(*to))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Everything until the peer closes (or a receive times out), in a buffer
 * of cap bytes doubled as it fills: malloc'ed, NUL-terminated, its length
 * in *len; NULL without memory.
 */
static inline char *tcp_read_all(int fd, size_t cap, size_t *len)
{
	char *buf = malloc(cap + 1);
	ssize_t n;

	*len = 0;
	while (buf && (n = recv(fd, buf + *len, cap - *len, 0)) > 0) {
		*len += (size_t)n;
		if (*len == cap) {
			char *more = realloc(buf, 2 * cap + 1);

			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	if (buf)
		buf[*len] = '\0';
	return buf;
}

#endif
