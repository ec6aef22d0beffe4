// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_kallsyms_lookup_name (5.16+) is a helper for BPF_PROG_TYPE_SYSCALL
 * programs only; those run on demand through BPF_PROG_TEST_RUN, with a
 * context the caller fills and the kernel copies back.  The kernel side is
 * kallsyms_lookup_name(): a binary search over vmlinux's symbols since
 * 6.2 (a linear scan before), then each module's own table; reading
 * /proc/kallsyms instead formats every symbol.
 */
#include "loader/ksym/ksym_bpf.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "loader/obj/bpf_sys.h"
#include "loader/obj/insn.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

#define NAME_LEN 64

/* The program's context, in and out. */
struct lookup_ctx {
	char name[NAME_LEN];		/* NUL-padded */
	uint64_t addr;			/* out */
	int64_t err;			/* out: 0 or -errno */
};

/*
 * The name goes to the stack first: 5.16's helper takes no pointer into
 * the context.  r6 = ctx; fp-64..fp-8 = name; fp-72 = the result.
 */
static const struct bpf_insn lookup_prog[] = {
	MOV64_REG(BPF_REG_6, BPF_REG_1),
	LDX_DW(BPF_REG_1, BPF_REG_6, 0), STX_DW(BPF_REG_10, BPF_REG_1, -64),
	LDX_DW(BPF_REG_1, BPF_REG_6, 8), STX_DW(BPF_REG_10, BPF_REG_1, -56),
	LDX_DW(BPF_REG_1, BPF_REG_6, 16), STX_DW(BPF_REG_10, BPF_REG_1, -48),
	LDX_DW(BPF_REG_1, BPF_REG_6, 24), STX_DW(BPF_REG_10, BPF_REG_1, -40),
	LDX_DW(BPF_REG_1, BPF_REG_6, 32), STX_DW(BPF_REG_10, BPF_REG_1, -32),
	LDX_DW(BPF_REG_1, BPF_REG_6, 40), STX_DW(BPF_REG_10, BPF_REG_1, -24),
	LDX_DW(BPF_REG_1, BPF_REG_6, 48), STX_DW(BPF_REG_10, BPF_REG_1, -16),
	LDX_DW(BPF_REG_1, BPF_REG_6, 56), STX_DW(BPF_REG_10, BPF_REG_1, -8),
	MOV64_IMM(BPF_REG_1, 0), STX_DW(BPF_REG_10, BPF_REG_1, -72),
	MOV64_REG(BPF_REG_1, BPF_REG_10), ADD64_IMM(BPF_REG_1, -64),
	MOV64_IMM(BPF_REG_2, NAME_LEN),
	MOV64_IMM(BPF_REG_3, 0),
	MOV64_REG(BPF_REG_4, BPF_REG_10), ADD64_IMM(BPF_REG_4, -72),
	CALL(BPF_FUNC_kallsyms_lookup_name),
	STX_DW(BPF_REG_6, BPF_REG_0, 72),
	LDX_DW(BPF_REG_1, BPF_REG_10, -72), STX_DW(BPF_REG_6, BPF_REG_1, 64),
	MOV64_IMM(BPF_REG_0, 0),
	EXIT(),
};

/* One name through the loaded program: 0, -ENOENT, or another -errno. */
static int lookup_one(int fd, const char *name, uint64_t *addr,
		      struct errbuf *eb)
{
	struct lookup_ctx ctx;
	uint32_t ret = 0;
	int err;

	memset(&ctx, 0, sizeof(ctx));
	memcpy(ctx.name, name, strlen(name));
	kcall_why("run it once on a context holding \"%s\": the kernel writes the address back into the context",
		  name);
	err = bpf_prog_run_ctx(fd, &ctx, sizeof(ctx), &ret);
	if (err)
		return errbuf_set(eb, err,
				  "cannot run the symbol lookup program: %s (BPF_PROG_TEST_RUN of syscall programs needs 5.14+)",
				  strerror(-err));
	if (ctx.err == -ENOENT) {
		vlog(2, "kallsyms via BPF: no %s", name);
		return -ENOENT;
	}
	if (ctx.err)
		return errbuf_set(eb, (int)ctx.err,
				  "the kernel's kallsyms has no address for %s: %s",
				  name, strerror((int)-ctx.err));
	*addr = ctx.addr;
	vlog(2, "kallsyms via BPF: %s at 0x%llx", name,
	     (unsigned long long)*addr);
	return 0;
}

int ksym_bpf_lookup_after(const char *gate, const char *const *names,
			  unsigned int n, uint64_t *addrs, int *found,
			  struct errbuf *eb)
{
	struct bpf_prog_load_req req = {
		.type = BPF_PROG_TYPE_SYSCALL,
		/* The kernel takes syscall programs only as sleepable. */
		.flags = BPF_F_SLEEPABLE,
		.insns = lookup_prog,
		.insn_cnt = sizeof(lookup_prog) / sizeof(lookup_prog[0]),
		.license = "GPL",
	};
	uint64_t addr;
	unsigned int i;
	int fd, err = 0;

	for (i = 0; i < n; i++)
		if (!names[i][0] || strlen(names[i]) >= NAME_LEN)
			return errbuf_set(eb, -ENAMETOOLONG,
					  "symbol lookup: name '%s' is empty or longer than %d bytes",
					  names[i], NAME_LEN - 1);
	kcall_why("a syscall program of the loader's own (%zu instructions, sleepable, 5.16+) that calls bpf_kallsyms_lookup_name: the kernel's own symbol addresses without reading /proc/kallsyms",
		  req.insn_cnt);
	fd = bpf_prog_load_fd(&req);
	if (fd < 0)
		return errbuf_set(eb, fd,
				  "cannot load the symbol lookup program: %s (syscall programs and bpf_kallsyms_lookup_name need 5.16+)",
				  strerror(-fd));
	if (gate) {
		err = lookup_one(fd, gate, &addr, eb);
		if (err == -ENOENT)
			err = errbuf_set(eb, -EOPNOTSUPP,
					 "the kernel has no %s", gate);
	}
	for (i = 0; i < n && !err; i++) {
		err = lookup_one(fd, names[i], &addrs[i], eb);
		if (found)
			found[i] = !err;
		if (err == -ENOENT && found)
			err = 0;
		else if (err == -ENOENT)
			errbuf_set(eb, err,
				   "the kernel's kallsyms has no address for %s: %s",
				   names[i], strerror(ENOENT));
	}
	/* Needed once: the program is not kept loaded. */
	kcall_close(fd, "the symbol lookup program: needed once");
	return err;
}

int ksym_bpf_lookup(const char *const *names, unsigned int n,
		    uint64_t *addrs, int *found, struct errbuf *eb)
{
	return ksym_bpf_lookup_after(NULL, names, n, addrs, found, eb);
}
