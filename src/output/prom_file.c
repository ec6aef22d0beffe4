/*
 * Atomic replacement of the --prometheus file: a scraper (node_exporter's
 * textfile collector) must never read a half-written file, so the text
 * goes to path.tmp.<pid> in the same directory, is fsync'ed, and is
 * renamed over path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/*
 * O_EXCL | O_NOFOLLOW: never write through a link someone planted in a
 * shared directory.  A leftover of an earlier process with our pid is
 * removed once.
 */
static int open_tmp(const char *tmp)
{
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd;

	fd = open(tmp, flags, 0644);
	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, flags, 0644);
	return fd < 0 ? -errno : fd;
}

int report_prom_write_file(const char *path, const struct report *r)
{
	char tmp[PATH_MAX];
	FILE *f = NULL;
	int fd, err, n;

	n = snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open_tmp(tmp);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto err_unlink;
	}
	err = report_prom(f, r);
	if (err)
		goto err_close;
	if (fflush(f) || fsync(fd)) {
		err = -errno;
		goto err_close;
	}
	err = fclose(f) ? -errno : 0;
	f = NULL;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		goto err_unlink;
	return 0;

err_close:
	fclose(f);
err_unlink:
	unlink(tmp);
	return err;
}
