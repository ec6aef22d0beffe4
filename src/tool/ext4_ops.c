#include "tool/ext4_ops.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct ext4_op ext4_ops[NR_OPS] = {
	{ OP_READ, "read", "ext4_file_read_iter" },	/* 4.10+ */
	{ OP_WRITE, "write", "ext4_file_write_iter" },
	{ OP_OPEN, "open", "ext4_file_open" },
	{ OP_FSYNC, "fsync", "ext4_sync_file" },
	{ OP_GETATTR, "getattr", "ext4_file_getattr" },
};

const struct ext4_op *ext4_op_get(enum ext4dist_op op)
{
	return (unsigned int)op < NR_OPS ? &ext4_ops[op] : NULL;
}

int ext4_fs_registered(const char *path)
{
	FILE *f = fopen(path ? path : "/proc/filesystems", "re");
	char line[128];
	int found = 0;

	if (!f)
		return -errno;
	/* Lines are "nodev\ttmpfs" or "\text4". */
	while (!found && fgets(line, sizeof(line), f)) {
		char *fs = strrchr(line, '\t');

		fs = fs ? fs + 1 : line;
		fs[strcspn(fs, "\n")] = '\0';
		found = strcmp(fs, "ext4") == 0;
	}
	fclose(f);
	return found;
}
