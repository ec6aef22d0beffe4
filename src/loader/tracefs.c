#include "loader/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/vlog.h"

static const struct tracefs_paths default_paths = {
	.tracing = "/sys/kernel/tracing",
	.debugfs = "/sys/kernel/debug",
};

static int join(char *path, size_t size, const char *dir, const char *name)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return !join(path, sizeof(path), dir, name) && access(path, F_OK) == 0;
}

/* A tracing dir is recognised by a file every kernel has there. */
static int try_dir(struct tracefs *tf, const char *dir)
{
	if (!exists(dir, "available_events") && !exists(dir, "kprobe_events"))
		return 0;
	snprintf(tf->dir, sizeof(tf->dir), "%s", dir);
	tf->has_kprobe_events = exists(dir, "kprobe_events");
	return 1;
}

static int try_mount(struct tracefs *tf, const char *type, const char *where)
{
	if (mount("nodev", where, type, 0, NULL)) {
		vlog(1, "mount -t %s %s failed: %s", type, where,
		     strerror(errno));
		return 0;
	}
	snprintf(tf->mounted, sizeof(tf->mounted), "%s", where);
	vlog(1, "mounted %s on %s (unmounted again at exit)", type, where);
	return 1;
}

int tracefs_open(struct tracefs *tf, const struct tracefs_paths *paths,
		 int may_mount, struct errbuf *eb)
{
	char debug_tracing[256];

	memset(tf, 0, sizeof(*tf));
	if (!paths)
		paths = &default_paths;
	if (join(debug_tracing, sizeof(debug_tracing), paths->debugfs,
		 "tracing"))
		return errbuf_set(eb, -ENAMETOOLONG, "debugfs path too long");
	/* tracing NULL: as before 4.1, when only debugfs had the files. */
	if ((paths->tracing && try_dir(tf, paths->tracing)) ||
	    try_dir(tf, debug_tracing))
		return 0;
	if (!may_mount)
		return errbuf_set(eb, -ENOENT,
				  "tracing file system not mounted (not needed: left alone)");
	/* Neither mounted: tracefs exists from 4.1, debugfs before that. */
	if (paths->tracing && try_mount(tf, "tracefs", paths->tracing)) {
		if (try_dir(tf, paths->tracing))
			return 0;
		tracefs_close(tf);
	}
	if (try_mount(tf, "debugfs", paths->debugfs)) {
		if (try_dir(tf, debug_tracing))
			return 0;
		tracefs_close(tf);
	}
	return errbuf_set(eb, -ENOENT,
			  "no tracing file system: neither %s nor %s/tracing is mounted, and mounting tracefs/debugfs failed (is CONFIG_FTRACE on? are we root?)",
			  paths->tracing ? paths->tracing : "tracefs",
			  paths->debugfs);
}

void tracefs_close(struct tracefs *tf)
{
	if (tf->mounted[0]) {
		if (umount(tf->mounted))
			vlog(1, "umount %s: %s", tf->mounted, strerror(errno));
		else
			vlog(1, "unmounted %s", tf->mounted);
	}
	tf->mounted[0] = '\0';
	tf->dir[0] = '\0';
	tf->has_kprobe_events = 0;
}

int tracefs_write(const struct tracefs *tf, const char *name,
		  const char *line)
{
	char path[PATH_MAX];
	size_t len = strlen(line);
	ssize_t n;
	int fd, err = 0;

	if (join(path, sizeof(path), tf->dir, name))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* One write per definition: the parser does not join split writes. */
	n = write(fd, line, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

int tracefs_read(const struct tracefs *tf, const char *name, char **out)
{
	char path[PATH_MAX];
	size_t cap = 4096, len = 0;
	char *buf = NULL;
	int fd, err = 0;

	if (join(path, sizeof(path), tf->dir, name))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (!buf || cap - len < 2) {
			char *nb = realloc(buf, buf ? cap *= 2 : cap);

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
