// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/prog_select.h"

#include <fnmatch.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "output/report.h"
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
 * The operation of a program's target (named by operation: fs.h,
 * fs_prog_target()), or NR_OPS for none.
 */
static unsigned int op_of_target(const char *target)
{
	unsigned int op;

	if (!strcmp(target, PROG_GENERIC_READ) ||
	    !strcmp(target, PROG_DIR_RELEASE))
		return OP_READ;
	for (op = 0; op < NR_OPS; op++)
		if (!strcmp(target, report_op_name(op)))
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
