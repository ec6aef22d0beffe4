// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol addresses from System.map, for the data symbols kallsyms leaves
 * out when CONFIG_KALLSYMS_ALL is off.
 */
#include "loader/sysmap.h"
#include "loader/kallsyms.h"

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
	struct ksym_result res;
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

int sysmap_resolve(const char *map_path, const char *kallsyms_path,
		   const char *sym, unsigned long long *addr,
		   struct errbuf *eb)
{
	const char *names[2] = { sym, "_text" };
	struct ksym_result map[2], live;
	int ret;

	if (!sym || !addr)
		return -EINVAL;
	ret = map_lookup(map_path, names, 2, map);
	if (ret < 0)
		return errbuf_set(eb, ret, "System.map: %s", strerror(-ret));
	if (!map[0].found || !map[1].found)
		return errbuf_set(eb, -ENOENT, "System.map has no %s",
				  map[0].found ? "_text" : sym);
	ret = kallsyms_lookup(kallsyms_path, &names[1], 1, 0, &live, NULL);
	if (ret == -EPERM)
		return errbuf_set(eb, ret, "kallsyms addresses are hidden");
	if (ret < 0)
		return errbuf_set(eb, ret, "kallsyms: %s", strerror(-ret));
	if (!live.found)
		return errbuf_set(eb, -ENOENT, "kallsyms has no _text");
	/* KASLR moves the whole kernel image by one offset (unsigned wrap). */
	*addr = map[0].addr + (live.addr - map[1].addr);
	return 0;
}
