// SPDX-License-Identifier: GPL-2.0
#include "tool/fs/fs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/report.h"

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

const struct fs_table *const fs_all[] = {
	&fs_ext4, &fs_xfs, &fs_btrfs, &fs_f2fs, NULL
};

const struct fs_table *fs_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; fs_all[i]; i++)
		if (strcmp(fs_all[i]->name, name) == 0)
			return fs_all[i];
	return NULL;
}

const struct fs_table *fs_by_tool(const char *argv0, int *slower)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;
	unsigned int i;

	base = base ? base + 1 : argv0;
	for (i = 0; base && fs_all[i]; i++) {
		*slower = strcmp(base, fs_all[i]->slower_tool) == 0;
		if (*slower || strcmp(base, fs_all[i]->tool) == 0)
			return fs_all[i];
	}
	*slower = 0;
	return NULL;
}

static int same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

const char *fs_prog_target(const struct fs_table *fs, const char *func)
{
	unsigned int op;

	for (op = 0; op < NR_OPS; op++)
		if (same(func, fs->ops[op].func))
			return report_op_name(op);
	if (same(func, fs->generic_read))
		return PROG_GENERIC_READ;
	if (same(func, fs->dir_release))
		return PROG_DIR_RELEASE;
	return NULL;
}

const struct fs_table *fs_with_tracepoints(void)
{
	unsigned int i;

	for (i = 0; fs_all[i]; i++)
		if (fs_all[i]->fsync_tp.group)
			return fs_all[i];
	return NULL;
}

int fs_check_wanted(const struct fs_table *fs, unsigned int ops_mask,
		    int generic, struct errbuf *eb)
{
	unsigned int op;

	for (op = 0; op < NR_OPS; op++)
		if ((ops_mask & (1u << op)) && !fs->ops[op].func)
			return errbuf_set(eb, -EINVAL,
					  "argument --ops: %s has no %s function to trace",
					  fs->name, report_op_name(op));
	if (generic && !fs->generic_read)
		return errbuf_set(eb, -EINVAL,
				  "argument --read-path: %s has no generic read path (its reads always went through %s)",
				  fs->name, fs->ops[OP_READ].func);
	return 0;
}
