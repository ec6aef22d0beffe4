#include "tool/read_path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/bpf_sys.h"
#include "loader/kallsyms.h"
#include "loader/module_file.h"
#include "loader/modsym.h"
#include "loader/sysmap.h"
#include "loader/vlog.h"
#include "tool/ext4_ops.h"

#define SCAN_MAX_ENTRIES 4096

int read_path_find_fop_offset(const unsigned long long *words, unsigned int n,
			      unsigned long long fops)
{
	unsigned int i;

	if (!fops)
		return -ENOENT;
	for (i = 0; i < n; i++)
		if (words[i] == fops)
			return (int)(i * sizeof(*words));
	return -ENOENT;
}

static int fops_from_files(const struct tracer_config *cfg,
			   unsigned long long *addr, struct errbuf *why)
{
	char ko_base[512], ko[600];
	struct utsname u;

	if (uname(&u))
		return -errno;
	if (sysmap_resolve(NULL, cfg->kallsyms_path, FOPS_SYMBOL, addr,
			   why) == 0) {
		vlog(1, "%s found in /boot/System.map-%s: 0x%llx", FOPS_SYMBOL,
		     u.release, *addr);
		return 0;
	}
	vlog(1, "%s", why->msg[0] ? why->msg : "System.map: no luck");
	snprintf(ko_base, sizeof(ko_base),
		 "/lib/modules/%s/kernel/fs/ext4/ext4.ko", u.release);
	if (modsym_ko_path(ko_base, ko, sizeof(ko)) == 0 &&
	    modsym_resolve(ko, "/sys/module/ext4/sections", FOPS_SYMBOL, addr,
			   why) == 0) {
		vlog(1, "%s found in %s plus /sys/module/ext4/sections: 0x%llx",
		     FOPS_SYMBOL, ko, *addr);
		return 0;
	}
	if (!why->msg[0])
		errbuf_fmt(why, "no ext4 module file");
	return -ENOENT;
}

int read_path_fops_addr(const struct tracer_config *cfg,
			unsigned long long *addr, struct errbuf *eb)
{
	const char *names[] = { FOPS_SYMBOL };
	const char *kpath = cfg->kallsyms_path ? cfg->kallsyms_path :
						 KALLSYMS_PATH;
	struct ksym_result res;
	struct errbuf why = { "" };
	int n;

	if (cfg->fops_addr) {
		*addr = cfg->fops_addr;
		vlog(1, "%s = 0x%llx from --fops-addr", FOPS_SYMBOL, *addr);
		return 0;
	}
	n = kallsyms_lookup(kpath, names, 1, 0, &res, NULL);
	if (n == -EPERM)
		return errbuf_set(eb, -EPERM,
				  "%s shows only zero addresses (kernel.kptr_restrict, or no CAP_SYSLOG): run as root or set kernel.kptr_restrict=0",
				  kpath);
	if (n == 1 && res.addr) {
		*addr = res.addr;
		vlog(1, "%s = 0x%llx from %s (type %c%s%s%s)", FOPS_SYMBOL,
		     res.addr, kpath, res.type, res.module[0] ? ", module " : "",
		     res.module, res.module[0] ? "" : ", core kernel");
		return 0;
	}
	if (n < 0)
		return errbuf_set(eb, n, "cannot read %s: %s", kpath,
				  strerror(-n));
	vlog(1, "%s is not in %s (CONFIG_KALLSYMS_ALL off?): trying System.map and the module file",
	     FOPS_SYMBOL, kpath);
	if (fops_from_files(cfg, addr, &why) == 0)
		return 0;
	return errbuf_set(eb, -ENOENT,
			  "no %s in %s (the kernel should be built with CONFIG_KALLSYMS_ALL), nor in System.map or the ext4 module (%s); give its address with --fops-addr",
			  FOPS_SYMBOL, kpath, why.msg);
}

/* Opens one regular file on some mounted ext4 file system: fd or -ENOENT. */
static int open_ext4_file(char *which, size_t len)
{
	FILE *mounts = setmntent("/proc/self/mounts", "re");
	struct mntent *me;
	int fd = -ENOENT;

	if (!mounts)
		return -errno;
	while (fd < 0 && (me = getmntent(mounts)) != NULL) {
		DIR *d;
		struct dirent *de;
		int seen = 0;

		if (strcmp(me->mnt_type, "ext4") != 0)
			continue;
		d = opendir(me->mnt_dir);
		if (!d)
			continue;
		while (fd < 0 && seen++ < SCAN_MAX_ENTRIES &&
		       (de = readdir(d)) != NULL) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
				continue;
			fd = openat(dirfd(d), de->d_name,
				    O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
			if (fd >= 0)
				snprintf(which, len, "%s/%s", me->mnt_dir,
					 de->d_name);
		}
		closedir(d);
	}
	endmntent(mounts);
	return fd;
}

static int discover_fop_offset(struct tracer *t, const struct obj_load_opts *lo,
			       unsigned long long fops, struct errbuf *eb)
{
	unsigned long long words[FILE_SCAN_WORDS];
	struct obj_prog *p = bpf_obj_find_prog(&t->obj, PROBE_ENTRY,
					       "ext4_file_open", "scan_file");
	struct obj_map *m = bpf_obj_find_map(&t->obj, "file_words");
	struct probe_spec spec = { .kind = PROBE_ENTRY, .func = "ext4_file_open" };
	struct probe_link link = { .perf_fd = -1 };
	char which[600] = "";
	unsigned int key = 0;
	int err, fd, off;

	if (!p || !m)
		return errbuf_set(eb, -EINVAL,
				  "BPF object lacks the f_op discovery program");
	bpf_obj_patch_imm64(&t->obj, PATCH_SELF, (unsigned long long)getpid());
	err = bpf_obj_load_prog(&t->obj, p, lo, &t->load, eb);
	if (err)
		return err;
	spec.prog_fd = p->fd;
	err = t->ops->attach(&t->actx, &spec, &link, eb);
	if (err)
		return err;
	fd = open_ext4_file(which, sizeof(which));
	probe_detach(&t->actx, &link);
	if (fd < 0)
		return errbuf_set(eb, -ENOENT,
				  "cannot discover where struct file keeps f_op: no regular file found at the top of a mounted ext4 file system to open (mount one, or use the default read path)");
	close(fd);
	memset(words, 0, sizeof(words));
	err = bpf_map_lookup(m->fd, &key, words);
	if (err)
		return errbuf_set(eb, err, "reading map file_words: %s",
				  strerror(-err));
	off = read_path_find_fop_offset(words, FILE_SCAN_WORDS, fops);
	if (off < 0)
		return errbuf_set(eb, -ENOENT,
				  "opening %s did not show 0x%llx (%s) in the first %u words of struct file: wrong --fops-addr?",
				  which, fops, FOPS_SYMBOL, FILE_SCAN_WORDS);
	vlog(1, "f_op discovered at offset %d of struct file (by opening %s under a probe on ext4_file_open)",
	     off, which);
	return off;
}

int read_path_prepare_generic(struct tracer *t,
			      const struct tracer_config *cfg,
			      const struct obj_load_opts *lo,
			      struct errbuf *eb)
{
	unsigned long long fops;
	int err, off;

	err = read_path_fops_addr(cfg, &fops, eb);
	if (err)
		return err;
	off = discover_fop_offset(t, lo, fops, eb);
	if (off < 0)
		return off;
	bpf_obj_patch_imm64(&t->obj, PATCH_FOPS, fops);
	bpf_obj_patch_imm64(&t->obj, PATCH_FOP_OFF, (unsigned long long)off);
	return 0;
}
