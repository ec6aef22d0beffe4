// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/proc_field.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number's tail: nothing, or blanks and then unit (NULL: any word). */
static int tail_ok(const char *end, const char *unit)
{
	size_t n;

	if (!*end || *end == '\n')
		return !unit;
	if (*end != ' ' && *end != '\t')
		return 0;
	if (!unit)
		return 1;
	end += strspn(end, " \t");
	n = strlen(unit);
	return !strncmp(end, unit, n) && (!end[n] || end[n] == '\n');
}

int proc_field_unit(const char *path, const char *key, const char *unit,
		    unsigned long long *v)
{
	FILE *f = fopen(path, "re");
	size_t klen = strlen(key);
	char line[256], *p, *end;
	int err = -ENODATA;

	if (!f)
		return -errno;
	while (err == -ENODATA && fgets(line, sizeof(line), f)) {
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
		err = errno || !tail_ok(end, unit) ? -EINVAL : 0;
	}
	fclose(f);
	return err;
}

int proc_field(const char *path, const char *key, unsigned long long *v)
{
	return proc_field_unit(path, key, NULL, v);
}

int proc_fd_memlock(int fd, unsigned long long *bytes)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	return proc_field(path, "memlock", bytes);
}
