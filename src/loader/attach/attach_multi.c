// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe_multi links (5.18+): one BPF link puts one program on many kernel
 * functions, armed with one ftrace update for all of them where every
 * kprobe makes its own; the link lives as long as its fd.  Given names,
 * the kernel resolves them in one pass that expands every kernel symbol
 * (ftrace_lookup_symbols, 6.12): given addresses, it skips that pass.
 */
#include "loader/attach/attach.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "loader/kernel/karch.h"
#include "loader/obj/bpf_sys.h"
#include "loader/obj/insn.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

/* Functions in one link: ext4dist puts at most its operations there. */
#define MULTI_MAX 64

/*
 * The question costs nothing: a link on one function whose address array
 * cannot be read.  A kernel with kprobe_multi fails copying it in
 * (-EFAULT) before touching ftrace; one built without CONFIG_FPROBE says
 * -EOPNOTSUPP at once (Debian's 6.1); one before 5.18 does not know the
 * attach type (-EINVAL).  Address 1 is never mapped in user space.
 */
int attach_kprobe_multi_available(struct errbuf *eb)
{
	static const struct bpf_insn ret0[] = {
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	struct bpf_prog_load_req req = {
		.type = BPF_PROG_TYPE_KPROBE,
		.insns = ret0,
		.insn_cnt = 2,
		.license = "GPL",
		.expected_attach_type = BPF_TRACE_KPROBE_MULTI,
	};
	int fd, err;

	kcall_why("does this kernel make kprobe_multi links? first a program of 2 instructions (r0 = 0; exit) loaded for them (expected_attach_type: before 5.18 unknown)");
	fd = bpf_prog_load_fd(&req);
	if (errbuf_nofile(eb, fd, "cannot load the kprobe_multi question's program"))
		return fd;
	if (fd < 0)
		return errbuf_set(eb, fd,
				  "no kprobe_multi links here: loading a kprobe_multi program failed with \"%s\": the kernel does not know the attach type (they need 5.18+ with CONFIG_FPROBE)",
				  strerror(-fd));
	err = attach_kprobe_multi_probe(fd, eb);
	kcall_close(fd, "the kprobe_multi question's program: answered, not needed");
	return err;
}

int attach_kprobe_multi_probe(int prog_fd, struct errbuf *eb)
{
	const uint64_t *unreadable = (const uint64_t *)(uintptr_t)1;
	int fd;

	kcall_why("the question itself: one entry link (cnt 1) on address 1, which cannot be read: EFAULT means the kernel got as far as copying the address (it makes these links), EOPNOTSUPP that it was built without CONFIG_FPROBE, EINVAL that it is before 5.18; nothing is armed either way");
	fd = bpf_link_create_kprobe_multi(prog_fd, 0, NULL, unreadable, NULL, 1);
	if (fd == -EFAULT)
		return 0;
	if (fd >= 0) {
		/* Not expected: some kernel read address 1. */
		kcall_close(fd, "a link the question made, against expectation");
		fd = -EIO;
	}
	if (errbuf_nofile(eb, fd, "cannot make the kprobe_multi question's link"))
		return fd;
	return errbuf_set(eb, fd,
			  "no kprobe_multi links here: a test link on one address that cannot be read was refused with \"%s\" before that address was looked at (they need 5.18+ with CONFIG_FPROBE)",
			  strerror(-fd));
}

/*
 * The kernel reads the address and name arrays as its unsigned long
 * (bpf_kprobe_multi_link_attach, copy_user_syms, 5.18-6.12): 8 bytes on a
 * 64-bit kernel, for a 32-bit program too (compat); 4 on a 32-bit one.
 * Cookies are u64 in the UAPI for every kernel.
 */
static void pack_kernel_words(unsigned char *out,
			      const unsigned long long *addrs,
			      const char *const *names, unsigned int n)
{
	size_t i, word = karch_word();

	for (i = 0; i < n; i++) {
		uint64_t v = addrs ? addrs[i] :
			     names ? (uint64_t)(uintptr_t)names[i] : 0;

		if (word == 8) {
			memcpy(out + 8 * i, &v, 8);
		} else {
			uint32_t w = (uint32_t)v;

			memcpy(out + 4 * i, &w, 4);
		}
	}
}

int attach_kprobe_multi(int prog_fd, enum probe_kind kind,
			const char *const *funcs,
			const unsigned long long *addrs,
			const unsigned long long *cookies, unsigned int n,
			struct probe_link *link, struct errbuf *eb)
{
	const char *what = kind == PROBE_RETURN ? "kretprobe" : "kprobe";
	unsigned char words[MULTI_MAX * 8];
	int fd;

	if (n > MULTI_MAX)
		return errbuf_set(eb, -E2BIG,
				  "kprobe_multi: %u functions, at most %d", n,
				  MULTI_MAX);
	if (addrs)
		pack_kernel_words(words, addrs, NULL, n);
	else
		pack_kernel_words(words, NULL, funcs, n);
	kcall_why("the %s link: program fd %d on %u function%s (first %s) by %s, cookie i = the operation of function i%s; closing the link fd removes them all",
		  what, prog_fd, n, n == 1 ? "" : "s", funcs[0],
		  addrs ? "address (addrs: the kernel skips its symbol lookup)" :
		  "name (syms: the kernel looks each one up)",
		  kind == PROBE_RETURN ? ", BPF_F_KPROBE_MULTI_RETURN: on return" : "");
	fd = bpf_link_create_kprobe_multi(prog_fd,
					  kind == PROBE_RETURN ?
					  BPF_F_KPROBE_MULTI_RETURN : 0,
					  addrs ? NULL : words,
					  addrs ? words : NULL,
					  (const uint64_t *)cookies, n);
	if (errbuf_nofile(eb, fd, "cannot create a %s_multi link", what))
		return fd;
	if (fd < 0)
		return errbuf_set(eb, fd,
				  "cannot create a %s_multi link on %u function%s: %s (kprobe_multi needs 5.18+ with CONFIG_FPROBE)",
				  what, n, n == 1 ? "" : "s", strerror(-fd));
	link->ops = &attach_multi_ops;
	link->perf_fd = fd;
	snprintf(link->event, sizeof(link->event), "%s",
		 kind == PROBE_RETURN ? "return" : "entry");
	vlog(1, "attached %s_multi link on %u function%s (first %s), by %s, link fd %d",
	     what, n, n == 1 ? "" : "s", funcs[0],
	     addrs ? "address" : "name", fd);
	return 0;
}

/* link->event says which of the two links it is: "entry" or "return". */
static void multi_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	(void)ctx;
	if (link->perf_fd >= 0)
		kcall_close(link->perf_fd, strcmp(link->event, "entry") == 0 ?
			    "the kprobe_multi entry link: closing it removes every entry probe at once (entries first: calls in flight still meet their return)" :
			    "the kprobe_multi return link: closing it removes every return probe");
	link->perf_fd = -1;
	link->event[0] = '\0';
}

const struct attach_ops attach_multi_ops = {
	.name = "kprobe_multi",
	.attach = NULL,
	.detach = multi_detach,
};
