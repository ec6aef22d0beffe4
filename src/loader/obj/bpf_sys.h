/* SPDX-License-Identifier: GPL-2.0 */
/* Thin wrappers over the bpf() system call.  All return -errno on failure. */
#ifndef EXT4DIST_LOADER_OBJ_BPF_SYS_H
#define EXT4DIST_LOADER_OBJ_BPF_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

/* name may be NULL: map and program names only exist from 4.15. */
int bpf_map_create_fd(uint32_t type, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries, uint32_t flags, const char *name);
int bpf_map_lookup(int fd, const void *key, void *value);
int bpf_map_update(int fd, const void *key, const void *value,
		   uint64_t flags);
int bpf_map_next_key(int fd, const void *key, void *next_key);

struct bpf_prog_load_req {
	uint32_t type;
	const struct bpf_insn *insns;
	size_t insn_cnt;
	const char *license;
	uint32_t kern_version;
	const char *name;	/* NULL: no name */
	uint32_t expected_attach_type;	/* kprobe_multi (5.18+), fentry/fexit */
	uint32_t attach_btf_id;		/* tracing: the function's BTF id */
	uint32_t attach_btf_obj_fd;	/* tracing: its module's BTF, 0 vmlinux */
	uint32_t flags;		/* prog_flags: BPF_F_SLEEPABLE for syscall */
	char *log;		/* NULL: no verifier log */
	size_t log_size;
	uint32_t log_level;
};

/* Returns the program fd. */
int bpf_prog_load_fd(const struct bpf_prog_load_req *req);
/*
 * BPF_LINK_CREATE of a kprobe_multi link (5.18+): prog on every function
 * of syms[0..cnt-1] or, when syms is NULL, at addrs[0..cnt-1]; cookies[i]
 * handed to the program for function i; flags BPF_F_KPROBE_MULTI_RETURN
 * for return probes.  syms and addrs are arrays of the kernel's unsigned
 * long (name pointers, addresses), whatever this program's word size.
 * Returns the link fd.
 */
int bpf_link_create_kprobe_multi(int prog_fd, uint32_t flags,
				 const void *syms, const void *addrs,
				 const uint64_t *cookies, uint32_t cnt);
/*
 * BPF_PROG_TEST_RUN of a syscall program (5.14+) on ctx (size bytes, at
 * most 65535), which the kernel writes back; of a raw tracepoint program
 * (5.10+) with no context (NULL, 0).  *retval: the program's r0.
 */
int bpf_prog_run_ctx(int prog_fd, void *ctx, uint32_t size,
		     uint32_t *retval);
/*
 * A tracing program's link (fentry, fexit): BPF_LINK_CREATE with
 * attach_type, else BPF_RAW_TRACEPOINT_OPEN with no name, the only way
 * before BPF_LINK_CREATE took tracing programs in 5.19 (5.10 says
 * EINVAL).
 * Returns the link fd.
 */
int bpf_link_create_tracing(int prog_fd, uint32_t attach_type);
int bpf_raw_tp_open(int prog_fd);
/* BPF_BTF_GET_NEXT_ID (5.4+): the BTF object id after start_id, in *next. */
int bpf_btf_next_id(uint32_t start_id, uint32_t *next);
/* BPF_BTF_GET_FD_BY_ID: an fd of the BTF object. */
int bpf_btf_fd_by_id(uint32_t id);
/* BPF_OBJ_GET_INFO_BY_FD; *len is in/out. */
int bpf_obj_info(int fd, void *info, uint32_t *len);
/*
 * How many times the kernel skipped program prog_fd because it was
 * already running on that CPU (bpf_prog_info's recursion_misses: 5.12+,
 * counted for fentry/fexit from then on and for kprobes from 6.7), in
 * *misses; -ENOTSUP where the kernel's bpf_prog_info has no such field.
 */
int bpf_prog_recursion_misses(int prog_fd, unsigned long long *misses);

#endif
