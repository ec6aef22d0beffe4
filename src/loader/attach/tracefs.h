/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding (and if need be mounting) the tracing file system, and the
 * kprobe_events file in it.  Everything goes through a descriptor of the
 * tracing dir, taken once: an unmount of the path under us (another
 * instance's, the administrator's) cannot take the dir away, since a
 * detached mount lives on while a descriptor holds it.
 */
#ifndef EXT4DIST_LOADER_ATTACH_TRACEFS_H
#define EXT4DIST_LOADER_ATTACH_TRACEFS_H

#include <limits.h>

#include "loader/util/errbuf.h"

struct tracefs {
	char dir[256];	/* "/sys/kernel/tracing", "" if none (messages) */
	int dirfd;		/* the tracing dir, -1 if none */
	int has_kprobe_events;	/* dir/kprobe_events exists */
	/*
	 * kprobe_events open for appending, -1 if not: a removal needs no
	 * new descriptor (an attach that ran out of them can still undo
	 * the definition it made).
	 */
	int events_fd;
	char mounted[256];	/* where a mount of our own shows it, or "" */
};

struct tracefs_paths {
	const char *tracing;	/* "/sys/kernel/tracing"; NULL: no tracefs */
	const char *debugfs;	/* "/sys/kernel/debug" */
};

/*
 * Looks for a tracing dir with kprobe_events: tracefs first, then the
 * debugfs layout (kernels before 4.1 have only that).  When neither is
 * mounted and may_mount is set, mounts tracefs (or debugfs), opens the
 * dir and detaches the mount at once (umount2 MNT_DETACH): it is ours
 * alone, nobody else sees it or can unmount it, and it goes with the
 * last descriptor, even after kill -9.  Returns 0 with tf->dirfd open,
 * tf->dir set (and has_kprobe_events telling whether kprobes are there),
 * or -ENOENT when no tracing dir could be found or mounted.
 */
int tracefs_open(struct tracefs *tf, const struct tracefs_paths *paths,
		 int may_mount, struct errbuf *eb);
/* Closes the dir (and with it a mount of our own). */
void tracefs_close(struct tracefs *tf);

/* Writes one line to dir/name (O_WRONLY|O_APPEND|O_CLOEXEC). */
int tracefs_write(const struct tracefs *tf, const char *name,
		  const char *line);
/* Reads dir/name into a malloc'ed NUL-terminated buffer. */
int tracefs_read(const struct tracefs *tf, const char *name, char **out);

#endif
