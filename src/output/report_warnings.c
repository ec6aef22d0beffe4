// SPDX-License-Identifier: GPL-2.0
/*
 * The calls a report's histograms do not hold for a reason other than
 * their return value, said with their numbers and why, so that what the
 * histograms show plus what is said here adds up to every call.
 */
#include <errno.h>

#include "ext4dist_abi.h"
#include "report.h"
#include "tool_name.h"

static void warn(FILE *err, const struct report *r, unsigned long long n,
		 unsigned int op, const char *why)
{
	fprintf(err, "%s: warning: %s%llu %s%s%s call%s %s\n", tool_name(),
		r->interval && !r->final ? "in this interval " : "", n,
		r->multi_fs ? r->fs_name : "", r->multi_fs ? " " : "",
		report_op_name(op), n == 1 ? "" : "s", why);
}

int report_warnings(FILE *err, const struct report *r, const char *missed_why)
{
	unsigned int op;

	for (op = 0; op < NR_OPS; op++) {
		const struct op_flow *c = &r->flow[op];
		const struct op_hist *h = &r->ops[op];
		char why[256];

		if (!(r->ops_mask & (1u << op)))
			continue;
		if (c->missed) {
			snprintf(why, sizeof(why),
				 "%s not timed: the return probe never ran (%s)",
				 c->missed == 1 ? "was" : "were", missed_why);
			warn(err, r, c->missed, op, why);
		}
		if (h->stolen) {
			snprintf(why, sizeof(why),
				 h->stolen == 1 ?
				 "was not timed: another thread whose id is the same modulo %d was in the function at the same time and took its start record" :
				 "were not timed: another thread whose id is the same modulo %d was in the function at the same time and took their start records",
				 r->start_slots);
			warn(err, r, h->stolen, op, why);
		}
		if (c->unseen) {
			/* The kernel's count does not say whose calls. */
			snprintf(why, sizeof(why),
				 "%s not counted: the kernel did not run the entry program for %s (the program was still running on that CPU for an earlier call, preempted or interrupted)%s",
				 c->unseen == 1 ? "was" : "were",
				 c->unseen == 1 ? "it" : "them",
				 r->pid_filter ? ", of any process: the kernel does not say whose" : "");
			warn(err, r, c->unseen, op, why);
		}
		if (r->final && c->in_flight) {
			snprintf(why, sizeof(why),
				 "had not returned when tracing stopped: the return probe never ran (%s), or %s still running",
				 missed_why, c->in_flight == 1 ? "it was" : "they were");
			warn(err, r, c->in_flight, op, why);
		}
	}
	return ferror(err) ? -EIO : 0;
}
