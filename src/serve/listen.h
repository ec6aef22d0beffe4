/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the exporter listens (--listen): an address and port it binds
 * itself, or the sockets systemd passes (socket activation).
 */
#ifndef EXT4DIST_SERVE_LISTEN_H
#define EXT4DIST_SERVE_LISTEN_H

#include <netinet/in.h>
#include <sys/socket.h>

#include "loader/util/errbuf.h"

/* Sockets systemd may pass at most; more is refused. */
#define LISTEN_MAX_FDS	8
/* The first descriptor systemd passes (sd_listen_fds(3)). */
#define LISTEN_FDS_START 3

struct listen_spec {
	int systemd;			/* "systemd": LISTEN_FDS */
	struct sockaddr_storage addr;	/* else: what to bind */
	socklen_t addr_len;
};

/*
 * Reads --listen's value: "PORT" or ":PORT" (127.0.0.1), "A.B.C.D:PORT",
 * "[IPV6]:PORT", or "systemd".  Numeric addresses only: nothing is looked
 * up.  0, or -EINVAL with argparse's wording of what is wrong in eb
 * ("invalid port: '99999' (expected 1 to 65535)").
 */
int listen_parse(const char *spec, struct listen_spec *out,
		 struct errbuf *eb);

/*
 * The listening sockets of spec, non-blocking and close-on-exec, in
 * fds[] (*n of them): bound here, or taken over from systemd (each
 * checked to be a listening stream socket; LISTEN_PID, LISTEN_FDS and
 * LISTEN_FDNAMES are then removed from the environment).  On failure,
 * nothing stays open and eb says what failed and what to do
 * ("--listen 127.0.0.1:9435: cannot bind: Address already in use; ...").
 * shown is the --listen value as given, for those messages.
 */
int listen_open(const struct listen_spec *spec, const char *shown, int *fds,
		unsigned int *n, struct errbuf *eb);

/* "127.0.0.1:9435", "[::1]:9435": the address a socket listens on. */
void listen_describe(int fd, char *buf, size_t len);

#endif
