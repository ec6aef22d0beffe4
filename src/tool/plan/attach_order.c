// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/attach_order.h"

#include <stdio.h>

/*
 * kprobe_multi arms every function with one link; tracefs's "rN:" is the
 * only way to size return probes; fentry/fexit last, where there are no
 * kprobes at all: its trampolines are the dearest start-up and exit
 * (plan.c).
 */
const struct attach_step attach_order[] = {
	{ ATTACH_MULTI, 0, 1u << CAP_MULTI,
	  "kprobe_multi links where the kernel makes them" },
	{ ATTACH_TRACEFS, 1, 1u << CAP_KPROBE_EVENTS | 1u << CAP_MAXACTIVE,
	  "tracefs where it can size return probes (4.12+)" },
	{ ATTACH_PMU, 0, 1u << CAP_PMU, "the PMU" },
	{ ATTACH_TRACEFS, 0, 1u << CAP_KPROBE_EVENTS, "tracefs" },
	{ ATTACH_FENTRY, 0, 1u << CAP_FENTRY,
	  "fentry/fexit where the kernel's BTF names every function and it makes trampolines" },
};

const unsigned int attach_order_len =
	sizeof(attach_order) / sizeof(attach_order[0]);

void attach_order_text(char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < attach_order_len && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      i ? ", else " : "auto, ",
				      attach_order[i].help);
}
