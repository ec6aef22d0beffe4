// SPDX-License-Identifier: GPL-2.0
#include "loader/util/small_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

int small_file_read(const char *path, char *buf, size_t size)
{
	int fd;

	if (size < 2)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return small_file_read_fd(fd, buf, size);
}

int small_file_read_fd(int fd, char *buf, size_t size)
{
	size_t len = 0;
	int err = 0;

	if (size < 2) {
		close(fd);
		return -EINVAL;
	}
	/* sysfs and procfs answer in one read, but a short read is legal. */
	for (;;) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == size - 1) {
			char extra;

			/* Full: fine only if nothing follows. */
			if (read(fd, &extra, 1) > 0)
				err = -EFBIG;
			break;
		}
	}
	close(fd);
	buf[err ? 0 : len] = '\0';
	return err ? err : (int)len;
}

int small_file_read_int(const char *path, int *out)
{
	char text[64], *end;
	long v;
	int n = small_file_read(path, text, sizeof(text));

	if (n < 0)
		return n;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n') || v < INT_MIN ||
	    v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}
