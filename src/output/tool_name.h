/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name the tool was run as ("ext4dist", "ext4slower", "xfsdist"),
 * which begins every message it prints: set once by main().
 */
#ifndef EXT4DIST_OUTPUT_TOOL_NAME_H
#define EXT4DIST_OUTPUT_TOOL_NAME_H

/* name must outlive every message (argv[0]'s tail, a table's string). */
void tool_name_set(const char *name);
/* The name set, or "ext4dist" before main() set one. */
const char *tool_name(void);

#endif
