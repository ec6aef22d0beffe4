/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which of the object's programs the dumps and the verifier log show:
 * --prog GLOB, and --ops (the programs a run of those operations may
 * load, on some kernel, path or mode).
 */
#ifndef EXT4DIST_TOOL_PROG_SELECT_H
#define EXT4DIST_TOOL_PROG_SELECT_H

#include "loader/loader.h"

/* The section target of the lessons: "kprobe/lesson/<name>". */
#define LESSON_TARGET "lesson"

/* 1 when p is broken on purpose: a lesson, which no run loads. */
int prog_is_lesson(const struct obj_prog *p);

/*
 * 1 when glob (fnmatch(3)) matches p's section, its function's name or,
 * for a lesson, the lesson's name; glob NULL matches every program.
 */
int prog_selected(const struct obj_prog *p, const char *glob);

/*
 * 1 when a run that traces ops_mask may load p on some kernel, path or
 * mode: an operation's own programs (kprobe, kretprobe, fentry, fexit,
 * the generic read path's and its f_op scan for read, the tracepoints
 * for fsync), the kprobe_multi programs (one serves every operation)
 * and the slow mode's name discovery.  Never a lesson.
 */
int prog_for_ops(const struct obj_prog *p, unsigned int ops_mask);

/* Both: --ops (when ops_given) and --prog. */
int prog_shown(const struct obj_prog *p, int ops_given,
	       unsigned int ops_mask, const char *glob);

#endif
