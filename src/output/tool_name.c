// SPDX-License-Identifier: GPL-2.0
#include "output/tool_name.h"

static const char *name = "ext4dist";

void tool_name_set(const char *n)
{
	if (n)
		name = n;
}

const char *tool_name(void)
{
	return name;
}
