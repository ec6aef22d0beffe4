/*
 * Finding (and if need be mounting) the tracing file system, and the
 * kprobe_events file in it.
 */
#ifndef EXT4DIST_TRACEFS_H
#define EXT4DIST_TRACEFS_H

#include <limits.h>

#include "loader/errbuf.h"

struct tracefs {
	char dir[256];	/* "/sys/kernel/tracing", "" if none */
	int has_kprobe_events;	/* dir/kprobe_events exists */
	char mounted[256];	/* what we mounted ourselves, "" if nothing */
};

struct tracefs_paths {
	const char *tracing;	/* "/sys/kernel/tracing"; NULL: no tracefs */
	const char *debugfs;	/* "/sys/kernel/debug" */
};

/*
 * Looks for a tracing dir with kprobe_events: tracefs first, then the
 * debugfs layout (kernels before 4.1 have only that), mounting tracefs or
 * debugfs when neither is mounted and may_mount is set.  Returns 0 with tf->dir set (and
 * has_kprobe_events telling whether kprobes are there), or -ENOENT when no
 * tracing dir could be found or mounted.
 */
int tracefs_open(struct tracefs *tf, const struct tracefs_paths *paths,
		 int may_mount, struct errbuf *eb);
/* Unmounts what tracefs_open mounted. */
void tracefs_close(struct tracefs *tf);

/* Writes one line to dir/name (O_WRONLY|O_APPEND|O_CLOEXEC). */
int tracefs_write(const struct tracefs *tf, const char *name,
		  const char *line);
/* Reads dir/name into a malloc'ed NUL-terminated buffer. */
int tracefs_read(const struct tracefs *tf, const char *name, char **out);

#endif
