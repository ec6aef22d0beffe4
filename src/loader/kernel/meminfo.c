// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/meminfo.h"

#include <errno.h>
#include <stdio.h>

int meminfo_total(const char *path, unsigned long long *bytes)
{
	FILE *f = fopen(path ? path : "/proc/meminfo", "re");
	unsigned long long kb;
	char line[128], unit[4];
	int err = -EINVAL;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu %3s", &kb, unit) == 2 &&
		    unit[0] == 'k' && unit[1] == 'B' && !unit[2] &&
		    kb < (1ULL << 50)) {
			*bytes = kb * 1024;
			err = 0;
			break;
		}
	fclose(f);
	return err;
}
