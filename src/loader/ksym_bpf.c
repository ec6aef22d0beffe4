/*
 * bpf_kallsyms_lookup_name (5.16+) is a helper for BPF_PROG_TYPE_SYSCALL
 * programs only; those run on demand through BPF_PROG_TEST_RUN, with a
 * context the caller fills and the kernel copies back.  One run answers
 * every name.  The kernel side is kallsyms_lookup_name(): a binary search
 * over vmlinux's symbols since 6.2 (a linear scan before), then each
 * module's own table; reading /proc/kallsyms instead formats every symbol.
 */
#include "loader/ksym_bpf.h"

#include <errno.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/bpf_sys.h"
#include "loader/vlog.h"

int ksym_bpf_lookup(struct bpf_obj *obj, const struct obj_load_opts *lo,
		    struct obj_load_state *st, const char *const *names,
		    unsigned int n, uint64_t *addrs, struct errbuf *eb)
{
	struct obj_prog *p = bpf_obj_find_syscall(obj, "ksym_lookup");
	struct ksym_lookup_ctx ctx;
	uint32_t ret = 0;
	unsigned int i;
	int err;

	if (!p)
		return errbuf_set(eb, -ENOENT,
				  "BPF object has no syscall/ksym_lookup program");
	if (n > KSYM_LOOKUP_MAX)
		return errbuf_set(eb, -E2BIG,
				  "symbol lookup: %u names, at most %d at once",
				  n, KSYM_LOOKUP_MAX);
	memset(&ctx, 0, sizeof(ctx));
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);

		if (len == 0 || len >= KSYM_LOOKUP_NAME)
			return errbuf_set(eb, -ENAMETOOLONG,
					  "symbol lookup: name '%s' is empty or longer than %d bytes",
					  names[i], KSYM_LOOKUP_NAME - 1);
		memcpy(ctx.name[i], names[i], len);
	}
	err = bpf_obj_load_prog(obj, p, lo, st, eb);
	if (err)
		return err;
	err = bpf_prog_run_ctx(p->fd, &ctx, sizeof(ctx), &ret);
	/* Needed once: the program is not kept loaded. */
	bpf_obj_unload_prog(p);
	if (err)
		return errbuf_set(eb, err,
				  "cannot run BPF program %s: %s (BPF_PROG_TEST_RUN of syscall programs needs 5.14+)",
				  p->section, strerror(-err));
	for (i = 0; i < n; i++) {
		if (ctx.err[i])
			return errbuf_set(eb, (int)ctx.err[i],
					  "the kernel's kallsyms has no address for %s: %s",
					  names[i], strerror((int)-ctx.err[i]));
		addrs[i] = ctx.addr[i];
		vlog(2, "kallsyms via BPF: %s at 0x%llx", names[i],
		     (unsigned long long)addrs[i]);
	}
	return 0;
}
