// SPDX-License-Identifier: GPL-2.0
#include "tool_name.h"

static const char *name = "ext4dist";

const char *tool_name(void)
{
	return name;
}

void tool_name_set(const char *n)
{
	if (n)
		name = n;
}
