/*
 * Kernel symbol addresses asked of the kernel itself through BPF (5.16+),
 * without reading /proc/kallsyms.
 */
#ifndef EXT4DIST_KSYM_BPF_H
#define EXT4DIST_KSYM_BPF_H

#include <stdint.h>

#include "loader/elf_obj.h"
#include "loader/errbuf.h"
#include "loader/obj_load.h"

/*
 * Looks up n (at most KSYM_LOOKUP_MAX) names with the object's
 * "syscall/ksym_lookup" program: loaded, run once, closed.  Fills addrs[]
 * on success; otherwise -errno with the reason in eb (-ENOENT: a name the
 * kernel does not know; -EINVAL or -EPERM from a kernel without syscall
 * programs or bpf_kallsyms_lookup_name, or one that hides addresses).
 */
int ksym_bpf_lookup(struct bpf_obj *obj, const struct obj_load_opts *lo,
		    struct obj_load_state *st, const char *const *names,
		    unsigned int n, uint64_t *addrs, struct errbuf *eb);

#endif
