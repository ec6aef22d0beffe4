/*
 * kprobe_multi links (5.18+): one BPF link puts one program on many kernel
 * functions.  Arming them costs one pass over the kernel's symbols for all
 * of them (ftrace_lookup_symbols), where every kprobe looks its symbol up
 * on its own (a linear scan in 6.1); the link lives as long as its fd.
 */
#include "loader/attach.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "loader/bpf_sys.h"
#include "loader/vlog.h"

int attach_kprobe_multi(int prog_fd, enum probe_kind kind,
			const char *const *funcs,
			const unsigned long long *cookies, unsigned int n,
			int *link_fd, struct errbuf *eb)
{
	const char *what = kind == PROBE_RETURN ? "kretprobe" : "kprobe";
	int fd;

	fd = bpf_link_create_kprobe_multi(prog_fd,
					  kind == PROBE_RETURN ?
					  BPF_F_KPROBE_MULTI_RETURN : 0,
					  funcs, (const uint64_t *)cookies, n);
	if (fd < 0)
		return errbuf_set(eb, fd,
				  "cannot create a %s_multi link on %u function%s: %s (kprobe_multi needs 5.18+ with CONFIG_FPROBE)",
				  what, n, n == 1 ? "" : "s", strerror(-fd));
	*link_fd = fd;
	vlog(1, "attached %s_multi link on %u function%s (first %s), link fd %d",
	     what, n, n == 1 ? "" : "s", funcs[0], fd);
	return 0;
}
