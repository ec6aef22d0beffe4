// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic replacement of an output file (--prometheus, --heatmap): a
 * reader (node_exporter's textfile collector, a browser) must never see a
 * half-written file, so the text goes to <name>.tmp.<pid> in the same
 * directory, is fsync'ed, and is renamed over the target.
 *
 * A rename replaces whatever has the target's name: a device node
 * (/dev/null, /dev/full), a symbolic link, a fifo.  So only a regular
 * file (or a new name) is ever replaced, the replacement keeps the old
 * file's owner and mode, and file_replace_check() refuses at start-up
 * what the writes could not do.  Every name is taken relative to a
 * descriptor of the directory, so names up to NAME_MAX work even where
 * the directory's path and the temporary name together would not fit.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/file_replace.h"

struct replace_target {
	int dfd;			/* the directory, O_PATH */
	const char *base;		/* the file name in it */
	char dir[PATH_MAX];		/* the directory, for messages */
	char tmp[NAME_MAX + 1];		/* <base, cut>.tmp.<pid> */
};

/* Splits path into directory and name, opens the directory. */
static int target_open(const char *path, struct replace_target *t)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 1;
	char suffix[32];
	size_t blen, keep;

	t->dfd = -1;
	t->base = slash ? slash + 1 : path;
	blen = strlen(t->base);
	if (dlen >= sizeof(t->dir) || blen > NAME_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		snprintf(t->dir, sizeof(t->dir), ".");
	else if (dlen == 0)
		snprintf(t->dir, sizeof(t->dir), "/");
	else
		snprintf(t->dir, sizeof(t->dir), "%.*s", (int)dlen, path);
	/* The name cut so the suffix fits within NAME_MAX. */
	snprintf(suffix, sizeof(suffix), ".tmp.%ld", (long)getpid());
	keep = blen + strlen(suffix) > NAME_MAX ? NAME_MAX - strlen(suffix) :
						   blen;
	snprintf(t->tmp, sizeof(t->tmp), "%.*s%s", (int)keep, t->base, suffix);
	t->dfd = open(t->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return t->dfd < 0 ? -errno : 0;
}

static void target_close(struct replace_target *t)
{
	if (t->dfd >= 0)
		close(t->dfd);
	t->dfd = -1;
}

/* What the name is, when it is not a file ext4dist may replace. */
static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a fifo";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/*
 * The current target: 0 with *exists set (and *st filled), or an error
 * when it is something a rename must not replace: -EISDIR for a
 * directory, -ELOOP for a symbolic link, -EPERM for anything else.
 */
static int target_stat(const struct replace_target *t, struct stat *st,
		       int *exists)
{
	*exists = 0;
	if (!t->base[0] || !strcmp(t->base, ".") || !strcmp(t->base, "..")) {
		st->st_mode = S_IFDIR;
		return -EISDIR;
	}
	if (fstatat(t->dfd, t->base, st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st->st_mode)) {
		*exists = 1;
		return 0;
	}
	return S_ISDIR(st->st_mode) ? -EISDIR :
	       S_ISLNK(st->st_mode) ? -ELOOP : -EPERM;
}

/*
 * O_EXCL | O_NOFOLLOW: never write through a link someone planted in a
 * shared directory.  A leftover of an earlier process with our pid is
 * removed once.
 */
static int tmp_open(const struct replace_target *t)
{
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd;

	fd = openat(t->dfd, t->tmp, flags, 0644);
	if (fd < 0 && errno == EEXIST && unlinkat(t->dfd, t->tmp, 0) == 0)
		fd = openat(t->dfd, t->tmp, flags, 0644);
	return fd < 0 ? -errno : fd;
}

/* The replacement gets the old file's owner and mode. */
static int tmp_like(int fd, const struct stat *old)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	/* Owner first: a change of owner clears the set-ID bits. */
	if ((st.st_uid != old->st_uid || st.st_gid != old->st_gid) &&
	    fchown(fd, old->st_uid, old->st_gid))
		return -errno;
	if ((st.st_mode & 07777) != (old->st_mode & 07777) &&
	    fchmod(fd, old->st_mode & 07777))
		return -errno;
	return 0;
}

/*
 * Written with write(2): a failed write keeps its errno (EFBIG past
 * RLIMIT_FSIZE, ENOSPC), where a stdio stream would only leave ferror()
 * set (EIO).
 */
static int write_all(int fd, const char *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += (size_t)n;
	}
	return fsync(fd) ? -errno : 0;
}

int file_replace(const char *path, const char *buf, size_t len)
{
	struct replace_target t;
	struct stat old;
	int exists, fd, err;

	err = target_open(path, &t);
	if (!err)
		err = target_stat(&t, &old, &exists);
	if (err)
		goto out;
	fd = tmp_open(&t);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	err = exists ? tmp_like(fd, &old) : 0;
	if (!err)
		err = write_all(fd, buf, len);
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(t.dfd, t.tmp, t.dfd, t.base))
		err = -errno;
	if (err)
		unlinkat(t.dfd, t.tmp, 0);
out:
	target_close(&t);
	return err;
}

static int say(char *msg, size_t size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *msg, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return err;
}

int file_replace_check(const char *option, const char *path, char *msg,
		       size_t size)
{
	struct replace_target t;
	struct stat old;
	int exists = 0, fd, err;

	err = target_open(path, &t);
	if (err == -ENAMETOOLONG) {
		say(msg, size, err, "%s %s: %s; give a shorter path",
		    option, path, strerror(-err));
		goto out;
	}
	if (err) {
		say(msg, size, err, "%s %s: cannot open its directory %s: %s; give a path in an existing, writable directory",
		    option, path, t.dir, strerror(-err));
		goto out;
	}
	err = target_stat(&t, &old, &exists);
	if (err && err != -EISDIR && err != -ELOOP && err != -EPERM) {
		say(msg, size, err, "%s %s: %s; give another path",
		    option, path, strerror(-err));
		goto out;
	}
	if (err) {
		say(msg, size, err, "%s %s: %s, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one",
		    option, path, kind_of(old.st_mode));
		goto out;
	}
	/* A dry run of every step of a write but the rename. */
	fd = tmp_open(&t);
	if (fd < 0) {
		err = say(msg, size, fd, "%s %s: cannot create a file in %s: %s; ext4dist writes every output to a new file there and renames it over %s, so give a path in a writable directory",
			  option, path, t.dir, strerror(-fd), t.base);
		goto out;
	}
	err = exists ? tmp_like(fd, &old) : 0;
	if (err)
		say(msg, size, err, "%s %s: a new file in %s cannot keep the owner (uid %u, gid %u) and mode (%04o) of the old one: %s; run ext4dist as root or give another path",
		    option, path, t.dir, (unsigned int)old.st_uid,
		    (unsigned int)old.st_gid, (unsigned int)(old.st_mode & 07777),
		    strerror(-err));
	close(fd);
	unlinkat(t.dfd, t.tmp, 0);
out:
	target_close(&t);
	return err;
}
