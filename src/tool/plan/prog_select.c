// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/prog_select.h"

#include <fnmatch.h>
#include <string.h>

#include "tool/fs/fs.h"
#include "tool/discover/name_discover.h"

int prog_is_lesson(const struct obj_prog *p)
{
	return !p->tracepoint && !p->multi && !p->tracing &&
	       strcmp(p->target, LESSON_TARGET) == 0;
}

int prog_selected(const struct obj_prog *p, const char *glob)
{
	if (!glob)
		return 1;
	return fnmatch(glob, p->section, 0) == 0 ||
	       (p->name[0] && fnmatch(glob, p->name, 0) == 0) ||
	       (prog_is_lesson(p) && fnmatch(glob, p->variant, 0) == 0);
}

/*
 * The object's programs are named after ext4's functions (fs.h,
 * fs_prog_func()): the operation of a target, or NR_OPS for none.
 */
static unsigned int op_of_target(const char *target)
{
	const struct fs_table *fs = &fs_ext4;
	unsigned int op;

	if (!strcmp(target, fs->generic_read) || !strcmp(target, fs->dir_release))
		return OP_READ;
	if (!strcmp(target, fs->fsync_tp.group))
		return OP_FSYNC;
	for (op = 0; op < NR_OPS; op++)
		if (fs->ops[op].func && !strcmp(target, fs->ops[op].func))
			return op;
	return NR_OPS;
}

int prog_for_ops(const struct obj_prog *p, unsigned int ops_mask)
{
	unsigned int op;

	if (prog_is_lesson(p))
		return 0;
	if (p->multi || !strcmp(p->target, NAME_PEEK_FUNC))
		return ops_mask != 0;
	op = op_of_target(p->target);
	return op < NR_OPS && (ops_mask & (1u << op));
}

int prog_shown(const struct obj_prog *p, int ops_given,
	       unsigned int ops_mask, const char *glob)
{
	return (!ops_given || prog_for_ops(p, ops_mask)) &&
	       prog_selected(p, glob);
}
