/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -v teaching trace: what the loader does, step by step.  The tool
 * says where it goes and how each line starts.
 */
#ifndef EXT4DIST_LOADER_UTIL_VLOG_H
#define EXT4DIST_LOADER_UTIL_VLOG_H

#include <stdio.h>

/* Lines of level <= level go to out, each after prefix ("ext4dist: "). */
void vlog_set(int level, FILE *out, const char *prefix);
int vlog_level(void);
/* "<prefix>warning: <msg>\n", whatever the verbosity. */
void vwarn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "<prefix><msg>\n" when the verbosity is at least level. */
void vlog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
