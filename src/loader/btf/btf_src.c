// SPDX-License-Identifier: GPL-2.0
#include "loader/btf/btf_src.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int btf_src_open(struct btf_src *s, const char *path, struct errbuf *eb)
{
	struct stat st;
	int err;

	memset(s, 0, sizeof(*s));
	s->name = path;
	s->window = BTF_WINDOW;
	/*
	 * sysfs gives /sys/kernel/btf/vmlinux (5.5+) and each module's
	 * (5.11+) the size of the blob, though it holds no page of it.
	 */
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0 && errbuf_nofile(eb, -errno, "cannot open %s", path))
		return -errno;
	if (s->fd < 0 || fstat(s->fd, &st)) {
		err = errbuf_set(eb, -errno, "%s: %s", path, strerror(errno));
		btf_src_close(s);
		return err;
	}
	s->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	return 0;
}

void btf_src_mem(struct btf_src *s, const void *data, size_t size,
		 const char *name)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->mem = data;
	s->size = size;
	s->name = name;
	s->window = BTF_WINDOW;
}

void btf_src_close(struct btf_src *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

int btf_src_read(struct btf_src *s, uint64_t off, void *buf, size_t len,
		 struct errbuf *eb)
{
	unsigned char *to = buf;

	if (off > s->size || len > s->size - off)
		return errbuf_set(eb, -EIO, "%s: read past its end", s->name);
	if (s->mem) {
		memcpy(to, s->mem + off, len);
		s->bytes += len;
		s->reads++;
		return 0;
	}
	/*
	 * kernfs hands out at most a page per read() of a sysfs bin file
	 * (fs/kernfs/file.c, 3.14 to 6.12 at least): short reads are the
	 * rule, each one a system call.
	 */
	while (len) {
		ssize_t r = pread(s->fd, to, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errbuf_set(eb, -errno, "%s: %s", s->name,
					  strerror(errno));
		s->reads++;
		if (!r)
			return errbuf_set(eb, -EIO,
					  "%s: ends at byte %llu, before the %llu bytes its size says",
					  s->name, (unsigned long long)off,
					  (unsigned long long)s->size);
		to += r;
		off += (uint64_t)r;
		len -= (size_t)r;
		s->bytes += (uint64_t)r;
	}
	return 0;
}
