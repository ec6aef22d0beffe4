// SPDX-License-Identifier: GPL-2.0
#include "tool/fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int fs_registered(const struct fs_table *fs, const char *path)
{
	FILE *f = fopen(path ? path : "/proc/filesystems", "re");
	char line[128];
	int found = 0;

	if (!f)
		return -errno;
	/* Lines are "nodev\ttmpfs" or "\text4". */
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, '\t');

		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = '\0';
		found = strcmp(name, fs->name) == 0;
	}
	fclose(f);
	return found;
}
