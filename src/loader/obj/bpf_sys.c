// SPDX-License-Identifier: GPL-2.0
#include "loader/obj/bpf_sys.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	long ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : (int)ret;
}

static uint64_t ptr_u64(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int bpf_map_create_fd(uint32_t type, uint32_t key_size, uint32_t value_size,
		      uint32_t max_entries, uint32_t flags, const char *name)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	attr.map_flags = flags;
	if (name)
		strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static int map_elem_op(int cmd, int fd, const void *key, const void *value,
		       uint64_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = ptr_u64(key);
	attr.value = ptr_u64(value);
	attr.flags = flags;
	return sys_bpf(cmd, &attr);
}

int bpf_map_lookup(int fd, const void *key, void *value)
{
	return map_elem_op(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);
}

int bpf_map_update(int fd, const void *key, const void *value, uint64_t flags)
{
	return map_elem_op(BPF_MAP_UPDATE_ELEM, fd, key, value, flags);
}

int bpf_map_next_key(int fd, const void *key, void *next_key)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = ptr_u64(key);
	attr.next_key = ptr_u64(next_key);
	return sys_bpf(BPF_MAP_GET_NEXT_KEY, &attr);
}

int bpf_prog_load_fd(const struct bpf_prog_load_req *req)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = req->type;
	attr.insns = ptr_u64(req->insns);
	attr.insn_cnt = (uint32_t)req->insn_cnt;
	attr.license = ptr_u64(req->license);
	attr.kern_version = req->kern_version;
	attr.expected_attach_type = req->expected_attach_type;
	attr.prog_flags = req->flags;
	if (req->log && req->log_size) {
		attr.log_buf = ptr_u64(req->log);
		attr.log_size = (uint32_t)req->log_size;
		attr.log_level = req->log_level;
		req->log[0] = '\0';
	}
	if (req->name)
		strncpy(attr.prog_name, req->name, sizeof(attr.prog_name) - 1);
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

int bpf_link_create_kprobe_multi(int prog_fd, uint32_t flags,
				 const void *syms, const void *addrs,
				 const uint64_t *cookies, uint32_t cnt)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = (uint32_t)prog_fd;
	attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	attr.link_create.kprobe_multi.flags = flags;
	attr.link_create.kprobe_multi.cnt = cnt;
	attr.link_create.kprobe_multi.syms = ptr_u64(syms);
	attr.link_create.kprobe_multi.addrs = ptr_u64(syms ? NULL : addrs);
	attr.link_create.kprobe_multi.cookies = ptr_u64(cookies);
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

int bpf_prog_run_ctx(int prog_fd, void *ctx, uint32_t size,
		     uint32_t *retval)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)prog_fd;
	attr.test.ctx_in = ptr_u64(ctx);
	attr.test.ctx_size_in = size;
	err = sys_bpf(BPF_PROG_TEST_RUN, &attr);
	if (!err)
		*retval = attr.test.retval;
	return err;
}

int bpf_obj_info(int fd, void *info, uint32_t *len)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = *len;
	attr.info.info = ptr_u64(info);
	err = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
	if (!err)
		*len = attr.info.info_len;
	return err;
}
