// SPDX-License-Identifier: GPL-2.0
#include "tool/fentry.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/btf/btf.h"
#include "loader/util/vlog.h"

/*
 * The fexit programs read the return value at a constant context word
 * for 2 to 5 arguments (bpf/ext4dist.bpf.c, fexit_rc); the entry
 * programs read arguments 1 and 2.
 */
#define NARGS_MIN 2
#define NARGS_MAX 5

static int find(const struct btf *b, const char *func, const char *where,
		uint32_t *id, unsigned int *nargs, struct errbuf *why)
{
	struct btf_func f;
	int err = btf_find_func(b, func, &f);

	if (err == -ENOENT)
		return errbuf_set(why, err, "no function %s in %s", func,
				  where);
	if (err)
		return errbuf_set(why, err,
				  "%s in %s: its type is no function prototype",
				  func, where);
	if (f.nr_args < NARGS_MIN || f.nr_args > NARGS_MAX)
		return errbuf_set(why, -EINVAL,
				  "%s in %s takes %u arguments; ext4dist's fexit programs know %d to %d",
				  func, where, f.nr_args, NARGS_MIN, NARGS_MAX);
	*id = f.id;
	*nargs = f.nr_args;
	vlog(2, "BTF: %s is id %u in %s, %u arguments", func, f.id, where,
	     f.nr_args);
	return 0;
}

static int find_ops(const struct fs_table *fs, unsigned int ops_mask,
		    int generic, const struct btf *b, const char *where,
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
		err = find(b, fs->ops[op].func, where, &ids->id[op],
			   &ids->nargs[op], why);
		if (err)
			return err;
	}
	return 0;
}

int fentry_resolve(const struct fs_table *fs, unsigned int ops_mask,
		   int generic, const char *btf_dir, const char *sys_module,
		   struct fentry_ids *ids, struct errbuf *why)
{
	char vmlinux[300], mod[300], state[300];
	struct btf base, split;
	int err;

	memset(ids, 0, sizeof(*ids));
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
	err = btf_load(&base, vmlinux, NULL, why);
	if (err)
		return err;
	if (generic && (ops_mask & (1u << OP_READ))) {
		err = find(&base, fs->generic_read, vmlinux, &ids->generic_id,
			   &ids->generic_nargs, why);
		if (err)
			goto out;
		/* The shared read function alone: no module's BTF needed. */
		if (!(ops_mask & ~(1u << OP_READ))) {
			snprintf(ids->source, sizeof(ids->source),
				 "%.200s (%u types)", vmlinux, base.nr_types);
			goto out;
		}
	}
	if (!access(mod, F_OK)) {
		err = btf_load(&split, mod, &base, why);
		if (err)
			goto out;
		ids->in_module = 1;
		err = find_ops(fs, ops_mask, generic, &split, mod, ids, why);
		snprintf(ids->source, sizeof(ids->source),
			 "%.120s (%u types) over %.120s (%u types)", mod,
			 split.nr_types, vmlinux, base.nr_types);
		btf_free(&split);
		goto out;
	}
	if (!access(state, F_OK)) {
		err = errbuf_set(why, -ENOENT,
				 "%s is a module and the kernel has no BTF for modules (no %s: CONFIG_DEBUG_INFO_BTF_MODULES, 5.11+)",
				 fs->module, mod);
		goto out;
	}
	err = find_ops(fs, ops_mask, generic, &base, vmlinux, ids, why);
	snprintf(ids->source, sizeof(ids->source), "%.200s (%u types)", vmlinux,
		 base.nr_types);
out:
	btf_free(&base);
	return err;
}
