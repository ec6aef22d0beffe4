// SPDX-License-Identifier: GPL-2.0
#include "loader/kernel/cpus.h"

#include <errno.h>
#include <stdlib.h>

#include "loader/util/small_file.h"

#define CPU_DIR "/sys/devices/system/cpu/"

static int add_range(struct cpu_list *out, unsigned long lo, unsigned long hi)
{
	unsigned long id;

	if (hi < lo || hi >= 1UL << 30)
		return -EINVAL;
	for (id = lo; id <= hi; id++) {
		if (out->n >= CPU_LIST_MAX)
			return -E2BIG;
		out->ids[out->n++] = (unsigned int)id;
	}
	return 0;
}

int cpus_parse_list(const char *text, struct cpu_list *out)
{
	const char *p = text;
	char *end;
	int err;

	out->n = 0;
	for (;;) {
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return -EINVAL;
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		err = add_range(out, lo, hi);
		if (err)
			return err;
		if (*p != ',')
			break;
		p++;
	}
	if (*p == '\n')
		p++;
	return *p ? -EINVAL : 0;
}

static int read_list(const char *name, struct cpu_list *out)
{
	char text[4096];
	int err = small_file_read(name, text, sizeof(text));

	return err < 0 ? err : cpus_parse_list(text, out);
}

int cpus_online(struct cpu_list *out)
{
	return read_list(CPU_DIR "online", out);
}

int cpus_possible(void)
{
	static struct cpu_list possible;
	int err = read_list(CPU_DIR "possible", &possible);

	if (err)
		return err;
	if (!possible.n)
		return -EINVAL;
	return (int)possible.ids[possible.n - 1] + 1;
}
