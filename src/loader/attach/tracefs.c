// SPDX-License-Identifier: GPL-2.0
#include "loader/attach/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/util/kcall.h"
#include "loader/util/own_mount.h"
#include "loader/util/vlog.h"

static const struct tracefs_paths default_paths = {
	.tracing = "/sys/kernel/tracing",
	.debugfs = "/sys/kernel/debug",
};

static int join(char *path, size_t size, const char *dir, const char *name)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int has(int dirfd, const char *name)
{
	return faccessat(dirfd, name, F_OK, 0) == 0;
}

/*
 * A tracing dir is recognised by a file every kernel has there.  (An
 * O_RDONLY open, not O_PATH: it must trigger the automount of tracefs
 * at debugfs's tracing/, 4.1+.)  fd is the dir's, or the open's -errno:
 * 1 when it is one, 0 when not; a full file table says nothing about
 * the dir: its -errno.
 */
static int try_fd(struct tracefs *tf, int fd, const char *dir)
{
	if (errno_nofile(fd))
		return fd;
	if (fd < 0)
		return 0;
	if (!has(fd, "available_events") && !has(fd, "kprobe_events")) {
		close(fd);
		return 0;
	}
	tf->dirfd = fd;
	snprintf(tf->dir, sizeof(tf->dir), "%s", dir);
	tf->has_kprobe_events = has(fd, "kprobe_events");
	if (tf->has_kprobe_events)
		tf->events_fd = openat(fd, "kprobe_events",
				       O_WRONLY | O_APPEND | O_CLOEXEC);
	return 1;
}

static int try_dir(struct tracefs *tf, const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return try_fd(tf, fd < 0 ? -errno : fd, dir);
}

/*
 * Looks for the tracing dir (sub, or the root) on a mount of type of
 * this process's own (own_mount.h: kept by the descriptor try_fd()
 * holds), shown as where/sub.
 */
static int try_mount(struct tracefs *tf, const char *type, const char *where,
		     const char *sub)
{
	char dir[256];
	const char *path = sub[0] ? dir : where;
	int found;

	if (join(dir, sizeof(dir), where, sub))
		return 0;
	found = try_fd(tf, own_mount_open(type, where, sub,
					  O_RDONLY | O_DIRECTORY), path);
	if (found == 1)
		snprintf(tf->mounted, sizeof(tf->mounted), "%s", where);
	return found;
}

/* A full file table, said (0 when found is 0 or 1). */
static int nofile(int found, const char *where, struct errbuf *eb)
{
	return found < 0 ? errbuf_nofile(eb, found, "cannot open %s", where) : 0;
}

int tracefs_open(struct tracefs *tf, const struct tracefs_paths *paths,
		 int may_mount, struct errbuf *eb)
{
	char debug_tracing[256];
	int found;

	memset(tf, 0, sizeof(*tf));
	tf->dirfd = tf->events_fd = -1;
	if (!paths)
		paths = &default_paths;
	if (join(debug_tracing, sizeof(debug_tracing), paths->debugfs,
		 "tracing"))
		return errbuf_set(eb, -ENAMETOOLONG, "debugfs path too long");
	/* tracing NULL: as before 4.1, when only debugfs had the files. */
	found = paths->tracing ? try_dir(tf, paths->tracing) : 0;
	if (nofile(found, paths->tracing, eb))
		return found;
	if (!found)
		found = try_dir(tf, debug_tracing);
	if (nofile(found, debug_tracing, eb))
		return found;
	if (found)
		return 0;
	if (!may_mount)
		return errbuf_set(eb, -ENOENT,
				  "tracing file system not mounted (not needed: left alone)");
	/* Neither mounted: tracefs exists from 4.1, debugfs before that. */
	found = paths->tracing ?
		try_mount(tf, "tracefs", paths->tracing, "") : 0;
	if (nofile(found, paths->tracing, eb))
		return found;
	if (!found)
		found = try_mount(tf, "debugfs", paths->debugfs, "tracing");
	if (nofile(found, debug_tracing, eb))
		return found;
	if (found)
		return 0;
	return errbuf_set(eb, -ENOENT,
			  "no tracing file system: neither %s nor %s/tracing is mounted, and mounting tracefs/debugfs failed (is CONFIG_FTRACE on? are we root?)",
			  paths->tracing ? paths->tracing : "tracefs",
			  paths->debugfs);
}

void tracefs_close(struct tracefs *tf)
{
	if (tf->dirfd >= 0) {
		close(tf->dirfd);
		if (tf->mounted[0])
			vlog(1, "released the %s mount of our own", tf->mounted);
	}
	if (tf->events_fd >= 0)
		close(tf->events_fd);
	tf->dirfd = tf->events_fd = -1;
	tf->mounted[0] = '\0';
	tf->dir[0] = '\0';
	tf->has_kprobe_events = 0;
}

int tracefs_write(const struct tracefs *tf, const char *name,
		  const char *line)
{
	size_t len = strlen(line);
	ssize_t n;
	int fd, err = 0;

	if (tf->events_fd >= 0 && strcmp(name, "kprobe_events") == 0)
		fd = tf->events_fd;
	else
		fd = openat(tf->dirfd, name, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* One write per definition: the parser does not join split writes. */
	n = write(fd, line, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (fd != tf->events_fd)
		close(fd);
	/* The tracing dir's path, the line without its newline. */
	kcall_log(1, n < 0 ? err : n, "write(%s/%s, \"%.*s\\n\", %zu)", tf->dir,
		  name, (int)(len && line[len - 1] == '\n' ? len - 1 : len),
		  line, len);
	return err;
}

int tracefs_read(const struct tracefs *tf, const char *name, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf = NULL;
	int fd, err = 0;

	fd = openat(tf->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return err;
}
