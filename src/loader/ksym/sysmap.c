// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol addresses from System.map, for the data symbols kallsyms leaves
 * out when CONFIG_KALLSYMS_ALL is off.
 */
#include "loader/ksym/sysmap.h"
#include "loader/ksym/kallsyms.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

static int default_map_path(char *path, size_t len)
{
	struct utsname u;
	int n;

	if (uname(&u) < 0)
		return -errno;
	n = snprintf(path, len, "/boot/System.map-%s", u.release);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Looks names up in a System.map (kallsyms format without modules). */
static int map_lookup(const char *map_path, const char *const *names,
		      size_t n, struct ksym_result *res)
{
	char path[512];
	int ret;

	if (!map_path) {
		ret = default_map_path(path, sizeof(path));
		if (ret)
			return ret;
		map_path = path;
	}
	ret = kallsyms_lookup(map_path, names, n, 0, res, NULL);
	/* An all-zero System.map is no permission problem: just useless. */
	return ret == -EPERM ? -EINVAL : ret;
}

int sysmap_lookup(const char *map_path, const char *sym,
		  unsigned long long *addr, char *type)
{
	struct ksym_result res = { 0 };
	int ret;

	if (!sym || !addr)
		return -EINVAL;
	ret = map_lookup(map_path, &sym, 1, &res);
	if (ret < 0)
		return ret;
	if (!res.found)
		return -ENOENT;
	*addr = res.addr;
	if (type)
		*type = res.type;
	return 0;
}

int sysmap_resolve_many(const char *map_path, const char *kallsyms_path,
			const char *const *names, size_t n,
			unsigned long long *addrs, int *found,
			struct errbuf *eb)
{
	const char *all[SYSMAP_MANY_MAX + 1];
	struct ksym_result map[SYSMAP_MANY_MAX + 1] = { 0 };
	char anchor[128];
	unsigned long long live;
	size_t i;
	int ret, hits = 0;

	if (!names || !addrs || !found || !n || n > SYSMAP_MANY_MAX)
		return -EINVAL;
	/*
	 * KASLR moves the whole kernel image by one offset: the distance
	 * between one symbol's address in kallsyms and in the map.  The
	 * first text symbol kallsyms lists, whatever it is called.
	 */
	ret = kallsyms_first_text(kallsyms_path, anchor, sizeof(anchor), &live);
	if (ret == -EPERM)
		return errbuf_set(eb, ret, "kallsyms addresses are hidden");
	if (ret)
		return errbuf_set(eb, ret, "kallsyms: %s", strerror(-ret));
	for (i = 0; i < n; i++)
		all[i] = names[i];
	all[n] = anchor;
	ret = map_lookup(map_path, all, n + 1, map);
	if (ret < 0)
		return errbuf_set(eb, ret, "System.map: %s", strerror(-ret));
	if (!map[n].found)
		return errbuf_set(eb, -ENOENT,
				  "System.map has no %s, the first text symbol of kallsyms: not this kernel's map",
				  anchor);
	for (i = 0; i < n; i++) {
		found[i] = map[i].found;
		if (!found[i])
			continue;
		/* Unsigned wrap-around gives the right sum either way. */
		addrs[i] = map[i].addr + (live - map[n].addr);
		hits++;
	}
	return hits;
}

int sysmap_resolve(const char *map_path, const char *kallsyms_path,
		   const char *sym, unsigned long long *addr,
		   struct errbuf *eb)
{
	int found, n;

	if (!sym || !addr)
		return -EINVAL;
	n = sysmap_resolve_many(map_path, kallsyms_path, &sym, 1, addr, &found,
				eb);
	if (n == 0)
		return errbuf_set(eb, -ENOENT, "System.map has no %s", sym);
	return n < 0 ? n : 0;
}
