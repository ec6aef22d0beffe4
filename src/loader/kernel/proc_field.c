// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/proc_field.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int proc_field(const char *path, const char *key, unsigned long long *v)
{
	FILE *f = fopen(path, "re");
	size_t klen = strlen(key);
	char line[256], *p, *end;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (err == -ENOENT && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		p = line + klen + 1;
		p += strspn(p, " \t");
		if (*p < '0' || *p > '9') {
			err = -EINVAL;
			break;
		}
		errno = 0;
		*v = strtoull(p, &end, 10);
		err = errno || (*end && !strchr(" \n", *end)) ? -EINVAL : 0;
	}
	fclose(f);
	return err;
}

int proc_fd_memlock(int fd, unsigned long long *bytes)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	return proc_field(path, "memlock", bytes);
}
