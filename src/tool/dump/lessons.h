/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lessons: the object's programs broken on purpose
 * (kprobe/lesson/NAME in bpf/ext4dist.bpf.c), each with what it does
 * wrong and what the verifier must say of it.  --dump-bpf=refused loads
 * them; docs/learn.md explains each refusal.
 */
#ifndef EXT4DIST_TOOL_LESSONS_H
#define EXT4DIST_TOOL_LESSONS_H

#include <stddef.h>

struct lesson {
	const char *name;	/* the section's variant: kprobe/lesson/NAME */
	const char *wrong;	/* what the program does wrong */
	/* The licence it is loaded under instead of the object's; NULL: its own */
	const char *license;
	/*
	 * The lines of the verifier's log that say why, one per '\n'-ended
	 * line, each a whole line of the log ("%u" stands for a number);
	 * before: what kernels before since print instead (NULL: the same).
	 */
	const char *why;
	const char *why_before;
	const char *since;
	/*
	 * NULL: refused by every kernel.  Else some kernels accept it, and
	 * this says which and why.
	 */
	const char *accepted;
};

extern const struct lesson lessons[];
extern const size_t nr_lessons;

/* The lesson called name, or NULL. */
const struct lesson *lesson_find(const char *name);

#define LESSON_MAX_LINES 2

/*
 * 1 when every line of want (the lesson's why: '\n'-ended lines, "%u" a
 * number) is a line of log; lines[] get where each is in the log (NULL
 * after the last).
 */
int lesson_log_says(const char *log, const char *want,
		    const char *lines[LESSON_MAX_LINES]);

#endif
