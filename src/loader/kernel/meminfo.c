// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/meminfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "MemTotal:   16303420 kB": the bytes, or -EINVAL for another line. */
static int total_of(const char *line, unsigned long long *bytes)
{
	unsigned long long kb;
	char *end;

	if (strncmp(line, "MemTotal:", 9))
		return -EINVAL;
	line += 9 + strspn(line + 9, " \t");
	if (*line < '0' || *line > '9')
		return -EINVAL;
	errno = 0;
	kb = strtoull(line, &end, 10);
	end += strspn(end, " \t");
	if (errno || strncmp(end, "kB", 2) || (end[2] && end[2] != '\n') ||
	    kb >= (1ULL << 50))
		return -EINVAL;
	*bytes = kb * 1024;
	return 0;
}

int meminfo_total(const char *path, unsigned long long *bytes)
{
	FILE *f = fopen(path ? path : "/proc/meminfo", "re");
	char line[128];
	int err = -EINVAL;

	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f))
		err = total_of(line, bytes);
	fclose(f);
	return err;
}
