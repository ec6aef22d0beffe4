// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/meminfo.h"

#include <errno.h>

#include "loader/kernel/proc_field.h"

int meminfo_total(const char *path, unsigned long long *bytes)
{
	unsigned long long kb;
	int err = proc_field_unit(path ? path : "/proc/meminfo", "MemTotal",
				  "kB", &kb);

	if (err == -ENODATA || (!err && kb >= (1ULL << 50)))
		return -EINVAL;
	if (!err)
		*bytes = kb * 1024;
	return err;
}
