/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF objects, as bpf() knows them: a module's is named to
 * the verifier by an fd of it (attach_btf_obj_fd, 5.11+).
 */
#ifndef EXT4DIST_LOADER_BTF_BTF_KOBJ_H
#define EXT4DIST_LOADER_BTF_BTF_KOBJ_H

#include "loader/util/errbuf.h"

/*
 * An fd of the kernel BTF object called name ("ext4"): each BTF object
 * id in turn (BPF_BTF_GET_NEXT_ID, BPF_BTF_GET_FD_BY_ID), its name asked
 * with BPF_OBJ_GET_INFO_BY_FD (names 5.11+).  -ENOENT when none has it.
 */
int btf_kobj_fd(const char *name, struct errbuf *eb);

#endif
