// SPDX-License-Identifier: GPL-2.0
#include "tool/discover/read_path.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/kernel/kmem.h"
#include "loader/loader.h"

/* Word i of a copy of kernel memory. */
static unsigned long long word_at(const struct karch *k,
				  const unsigned long long *mem, unsigned int i)
{
	return kmem_word(k, mem, (size_t)i * k->word);
}

/*
 * Could v be f_op: a kernel address (kmem_kernel_ptr), and not a pointer
 * into the file or the inode themselves (f_inode, f_mapping ==
 * &inode->i_data, list heads).
 */
static int fop_like(const struct open_scan *s, const struct karch *k,
		    unsigned long long v)
{
	if (!kmem_kernel_ptr(k, v))
		return 0;
	if (v >= s->file_ptr && v - s->file_ptr < sizeof(s->file))
		return 0;
	return !(v >= s->inode_ptr && v - s->inode_ptr < sizeof(s->inode));
}

static int inode_holds(const struct open_scan *s, const struct karch *k,
		       unsigned long long v)
{
	unsigned int i, n = (unsigned int)sizeof(s->inode) / k->word;

	for (i = 0; i < n; i++)
		if (word_at(k, s->inode, i) == v)
			return 1;
	return 0;
}

int read_path_fop_candidates(const struct open_scan *scan,
			     const struct karch *ka, struct fop_candidates *c)
{
	unsigned int word = ka->word, i, n, k;

	if (word != 8 && word != 4)
		return -EINVAL;
	n = (unsigned int)sizeof(scan->file) / word;
	c->n = 0;
	for (i = 0; i < n && c->n < FOP_MAX_CANDIDATES; i++) {
		unsigned long long v = word_at(ka, scan->file, i);

		if (!fop_like(scan, ka, v) || !inode_holds(scan, ka, v))
			continue;
		/*
		 * A struct file holds its f_op once: the same value further
		 * on is past its end, in the next file of the slab (armmp
		 * 6.1: f_op at 20 and again at 212, the copy reading 256
		 * bytes of a 4-byte-word struct file).
		 */
		for (k = 0; k < c->n && c->val[k] != v; k++)
			;
		if (k < c->n)
			continue;
		c->off[c->n] = (int)(i * word);
		c->val[c->n] = v;
		c->n++;
	}
	return (int)c->n;
}

/* "16: 0x..., 212: 0x..." for messages. */
static void candidates_text(const struct fop_candidates *c, char *buf,
			    size_t len)
{
	size_t used = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < c->n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d: 0x%llx",
					 k ? ", " : "", c->off[k], c->val[k]);
}

int read_path_find_fop_offset(const struct open_scan *scan,
			      const struct karch *ka, unsigned long long *fop,
			      struct errbuf *why)
{
	struct fop_candidates c;
	int n = read_path_fop_candidates(scan, ka, &c);

	if (n < 0)
		return n;
	if (why)
		candidates_text(&c, why->msg, sizeof(why->msg));
	if (n == 0)
		return -ENOENT;
	*fop = c.val[0];
	return n > 1 ? -EEXIST : c.off[0];
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
	/* A full file table opens nothing: it ends the search. */
	while (err && !errno_nofile(err) &&
	       (me = getmntent(mounts)) != NULL) {
		if (!is_mount_of(src, me->mnt_type))
			continue;
		(*tried)++;
		err = scan_one(AT_FDCWD, me->mnt_dir, map_fd, scan);
		if (err == 0)
			snprintf(which, len, "%s", me->mnt_dir);
		else if (!errno_nofile(err))
			err = -ENOENT;
	}
	endmntent(mounts);
	if (err == -ENOENT && src->tracing_dir && env->tracing_fd >= 0) {
		(*tried)++;
		err = scan_one(env->tracing_fd, ".", map_fd, scan);
		if (err == 0)
			snprintf(which, len, "%s", env->tracing_dir);
		else if (!errno_nofile(err))
			err = -ENOENT;
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
	errbuf_nofile(eb, err, "cannot open a directory for the f_op discovery");
	return err;
}

/*
 * What the directory showed: the words of struct file that could be f_op
 * (one, unless another pointer of the file happens to be in the inode
 * too), where, and through which source; the symbol source picks.
 */
struct fop_seen {
	struct fop_candidates c;
	int pick;			/* index into c, -1 until chosen */
	const struct scan_source *src;	/* NULL: the file system's own */
	const char *release;		/* the ->release probed */
	char which[512];		/* the directory opened and closed */
};

static int discover_fop_offset(const struct read_path_env *env,
			       struct fop_seen *seen, struct errbuf *eb)
{
	const struct scan_source own = {
		.mount_types = env->fs->mount_types,
		.release = env->fs->dir_release,
		.dir_fops_symbol = env->fs->dir_fops_symbol,
	};
	struct obj_map *m = bpf_obj_find_map(env->obj, "open_scan");
	struct open_scan scan = { 0 };
	struct karch ka;
	char list[300];
	unsigned int tried = 0, simple = 0;
	int err;

	if (!m)
		return errbuf_set(eb, -EINVAL,
				  "BPF object lacks the f_op discovery map open_scan");
	seen->src = NULL;
	seen->pick = -1;
	seen->release = env->fs->dir_release;
	err = scan_source(env, &own, m->fd, &scan, seen->which,
			  sizeof(seen->which), &tried, eb);
	if (err == -ENOENT && tried)
		return errbuf_set(eb, err,
				  "cannot discover where struct file keeps f_op: opening and closing the root directory of %u mounted %s file system%s did not run %s",
				  tried, env->fs->name, tried == 1 ? "" : "s",
				  env->fs->dir_release);
	if (err == -ENOENT) {
		/* Nothing of its own mounted (yet): the kernel's. */
		vlog(1, "f_op discovery: no %s file system is mounted: through the directories of tracefs or debugfs instead",
		     env->fs->name);
		seen->src = &simple_dirs;
		seen->release = simple_dirs.release;
		err = scan_source(env, &simple_dirs, m->fd, &scan, seen->which,
				  sizeof(seen->which), &simple, eb);
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
	karch_or_own(&ka);
	if (read_path_fop_candidates(&scan, &ka, &seen->c) <= 0)
		return errbuf_set(eb, -ENOENT,
				  "cannot discover where struct file keeps f_op: closing %s showed no word of struct file that struct inode holds too",
				  seen->which);
	if (seen->c.n == 1) {
		seen->pick = 0;
	} else {
		candidates_text(&seen->c, list, sizeof(list));
		vlog(1, "f_op discovery: closing %s showed %u words of struct file that struct inode holds too (offset: value %s): the symbol source picks",
		     seen->which, seen->c.n, list);
	}
	return 0;
}

/* The candidate with value v, or -1. */
static int seen_index(const struct fop_seen *seen, unsigned long long v)
{
	unsigned int k;

	for (k = 0; k < seen->c.n; k++)
		if (seen->c.val[k] == v)
			return (int)k;
	return -1;
}

/*
 * One symbol source's answer: both addresses, accepted only when its
 * address of the directories' f_op is the one the probe saw (a stale
 * System.map, a module file of another build, fail here).
 */
static int accept(const struct read_path_env *env, const char *source,
		  const char *const *names,
		  const unsigned long long *addr, const int *found,
		  struct fop_seen *seen, unsigned long long *fops,
		  char *what, size_t len, struct errbuf *why)
{
	char list[300];
	int k;

	if (!found[0] || !found[1])
		return errbuf_set(why, -ENOENT, "%s: no %s", source,
				  names[found[0] ? 1 : 0]);
	k = seen_index(seen, addr[1]);
	if (k < 0) {
		candidates_text(&seen->c, list, sizeof(list));
		return errbuf_set(why, -ESTALE,
				  "%s: %s at 0x%llx, but the kernel's is %s%s: not the running kernel's",
				  source, names[1], addr[1],
				  seen->c.n > 1 ? "one of " : "", list);
	}
	seen->pick = k;
	*fops = addr[0];
	snprintf(what, len, "%s = 0x%llx from %s", env->fs->fops_symbol,
		 addr[0], source);
	vlog(1, "%s found in %s: 0x%llx (%s 0x%llx agrees with the probe)",
	     env->fs->fops_symbol, source, addr[0], names[1],
	     addr[1]);
	return 0;
}

static int from_kallsyms(const struct read_path_env *env, const char *path,
			 const char *const *names, struct fop_seen *seen,
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
	return accept(env, path, names, addr, found, seen, fops, what, len, why);
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
		       const char *const *names, struct fop_seen *seen,
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
	n = accept(env, path, names, addr, found, seen, fops, what, len, why);
	/* Its directories' f_op where the probe saw it: the map is this kernel's. */
	if (found[1] && seen_index(seen, addr[1]) >= 0 && env->sysmap_agrees)
		*env->sysmap_agrees = 1;
	return n;
}

/*
 * The module's own symbol table, from its file on disk.  Where the file
 * is the very build the kernel loaded (build ids equal), its address of
 * the files' f_op holds by itself, and picks among several candidates
 * through the directories' f_op when the module has that symbol; any
 * other file must show the directories' f_op the probe saw.
 */
static int from_module(const struct read_path_env *env,
		       const char *const *names, struct fop_seen *seen,
		       unsigned long long *fops, char *what, size_t len,
		       struct errbuf *why)
{
	char dir[256], sections[300], base[512], ko[600], source[1000];
	unsigned long long addr[2] = { 0, 0 };
	struct errbuf same = { "" };
	int found[2] = { 0, 0 }, n, k;
	struct utsname u;

	snprintf(dir, sizeof(dir), "%s/%s",
		 env->sys_module ? env->sys_module : "/sys/module",
		 env->fs->module);
	snprintf(sections, sizeof(sections), "%s/sections", dir);
	if (access(sections, F_OK))
		return errbuf_set(why, -ENOENT, "%s is not a loaded module",
				  env->fs->module);
	if (uname(&u))
		return -errno;
	snprintf(base, sizeof(base), "/lib/modules/%s/%s", u.release,
		 env->fs->module_file);
	if (modsym_ko_path(base, ko, sizeof(ko)))
		return errbuf_set(why, -ENOENT, "no module file %s", base);
	snprintf(source, sizeof(source), "%s plus %s", ko, sections);
	n = modsym_resolve_loaded(ko, dir, names, 2, addr, found, &same);
	if (n < 0 || !found[0]) {
		vlog(1, "module file: not taken on its build id alone: %s",
		     n < 0 ? same.msg : "no files' f_op in it");
		n = modsym_resolve_many(ko, sections, names, 2, addr, found,
					why);
		if (n < 0)
			return n;
		return accept(env, source, names, addr, found, seen, fops,
			      what, len, why);
	}
	k = found[1] ? seen_index(seen, addr[1]) : -1;
	if (k < 0 && seen->c.n > 1)
		return errbuf_set(why, -ENOENT,
				  "%s (the loaded build): no %s among the words the probe saw, to tell f_op from the others",
				  source, names[1]);
	seen->pick = k < 0 ? 0 : k;
	*fops = addr[0];
	snprintf(what, len, "%s = 0x%llx from %s", env->fs->fops_symbol,
		 addr[0], source);
	vlog(1, "%s found in %s: 0x%llx (the module file is the build the kernel loaded)",
	     env->fs->fops_symbol, source, addr[0]);
	return 0;
}

/*
 * --fops-addr: nothing to check it against.  With one candidate that is
 * f_op; with several, the one near the given address (a file system's
 * file and directory operations are neighbours in its read-only data).
 */
static int from_option(const struct read_path_env *env, struct fop_seen *seen,
		       unsigned long long *fops, char *what, size_t len,
		       struct errbuf *eb)
{
	unsigned long long near = 1ULL << 20, d;
	char list[300];
	unsigned int k;
	int pick = -1;

	for (k = 0; k < seen->c.n; k++) {
		d = seen->c.val[k] > env->fops_addr ?
		    seen->c.val[k] - env->fops_addr :
		    env->fops_addr - seen->c.val[k];
		if (seen->c.n == 1 || d < near) {
			if (pick >= 0) {
				pick = -2;
				break;
			}
			pick = (int)k;
		}
	}
	if (pick < 0) {
		candidates_text(&seen->c, list, sizeof(list));
		return errbuf_set(eb, -EEXIST,
				  "cannot discover where struct file keeps f_op: closing %s showed several candidates (offset: value %s), %s within 1 MiB of --fops-addr 0x%llx",
				  seen->which, list, pick == -2 ? "more than one" :
				  "none", env->fops_addr);
	}
	seen->pick = pick;
	*fops = env->fops_addr;
	snprintf(what, len, "%s = 0x%llx from --fops-addr",
		 env->fs->fops_symbol, *fops);
	vlog(1, "%s", what);
	return 0;
}

/* The address of the files' f_op, from the first source that agrees. */
static int fops_address(const struct read_path_env *env,
			const char *dir_fops_symbol, struct fop_seen *seen,
			unsigned long long *fops, char *what, size_t len,
			struct errbuf *eb)
{
	const char *names[2] = { env->fs->fops_symbol, dir_fops_symbol };
	const char *kpath = env->kallsyms_path ? env->kallsyms_path :
						 KALLSYMS_PATH;
	struct errbuf map = { "" }, ks = { "" }, mod = { "" };

	int err;

	if (env->fops_addr)
		return from_option(env, seen, fops, what, len, eb);
	/*
	 * A file read costs less than the kernel formatting kallsyms.  A
	 * full file table ends the search: no source was asked.
	 */
	err = from_sysmap(env, names, seen, fops, what, len, &map);
	if (err && !errno_nofile(err))
		err = from_kallsyms(env, kpath, names, seen, fops, what, len,
				    &ks);
	if (err && !errno_nofile(err))
		err = from_module(env, names, seen, fops, what, len, &mod);
	if (errbuf_nofile(eb, err, "cannot read the symbols for %s",
			  env->fs->fops_symbol) || !err)
		return err;
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
	struct fop_seen seen;
	unsigned long long fops = 0;
	size_t used;
	int err, off;

	err = discover_fop_offset(env, &seen, eb);
	if (err)
		return err;
	err = fops_address(env, seen.src ? seen.src->dir_fops_symbol :
			   env->fs->dir_fops_symbol, &seen, &fops, what,
			   what_len, eb);
	if (err)
		return err;
	off = seen.c.off[seen.pick];
	vlog(1, "f_op discovered at offset %d of struct file (by opening and closing %s under a probe on %s: f_op 0x%llx, as inode->i_fop)",
	     off, seen.which, seen.release, seen.c.val[seen.pick]);
	used = strlen(what);
	snprintf(what + used, what_len - used, "; f_op at offset %d", off);
	bpf_obj_patch_imm64(env->obj, PATCH_FOPS, fops);
	bpf_obj_patch_imm64(env->obj, PATCH_FOP_OFF, (unsigned long long)off);
	return 0;
}
