// SPDX-License-Identifier: GPL-2.0
#include "tool/engine/fentry.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/btf/btf.h"
#include "loader/util/vlog.h"
#include "output/tool_name.h"

/*
 * The fexit programs read the return value at a constant context word
 * for 2 to 5 arguments (bpf/ext4dist.bpf.c, fexit_rc); the entry
 * programs read arguments 1 and 2.
 */
#define NARGS_MIN 2
#define NARGS_MAX 5

/* The functions asked of one blob, and which is each operation's. */
struct asked {
	struct btf_func f[NR_OPS + 1];
	unsigned int nr;
	unsigned int of_op[NR_OPS];
};

static unsigned int ask(struct asked *a, const char *func)
{
	a->f[a->nr].name = func;
	return a->nr++;
}

/* The functions of ops_mask, the generic read path's read aside. */
static void ask_ops(struct asked *a, const struct fs_table *fs,
		    unsigned int ops_mask, int generic)
{
	unsigned int op;

	for (op = 0; op < NR_OPS; op++) {
		if (!(ops_mask & (1u << op)) || (op == OP_READ && generic) ||
		    !fs->ops[op].func)
			continue;
		a->of_op[op] = ask(a, fs->ops[op].func);
	}
}

static int found(const struct btf_func *f, const char *where, uint32_t *id,
		 unsigned int *nargs, struct errbuf *why)
{
	if (f->err == -ENOENT)
		return errbuf_set(why, f->err, "no function %s in %s", f->name,
				  where);
	if (f->err)
		return errbuf_set(why, f->err,
				  "%s in %s: its type is no function prototype",
				  f->name, where);
	if (f->nr_args < NARGS_MIN || f->nr_args > NARGS_MAX)
		return errbuf_set(why, -EINVAL,
				  "%s in %s takes %u arguments; %s's fexit programs know %d to %d",
				  f->name, where, f->nr_args, tool_name(),
				  NARGS_MIN, NARGS_MAX);
	*id = f->id;
	*nargs = f->nr_args;
	vlog(2, "BTF: %s is id %u in %s, %u arguments", f->name, f->id, where,
	     f->nr_args);
	return 0;
}

static int found_ops(const struct fs_table *fs, unsigned int ops_mask,
		     int generic, const struct asked *a, const char *where,
		     struct fentry_ids *ids, struct errbuf *why)
{
	unsigned int op;
	int err;

	for (op = 0; op < NR_OPS; op++) {
		if (!(ops_mask & (1u << op)) || (op == OP_READ && generic))
			continue;
		if (!fs->ops[op].func)
			return errbuf_set(why, -ENOENT,
					  "%s has no function for operation %u",
					  fs->name, op);
		err = found(&a->f[a->of_op[op]], where, &ids->id[op],
			    &ids->nargs[op], why);
		if (err)
			return err;
	}
	return 0;
}

/* The module's split BTF over base: its functions of ops_mask, in a. */
static int resolve_module(const struct fs_table *fs, unsigned int ops_mask,
			  int generic, const char *mod, const struct btf *base,
			  const char *vmlinux, struct asked *a,
			  struct fentry_ids *ids, struct errbuf *why)
{
	struct btf_src src;
	struct btf split;
	int err;

	a->nr = 0;
	ask_ops(a, fs, ops_mask, generic);
	err = btf_src_open(&src, mod, why);
	if (err)
		return err;
	err = btf_read(&split, &src, base, a->f, a->nr, why);
	if (!err) {
		ids->in_module = 1;
		err = found_ops(fs, ops_mask, generic, a, mod, ids, why);
		snprintf(ids->source, sizeof(ids->source),
			 "%.120s (%u types) over %.120s (%u types)", mod,
			 split.nr_types, vmlinux, base->nr_types);
		btf_free(&split);
	}
	btf_src_close(&src);
	return err;
}

int fentry_resolve(const struct fs_table *fs, unsigned int ops_mask,
		   int generic, const char *btf_dir, const char *sys_module,
		   struct fentry_ids *ids, struct errbuf *why)
{
	char vmlinux[300], mod[300], state[300];
	int gen = generic && (ops_mask & (1u << OP_READ));
	int alone = gen && !(ops_mask & ~(1u << OP_READ));
	int has_mod, is_module;
	struct btf_src src;
	struct asked a;
	struct btf base;
	int err;

	memset(ids, 0, sizeof(*ids));
	memset(&a, 0, sizeof(a));
	if (!btf_dir)
		btf_dir = "/sys/kernel/btf";
	if (!sys_module)
		sys_module = "/sys/module";
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", btf_dir);
	snprintf(mod, sizeof(mod), "%s/%s", btf_dir, fs->module);
	snprintf(state, sizeof(state), "%s/%s/initstate", sys_module,
		 fs->module);
	if (access(vmlinux, F_OK))
		return errbuf_set(why, -ENOENT,
				  "no %s: the kernel carries no BTF (CONFIG_DEBUG_INFO_BTF, 5.5+)",
				  vmlinux);
	has_mod = !alone && !access(mod, F_OK);
	is_module = !alone && !has_mod && !access(state, F_OK);
	/* Nothing to read for: the module's functions have no BTF ids. */
	if (is_module)
		return errbuf_set(why, -ENOENT,
				  "%s is a module and the kernel has no BTF for modules (no %s: CONFIG_DEBUG_INFO_BTF_MODULES, 5.11+)",
				  fs->module, mod);
	/*
	 * vmlinux's functions are looked for in the one pass that counts
	 * its types (which the module's ids continue): the shared read
	 * function, and the operations' when the file system is built in.
	 */
	if (gen)
		ask(&a, fs->generic_read);	/* a.f[0] */
	if (!alone && !has_mod)
		ask_ops(&a, fs, ops_mask, generic);
	err = btf_src_open(&src, vmlinux, why);
	if (err)
		return err;
	err = btf_read(&base, &src, NULL, a.f, a.nr, why);
	if (err)
		goto close;
	if (gen) {
		err = found(&a.f[0], vmlinux, &ids->generic_id,
			    &ids->generic_nargs, why);
		if (err)
			goto out;
	}
	if (has_mod) {
		err = resolve_module(fs, ops_mask, generic, mod, &base,
				     vmlinux, &a, ids, why);
		goto out;
	}
	/* The shared read function alone: no module's BTF needed. */
	if (!alone)
		err = found_ops(fs, ops_mask, generic, &a, vmlinux, ids, why);
	snprintf(ids->source, sizeof(ids->source), "%.200s (%u types)", vmlinux,
		 base.nr_types);
out:
	btf_free(&base);
close:
	btf_src_close(&src);
	return err;
}
