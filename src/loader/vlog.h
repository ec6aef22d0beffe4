/* The -v teaching trace: what the loader does, step by step, on stderr. */
#ifndef EXT4DIST_VLOG_H
#define EXT4DIST_VLOG_H

#include <stdio.h>

void vlog_set(int level, FILE *out);
int vlog_level(void);
/* Prints "ext4dist: <msg>\n" when the verbosity is at least level. */
void vlog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
