/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name the tool was run as ("ext4dist", "xfsdist", "ext4slower"):
 * the prefix of every message it writes.  Set once by main() from the
 * command line; until then (and in the unit tests) "ext4dist".
 */
#ifndef EXT4DIST_OUTPUT_TOOL_NAME_H
#define EXT4DIST_OUTPUT_TOOL_NAME_H

const char *tool_name(void);
/* name must outlive the run (a file system table's string). */
void tool_name_set(const char *name);

#endif
