// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID GID CMD [ARG...]: drops every supplementary group, then the
 * group and user ids (real, effective and saved) to GID and UID, and execs
 * CMD (a path).  The VM tests run ext4dist unprivileged with it.
 * Static build: gcc -static -O2 -o runas runas.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_id(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *end || end == s || *v > 0xfffffffeUL ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long uid, gid;

	if (argc < 4 || parse_id(argv[1], &uid) || parse_id(argv[2], &gid)) {
		fprintf(stderr, "usage: runas UID GID CMD [ARG...]\n");
		return 2;
	}
	if (setgroups(0, NULL) || setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid)) {
		fprintf(stderr, "runas: cannot drop to %lu:%lu: %s\n", uid, gid,
			strerror(errno));
		return 126;
	}
	execv(argv[3], argv + 3);
	fprintf(stderr, "runas: %s: %s\n", argv[3], strerror(errno));
	return 127;
}
