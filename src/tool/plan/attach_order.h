/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The automatic attach order (--attach=auto), written once: --help prints
 * its sentence from here, and test_attach_order runs plan.c's decision
 * against every step, so the two cannot part.
 */
#ifndef EXT4DIST_TOOL_ATTACH_ORDER_H
#define EXT4DIST_TOOL_ATTACH_ORDER_H

#include <stddef.h>

#include "tool/plan/plan.h"

struct attach_step {
	enum attach_mode path;
	int sized;		/* tracefs with "rN:" (maxactive given) */
	unsigned int caps;	/* bit per enum cap_id: what the step needs */
	const char *help;	/* its words in --help */
};

/* First to last; the tracepoints are never in it (asked for only). */
extern const struct attach_step attach_order[];
extern const unsigned int attach_order_len;

/*
 * "auto, kprobe_multi links where ..., else ... else fentry/fexit ..."
 * into buf of len bytes (cut if it does not fit).
 */
void attach_order_text(char *buf, size_t len);

#endif
