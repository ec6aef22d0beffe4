// SPDX-License-Identifier: GPL-2.0
#include "tool/read_path.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/loader.h"

/* Word i of a copy of kernel memory, for a kernel of word-byte pointers. */
static unsigned long long word_at(const unsigned long long *mem,
				  unsigned int word, unsigned int i)
{
	const unsigned char *p = (const unsigned char *)mem + (size_t)i * word;
	unsigned long long v = 0;
	unsigned int b;

	/* Little-endian: every architecture ext4dist builds for. */
	for (b = word; b-- > 0;)
		v = v << 8 | p[b];
	return v;
}

/*
 * Could v be f_op: aligned, in the kernel's half of the address space,
 * and not a pointer into the file or the inode themselves (f_inode,
 * f_mapping == &inode->i_data, list heads).
 */
static int fop_like(const struct open_scan *s, unsigned int word,
		    unsigned long long v)
{
	unsigned long long kernel_min = word == 8 ? 0xfff0000000000000ULL :
						    0x3f000000ULL;

	if (v % word || v < kernel_min)
		return 0;
	if (v >= s->file_ptr && v - s->file_ptr < sizeof(s->file))
		return 0;
	return !(v >= s->inode_ptr && v - s->inode_ptr < sizeof(s->inode));
}

static int inode_holds(const struct open_scan *s, unsigned int word,
		       unsigned long long v)
{
	unsigned int i, n = (unsigned int)sizeof(s->inode) / word;

	for (i = 0; i < n; i++)
		if (word_at(s->inode, word, i) == v)
			return 1;
	return 0;
}

int read_path_find_fop_offset(const struct open_scan *scan, unsigned int word,
			      unsigned long long *fop, struct errbuf *why)
{
	unsigned int i, n = (unsigned int)sizeof(scan->file) / word, hits = 0;
	int off = -ENOENT;
	size_t used = 0;

	if (word != 8 && word != 4)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		unsigned long long v = word_at(scan->file, word, i);

		if (!fop_like(scan, word, v) || !inode_holds(scan, word, v))
			continue;
		if (!hits++) {
			off = (int)(i * word);
			*fop = v;
		}
		if (why && used < sizeof(why->msg))
			used += (size_t)snprintf(why->msg + used,
						 sizeof(why->msg) - used,
						 "%s%u: 0x%llx", hits > 1 ? ", " : "",
						 i * word, v);
	}
	return hits > 1 ? -EEXIST : off;
}

/*
 * Where the f_op offset can be seen: the directories of some file system,
 * under a probe on their ->release.  The file system's own come first
 * (their f_op checks the symbol source, beside the address looked up);
 * with none of it mounted, the kernel's simple directories (libfs) of
 * tracefs and debugfs, which every kernel since 4.1 has: their roots are
 * filled by simple_fill_super, with simple_dir_operations as i_fop.
 */
struct scan_source {
	const char *const *mount_types;
	const char *release;		/* the directories' ->release */
	const char *dir_fops_symbol;	/* their f_op */
	int tracing_dir;		/* also the tracing dir ext4dist holds */
};

static const char *const simple_dir_mounts[] = { "tracefs", "debugfs", NULL };

static const struct scan_source simple_dirs = {
	.mount_types = simple_dir_mounts,
	.release = "dcache_dir_close",
	.dir_fops_symbol = "simple_dir_operations",
	.tracing_dir = 1,
};

static int is_mount_of(const struct scan_source *src, const char *type)
{
	const char *const *t;

	for (t = src->mount_types; *t; t++)
		if (strcmp(*t, type) == 0)
			return 1;
	return 0;
}

/* Opens and closes dir (relative to at), then reads what the probe saw. */
static int scan_one(int at, const char *dir, int map_fd,
		    struct open_scan *scan)
{
	unsigned int key = 0;
	int fd;

	fd = openat(at, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		vlog(1, "f_op discovery: cannot open %s: %s", dir,
		     strerror(errno));
		return -errno;
	}
	close(fd);
	kcall_why("what the f_op probe copied of %s's struct file and inode as it was closed (empty: the probe did not run)",
		  dir);
	if (bpf_map_lookup(map_fd, &key, scan) == 0 && scan->file_ptr)
		return 0;
	return -ENOENT;
}

/*
 * Opens and closes the root directory of each mount of the source's file
 * systems in turn (then the tracing dir, where the source allows), until
 * the scan probe has run (the close runs ->release before close() returns
 * to us): a directory, read-only, never through a symbolic link, so
 * nothing is created, changed or set off.  Fills *scan; which names the
 * directory.  -ENOENT when no close ran the probe.
 */
static int scan_dirs(const struct read_path_env *env,
		     const struct scan_source *src, int map_fd,
		     struct open_scan *scan, char *which, size_t len,
		     unsigned int *tried)
{
	FILE *mounts = setmntent(env->mounts_path ? env->mounts_path :
				 "/proc/self/mounts", "re");
	struct mntent *me;
	int err = -ENOENT;

	if (!mounts)
		return -errno;
	while (err && (me = getmntent(mounts)) != NULL) {
		if (!is_mount_of(src, me->mnt_type))
			continue;
		(*tried)++;
		if (scan_one(AT_FDCWD, me->mnt_dir, map_fd, scan) == 0) {
			snprintf(which, len, "%s", me->mnt_dir);
			err = 0;
		}
	}
	endmntent(mounts);
	if (err && src->tracing_dir && env->tracing_fd >= 0) {
		(*tried)++;
		if (scan_one(env->tracing_fd, ".", map_fd, scan) == 0) {
			snprintf(which, len, "%s", env->tracing_dir);
			err = 0;
		}
	}
	return err;
}

/* Under a probe on src's ->release: the scan, or -ENOENT. */
static int scan_source(const struct read_path_env *env,
		       const struct scan_source *src, int map_fd,
		       struct open_scan *scan, char *which, size_t len,
		       unsigned int *tried, struct errbuf *eb)
{
	struct probe_link link = { .perf_fd = -1 };
	int err;

	err = env->attach_scan(env->arg, src->release, &link, eb);
	if (err)
		return err;
	err = scan_dirs(env, src, map_fd, scan, which, len, tried);
	env->detach_scan(env->arg, &link);
	return err;
}

/*
 * The f_op offset, the f_op value the directory showed, and which source
 * showed it.
 */
static int discover_fop_offset(const struct read_path_env *env,
			       unsigned long long *dir_fop,
			       const struct scan_source **used,
			       struct errbuf *eb)
{
	const struct scan_source own = {
		.mount_types = env->fs->mount_types,
		.release = env->fs->dir_release,
		.dir_fops_symbol = env->fs->dir_fops_symbol,
	};
	struct obj_map *m = bpf_obj_find_map(env->obj, "open_scan");
	struct open_scan scan = { 0 };
	struct errbuf why = { "" };
	char which[512] = "";
	unsigned int tried = 0, simple = 0;
	int err, off;

	if (!m)
		return errbuf_set(eb, -EINVAL,
				  "BPF object lacks the f_op discovery map open_scan");
	*used = NULL;
	err = scan_source(env, &own, m->fd, &scan, which, sizeof(which),
			  &tried, eb);
	if (err == -ENOENT && tried)
		return errbuf_set(eb, err,
				  "cannot discover where struct file keeps f_op: opening and closing the root directory of %u mounted %s file system%s did not run %s",
				  tried, env->fs->name, tried == 1 ? "" : "s",
				  env->fs->dir_release);
	if (err == -ENOENT) {
		/* Nothing of its own mounted (yet): the kernel's. */
		vlog(1, "f_op discovery: no %s file system is mounted: through the directories of tracefs or debugfs instead",
		     env->fs->name);
		*used = &simple_dirs;
		err = scan_source(env, &simple_dirs, m->fd, &scan, which,
				  sizeof(which), &simple, eb);
		if (err == -ENOENT)
			return errbuf_set(eb, err,
					  "cannot discover where struct file keeps f_op: no %s file system is mounted, and %s: mount one first, or use the default read path",
					  env->fs->name, simple ?
					  "closing a directory of tracefs or debugfs did not run dcache_dir_close" :
					  "neither tracefs nor debugfs is there to look at instead");
	}
	if (err)
		return err;
	/* The kernel's words: 8 bytes under a 32-bit ext4dist on arm64. */
	off = read_path_find_fop_offset(&scan, karch_word(), dir_fop, &why);
	if (off == -EEXIST)
		return errbuf_set(eb, off,
				  "cannot discover where struct file keeps f_op: closing %s showed several candidates (offset: value %s)",
				  which, why.msg);
	if (off < 0)
		return errbuf_set(eb, off,
				  "cannot discover where struct file keeps f_op: closing %s showed no word of struct file that struct inode holds too",
				  which);
	vlog(1, "f_op discovered at offset %d of struct file (by opening and closing %s under a probe on %s: f_op 0x%llx, as inode->i_fop)",
	     off, which, *used ? (*used)->release : env->fs->dir_release,
	     *dir_fop);
	return off;
}

/*
 * One symbol source's answer: both addresses, accepted only when its
 * address of the directories' f_op is the one the probe saw (a stale
 * System.map, a module file of another build, fail here).
 */
static int accept(const struct read_path_env *env, const char *source,
		  const char *const *names,
		  const unsigned long long *addr, const int *found,
		  unsigned long long dir_fop, unsigned long long *fops,
		  char *what, size_t len, struct errbuf *why)
{
	if (!found[0] || !found[1])
		return errbuf_set(why, -ENOENT, "%s: no %s", source,
				  names[found[0] ? 1 : 0]);
	if (addr[1] != dir_fop)
		return errbuf_set(why, -ESTALE,
				  "%s: %s at 0x%llx, but the kernel's is 0x%llx: not the running kernel's",
				  source, names[1], addr[1],
				  dir_fop);
	*fops = addr[0];
	snprintf(what, len, "%s = 0x%llx from %s", env->fs->fops_symbol,
		 addr[0], source);
	vlog(1, "%s found in %s: 0x%llx (%s 0x%llx agrees with the probe)",
	     env->fs->fops_symbol, source, addr[0], names[1],
	     addr[1]);
	return 0;
}

static int from_kallsyms(const struct read_path_env *env, const char *path,
			 const char *const *names, unsigned long long dir_fop,
			 unsigned long long *fops, char *what, size_t len,
			 struct errbuf *why)
{
	struct ksym_result res[2];
	unsigned long long addr[2];
	int found[2], n;

	if (env->kallsyms_no_data)
		return errbuf_set(why, -ENOENT,
				  "no %s in %s (--pretend=no-kallsyms-data: as a kernel built without CONFIG_KALLSYMS_ALL)",
				  env->fs->fops_symbol, path);
	n = kallsyms_lookup(path, names, 2, 0, res, NULL);
	if (n == -EPERM)
		return errbuf_set(why, n, "%s shows only zero addresses (kernel.kptr_restrict, or no CAP_SYSLOG)",
				  path);
	if (n < 0)
		return errbuf_set(why, n, "cannot read %s: %s", path,
				  strerror(-n));
	for (n = 0; n < 2; n++) {
		found[n] = res[n].found;
		addr[n] = res[n].addr;
	}
	if (!found[0])
		return errbuf_set(why, -ENOENT,
				  "no %s in %s (the kernel should be built with CONFIG_KALLSYMS_ALL)",
				  env->fs->fops_symbol, path);
	return accept(env, path, names, addr, found, dir_fop, fops, what, len, why);
}

void read_path_symbols(const struct fs_table *fs,
		       const char *names[READ_PATH_NR_SYMS])
{
	names[0] = fs->fops_symbol;
	names[1] = fs->dir_fops_symbol;
	names[2] = simple_dirs.dir_fops_symbol;
}

/* names[0..1] in a System.map read before. */
static void from_set(const struct sym_set *set, const char *const *names,
		     unsigned long long *addr, int *found)
{
	unsigned int i, k;

	for (k = 0; k < 2; k++) {
		addr[k] = 0;
		found[k] = 0;
		for (i = 0; i < set->n; i++)
			if (strcmp(set->names[i], names[k]) == 0) {
				addr[k] = set->addrs[i];
				found[k] = set->found[i];
			}
	}
}

static int from_sysmap(const struct read_path_env *env,
		       const char *const *names, unsigned long long dir_fop,
		       unsigned long long *fops, char *what, size_t len,
		       struct errbuf *why)
{
	char path[512];
	unsigned long long addr[2];
	int found[2], n;
	struct utsname u;

	if (env->sysmap) {
		snprintf(path, sizeof(path), "%s", env->sysmap->path);
		from_set(env->sysmap, names, addr, found);
		goto check;
	}
	if (env->sysmap_path) {
		snprintf(path, sizeof(path), "%s", env->sysmap_path);
	} else {
		if (uname(&u))
			return -errno;
		snprintf(path, sizeof(path), "/boot/System.map-%s", u.release);
	}
	if (access(path, R_OK))
		return errbuf_set(why, -ENOENT, "no %s", path);
	n = sysmap_resolve_many(path, env->kallsyms_path, names, 2, addr,
				found, why);
	if (n < 0)
		return n;
check:
	n = accept(env, path, names, addr, found, dir_fop, fops, what, len, why);
	/* Its directories' f_op where the probe saw it: the map is this kernel's. */
	if (n != -ESTALE && found[1] && addr[1] == dir_fop && env->sysmap_agrees)
		*env->sysmap_agrees = 1;
	return n;
}

static int from_module(const struct read_path_env *env,
		       const char *const *names, unsigned long long dir_fop,
		       unsigned long long *fops, char *what, size_t len,
		       struct errbuf *why)
{
	char sections[256], base[512], ko[600], source[1000];
	unsigned long long addr[2];
	int found[2], n;
	struct utsname u;

	snprintf(sections, sizeof(sections), "/sys/module/%s/sections",
		 env->fs->module);
	if (access(sections, F_OK))
		return errbuf_set(why, -ENOENT, "%s is not a loaded module",
				  env->fs->module);
	if (uname(&u))
		return -errno;
	snprintf(base, sizeof(base), "/lib/modules/%s/%s", u.release,
		 env->fs->module_file);
	if (modsym_ko_path(base, ko, sizeof(ko)))
		return errbuf_set(why, -ENOENT, "no module file %s", base);
	n = modsym_resolve_many(ko, sections, names, 2, addr, found, why);
	if (n < 0)
		return n;
	snprintf(source, sizeof(source), "%s plus %s", ko, sections);
	return accept(env, source, names, addr, found, dir_fop, fops, what, len, why);
}

/* The address of the files' f_op, from the first source that agrees. */
static int fops_address(const struct read_path_env *env,
			const char *dir_fops_symbol, unsigned long long dir_fop, unsigned long long *fops,
			char *what, size_t len, struct errbuf *eb)
{
	const char *names[2] = { env->fs->fops_symbol, dir_fops_symbol };
	const char *kpath = env->kallsyms_path ? env->kallsyms_path :
						 KALLSYMS_PATH;
	struct errbuf map = { "" }, ks = { "" }, mod = { "" };

	if (env->fops_addr) {
		*fops = env->fops_addr;
		snprintf(what, len, "%s = 0x%llx from --fops-addr",
			 env->fs->fops_symbol, *fops);
		vlog(1, "%s", what);
		return 0;
	}
	/* A file read costs less than the kernel formatting kallsyms. */
	if (!from_sysmap(env, names, dir_fop, fops, what, len, &map) ||
	    !from_kallsyms(env, kpath, names, dir_fop, fops, what, len, &ks) ||
	    !from_module(env, names, dir_fop, fops, what, len, &mod))
		return 0;
	vlog(1, "System.map: %s", map.msg);
	vlog(1, "kallsyms: %s", ks.msg);
	vlog(1, "module file: %s", mod.msg);
	return errbuf_set(eb, -ENOENT,
			  "%s; %s; %s: give the address of %s with --fops-addr",
			  ks.msg, map.msg, mod.msg, env->fs->fops_symbol);
}

int read_path_prepare_generic(const struct read_path_env *env, char *what,
			      size_t what_len, struct errbuf *eb)
{
	const struct scan_source *src = NULL;
	unsigned long long fops = 0, dir_fop = 0;
	size_t used;
	int err, off;

	off = discover_fop_offset(env, &dir_fop, &src, eb);
	if (off < 0)
		return off;
	err = fops_address(env, src ? src->dir_fops_symbol :
			   env->fs->dir_fops_symbol, dir_fop, &fops, what,
			   what_len, eb);
	if (err)
		return err;
	used = strlen(what);
	snprintf(what + used, what_len - used, "; f_op at offset %d", off);
	bpf_obj_patch_imm64(env->obj, PATCH_FOPS, fops);
	bpf_obj_patch_imm64(env->obj, PATCH_FOP_OFF, (unsigned long long)off);
	return 0;
}
