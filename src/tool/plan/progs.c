// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/progs.h"

#include "ext4dist_abi.h"

const char *prog_variant(int slow, int percpu, int ip)
{
	static const char *const names[2][2][2] = {	/* [ip][slow][atomic] */
		{ { "", PROG_ATOMIC },
		  { PROG_SLOW, PROG_SLOW "." PROG_ATOMIC } },
		{ { "ip", "ip." PROG_ATOMIC },
		  { "ip." PROG_SLOW, "ip." PROG_SLOW "." PROG_ATOMIC } },
	};

	return names[!!ip][!!slow][!percpu];
}
