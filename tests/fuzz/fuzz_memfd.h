/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz inputs as files: a memfd that parsers open by path
 * (/proc/self/fd/N), so their real open()/read() code runs.
 */
#ifndef EXT4DIST_TESTS_FUZZ_FUZZ_MEMFD_H
#define EXT4DIST_TESTS_FUZZ_FUZZ_MEMFD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

/* A memfd called name, its /proc path in path[size]; aborts on failure. */
static inline int fuzz_memfd_open(const char *name, char *path, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(path, size, "/proc/self/fd/%d", fd);
	return fd;
}

/* Replaces the memfd's content with data. */
static inline void fuzz_memfd_put(int fd, const uint8_t *data, size_t size)
{
	size_t done = 0;
	ssize_t n;

	if (ftruncate(fd, 0) < 0)
		abort();
	while (done < size) {
		n = pwrite(fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
}

#endif
