/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbol addresses asked of the kernel itself through BPF (5.16+),
 * without reading /proc/kallsyms.
 */
#ifndef EXT4DIST_LOADER_KSYM_KSYM_BPF_H
#define EXT4DIST_LOADER_KSYM_KSYM_BPF_H

#include <stdint.h>

#include "loader/util/errbuf.h"

/*
 * Looks up names[0..n-1] with a small syscall program of the loader's own
 * (loaded, run once per name through BPF_PROG_TEST_RUN, closed), which
 * calls bpf_kallsyms_lookup_name.  Fills addrs[] on success; otherwise
 * -errno with the reason in eb (-ENOENT: a name the kernel does not know;
 * -EINVAL or -EPERM from a kernel without syscall programs or the helper,
 * or one that hides addresses).  With found (may be NULL), a name the
 * kernel does not know is no error: found[i] says whether names[i] was.
 * A name "module:symbol" is looked for in that module alone.
 */
int ksym_bpf_lookup(const char *const *names, unsigned int n,
		    uint64_t *addrs, int *found, struct errbuf *eb);
/*
 * The same, once the kernel has said it knows the symbol gate (NULL:
 * none asked): -EOPNOTSUPP, no name looked up, when it does not.
 */
int ksym_bpf_lookup_after(const char *gate, const char *const *names,
			  unsigned int n, uint64_t *addrs, int *found,
			  struct errbuf *eb);

#endif
