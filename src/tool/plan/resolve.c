// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/resolve.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "loader/loader.h"

/*
 * The functions resolve_addresses() looks for; returns how many.  The
 * shared read function is the core kernel's: never in a module's file.
 */
static unsigned int fn_list(struct fn_addrs *a, const struct fs_table *fs,
			    int core)
{
	unsigned int op, n = 0;

	for (op = 0; op < NR_OPS; op++)
		if (fs->ops[op].func)
			a->names[n++] = fs->ops[op].func;
	if (fs->dir_release)
		a->names[n++] = fs->dir_release;
	if (core && fs->generic_read)
		a->names[n++] = fs->generic_read;
	return n;
}

/*
 * A built-in file system: its functions from System.map (moved by the
 * KASLR slide), kept as a hint until the generic read path's f_op probe
 * confirms the map is this kernel's (resolve_trust_sysmap()).
 */
static int sysmap_hint(struct fn_addrs *a, const struct fs_table *fs,
		       const char *kallsyms_path, const char *release,
		       char *said, size_t said_size, struct errbuf *why)
{
	unsigned int n = fn_list(a, fs, 1), syms = 0;
	int hits;

	/* The read path's data symbols in the same pass over the map. */
	if (fs->generic_read) {
		read_path_symbols(fs, &a->names[n]);
		syms = READ_PATH_NR_SYMS;
	}

	snprintf(a->sysmap_path, sizeof(a->sysmap_path), "/boot/System.map-%s",
		 release);
	if (access(a->sysmap_path, R_OK))
		return errbuf_set(why, -ENOENT,
				  "%s is built in, and there is no %s",
				  fs->module, a->sysmap_path);
	hits = sysmap_resolve_many(a->sysmap_path, kallsyms_path,
				   a->names, n + syms, a->addrs, a->found, why);
	if (hits <= 0)
		return hits ? hits : errbuf_set(why, -ENOENT,
						"%s has none of the functions",
						a->sysmap_path);
	a->nr_fn = n;
	a->nr_syms = n + syms;
	snprintf(a->source, sizeof(a->source), "%s", a->sysmap_path);
	snprintf(said, said_size,
		 "by name until %s is confirmed as this kernel's (by the f_op probe of the generic read path)",
		 a->sysmap_path);
	vlog(1, "kprobes %s", said);
	return 0;
}

void resolve_trust_sysmap(struct fn_addrs *a, char *said, size_t said_size)
{
	unsigned int i;
	int hits = 0;

	if (!a->nr_fn || a->trusted || !a->sysmap_agrees)
		return;
	a->trusted = 1;
	for (i = 0; i < a->nr_fn; i++)
		hits += a->found[i];
	snprintf(said, said_size,
		 "by address: %d functions from %s, which the f_op probe confirmed",
		 hits, a->sysmap_path);
	vlog(1, "kprobes %s", said);
}

/*
 * A module's functions asked of the kernel itself (ksym_bpf.c), each as
 * "module:function", which the kernel looks for in that module's own
 * symbols alone, after a search of vmlinux's that fails.  That search is
 * a binary one from 6.2 (kallsyms_lookup_names()), and in the 6.1 stable
 * kernels that took it (Debian's 6.1.0-57, 6.1.192, has it); before, it
 * walks every vmlinux symbol, expanding each name, for each name, and
 * reading the module file costs less.  Between 5.16 (the helper) and 6.2
 * the kernel is asked for the search's own symbol first: one walk lost
 * where it is missing.  How many it found, or -errno when the kernel
 * cannot tell (older, no syscall programs, addresses hidden, the walk)
 * or knows none of them.
 */
static int by_kernel(struct fn_addrs *a, const struct fs_table *fs,
		     unsigned int n, struct errbuf *why)
{
	char scoped[FN_MAX][64];
	const char *names[FN_MAX];
	uint64_t addrs[FN_MAX];
	const char *source, *gate = NULL;
	unsigned int code, i;
	int err, hits = 0;

	if (kversion_running(&code, &source) || code < kversion_code(5, 16, 0))
		return errbuf_set(why, -EOPNOTSUPP,
				  "the kernel's own lookup (bpf_kallsyms_lookup_name) arrived in 5.16");
	if (code < kversion_code(6, 2, 0))
		gate = "kallsyms_lookup_names";
	for (i = 0; i < n; i++) {
		snprintf(scoped[i], sizeof(scoped[i]), "%s:%s", fs->module,
			 a->names[i]);
		names[i] = scoped[i];
	}
	err = ksym_bpf_lookup_after(gate, names, n, addrs, a->found, why);
	if (err == -EOPNOTSUPP && gate)
		return errbuf_set(why, err,
				  "the kernel's own lookup walks every symbol here (no %s, the binary search by name of 6.2)",
				  gate);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		a->addrs[i] = a->found[i] ? addrs[i] : 0;
		hits += a->found[i];
	}
	return hits ? hits : errbuf_set(why, -ENOENT,
					"the kernel knows none of the functions in %s",
					fs->module);
}

/*
 * kprobes by address where the file system is a module the kernel tells
 * the addresses of (by_kernel()), or whose file on disk is the very build
 * the kernel loaded: the kernel then skips its lookup of the name for
 * each probe.  A built-in one may get them from System.map
 * (sysmap_hint()).
 */
void resolve_addresses(struct fn_addrs *a, const struct fs_table *fs,
		       const char *sys_module, const char *kallsyms_path,
		       char *said, size_t said_size)
{
	char dir[256], base[512], ko[600];
	struct errbuf why = { "" };
	struct utsname u;
	unsigned int n;
	int hits;

	snprintf(dir, sizeof(dir), "%s/%s",
		 sys_module ? sys_module : "/sys/module", fs->module);
	if (uname(&u)) {
		errbuf_set(&why, -errno, "uname: %s", strerror(errno));
		goto by_name;
	}
	snprintf(base, sizeof(base), "/lib/modules/%s/%s", u.release,
		 fs->module_file);
	snprintf(ko, sizeof(ko), "%s/initstate", dir);
	if (access(ko, F_OK)) {
		/* Built in (no module state): System.map may know. */
		if (sysmap_hint(a, fs, kallsyms_path, u.release, said,
				said_size, &why) == 0)
			return;
		goto by_name;
	}
	n = fn_list(a, fs, 0);
	hits = by_kernel(a, fs, n, &why);
	if (hits > 0) {
		a->nr_fn = n;
		a->trusted = 1;
		snprintf(a->source, sizeof(a->source), "the kernel's kallsyms");
		snprintf(said, said_size,
			 "by address: %d functions from the kernel's own symbol table (bpf_kallsyms_lookup_name)",
			 hits);
		vlog(1, "kprobes %s", said);
		return;
	}
	vlog(2, "kprobes: not from the kernel's own lookup: %s", why.msg);
	if (modsym_ko_path(base, ko, sizeof(ko))) {
		errbuf_set(&why, -ENOENT, "%s is a module without its file %s",
			   fs->module, base);
		goto by_name;
	}
	hits = modsym_resolve_loaded(ko, dir, a->names, n, a->addrs,
				     a->found, &why);
	/* The decompressor's and libelf's text, no longer run. */
	text_pages_drop();
	if (hits <= 0) {
		if (!hits)
			errbuf_set(&why, -ENOENT, "%s has none of the functions", ko);
		goto by_name;
	}
	a->nr_fn = n;
	a->trusted = 1;
	snprintf(a->source, sizeof(a->source), "%s", ko);
	snprintf(said, said_size,
		 "by address: %d functions from %s, the build the kernel loaded",
		 hits, ko);
	vlog(1, "kprobes %s", said);
	return;
by_name:
	snprintf(said, said_size,
		 "by name (the kernel looks each one up): %s", why.msg);
	vlog(1, "kprobes %s", said);
}

void resolve_none(struct fn_addrs *a)
{
	a->nr_fn = a->nr_syms = 0;
	a->trusted = 0;
}

int resolve_addr_of(const struct fn_addrs *a, const char *func,
		    unsigned long long *addr)
{
	unsigned int i;

	*addr = 0;
	if (!a->trusted)
		return 0;
	for (i = 0; i < a->nr_fn; i++)
		if (strcmp(a->names[i], func) == 0) {
			if (!a->found[i])
				return -ENOENT;
			*addr = a->addrs[i];
		}
	return 0;
}

void resolve_hint_addr(const struct fn_addrs *a, const char *func,
		       unsigned long long *addr)
{
	unsigned int i;

	for (i = 0; i < a->nr_fn; i++)
		if (strcmp(a->names[i], func) == 0 && a->found[i])
			*addr = a->addrs[i];
}

int resolve_hint_lacks(const struct fn_addrs *a, const char *func)
{
	unsigned int i;

	for (i = 0; i < a->nr_fn; i++)
		if (strcmp(a->names[i], func) == 0)
			return !a->found[i];
	return 0;
}
