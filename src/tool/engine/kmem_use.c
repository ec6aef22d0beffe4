// SPDX-License-Identifier: GPL-2.0
/*
 * The memory a run holds: its maps and programs in the kernel, as the
 * kernel counts them (the memlock line of each fd's /proc/self/fdinfo,
 * which cannot be paged out), and its own peak RSS.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/kernel/proc_field.h"
#include "tool/engine/tracer_priv.h"

/* One fd's memlock into *sum; an fd without that line counted in *unshown. */
static int add_fd(int fd, unsigned long long *sum, unsigned int *n,
		  unsigned int *unshown)
{
	unsigned long long b;
	int err;

	if (fd < 0)
		return 0;
	(*n)++;
	err = proc_fd_memlock(fd, &b);
	if (err == -ENODATA || err == -EINVAL) {
		(*unshown)++;
		return 0;
	}
	if (err)
		return err;
	*sum += b;
	return 0;
}

int tracer_kmem(const struct tracer *t, struct tracer_kmem *k)
{
	size_t i;
	int err = 0;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < t->obj.nr_maps && !err; i++) {
		unsigned long long before = k->maps;

		err = add_fd(t->obj.maps[i].fd, &k->maps, &k->nr_maps,
			     &k->unshown);
		if (!strcmp(t->obj.maps[i].name, "start"))
			k->start = k->maps - before;
	}
	for (i = 0; i < t->obj.nr_progs && !err; i++)
		err = add_fd(t->obj.progs[i].fd, &k->progs, &k->nr_progs,
			     &k->unshown);
	return err;
}

void tracer_kmem_text(const struct tracer *t, char *buf, size_t size)
{
	struct tracer_kmem k;
	int err = tracer_kmem(t, &k);

	if (err) {
		snprintf(buf, size, "unknown: cannot read /proc/self/fdinfo: %s",
			 strerror(-err));
	} else if (k.unshown) {
		snprintf(buf, size, "not shown by this kernel (no memlock line in /proc/self/fdinfo)");
	} else {
		snprintf(buf, size, "%llu KiB (memlock in /proc/self/fdinfo): %u maps %llu KiB (the start records %llu KiB), %u programs %llu KiB",
			 (k.maps + k.progs + 1023) >> 10, k.nr_maps,
			 (k.maps + 1023) >> 10, (k.start + 1023) >> 10,
			 k.nr_progs, (k.progs + 1023) >> 10);
	}
}

void own_peak_rss_text(char *buf, size_t size)
{
	unsigned long long kb;
	int err = proc_field_unit("/proc/self/status", "VmHWM", "kB", &kb);

	if (err)
		snprintf(buf, size, "unknown: %s", strerror(-err));
	else
		snprintf(buf, size, "%llu kB so far (VmHWM in /proc/self/status)",
			 kb);
}
