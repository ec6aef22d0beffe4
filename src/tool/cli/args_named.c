// SPDX-License-Identifier: GPL-2.0
/*
 * The command lines' texts are written for ext4dist; run as xfsdist (or
 * with -t xfs where the text names the tool) they say the words of that
 * file system's table instead.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tool/cli/args_priv.h"

/* The words of ext4's table that name the tool, and the field of each. */
static const char *table_word(const struct fs_table *fs, unsigned int i)
{
	const char *const words[] = {
		fs->tool, fs->slower_tool, fs->title, fs->slower_title,
		fs->fops_symbol,
	};

	return i < sizeof(words) / sizeof(words[0]) ? words[i] : NULL;
}

void args_named(char *buf, size_t len, const char *text,
		const struct fs_table *fs)
{
	size_t n = 0;

	while (*text && n + 1 < len) {
		const char *from = NULL, *to = NULL;
		unsigned int i;

		for (i = 0; (from = table_word(&fs_ext4, i)); i++)
			if (strncmp(text, from, strlen(from)) == 0) {
				to = table_word(fs, i);
				break;
			}
		if (!from) {
			buf[n++] = *text++;
			continue;
		}
		text += strlen(from);
		while (*to && n + 1 < len)
			buf[n++] = *to++;
	}
	buf[n] = '\0';
}

int args_put_named(FILE *f, const char *text, const struct fs_table *fs)
{
	char buf[4096];

	args_named(buf, sizeof(buf), text, fs);
	fputs(buf, f);
	return ferror(f) ? -EIO : 0;
}
