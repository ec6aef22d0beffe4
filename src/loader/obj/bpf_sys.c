// SPDX-License-Identifier: GPL-2.0
#include "loader/obj/bpf_sys.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader/util/kcall.h"

/* "NULL" or "0x..." as strace prints a pointer. */
static const char *ptr_text(uint64_t p, char *buf, size_t size)
{
	if (!p)
		return "NULL";
	snprintf(buf, size, "0x%llx", (unsigned long long)p);
	return buf;
}

static const char *map_type_text(uint32_t t, char *buf, size_t size)
{
	static const char *const names[] = {
		[BPF_MAP_TYPE_HASH] = "BPF_MAP_TYPE_HASH",
		[BPF_MAP_TYPE_ARRAY] = "BPF_MAP_TYPE_ARRAY",
		[BPF_MAP_TYPE_PERCPU_HASH] = "BPF_MAP_TYPE_PERCPU_HASH",
		[BPF_MAP_TYPE_PERCPU_ARRAY] = "BPF_MAP_TYPE_PERCPU_ARRAY",
	};

	if (t < sizeof(names) / sizeof(names[0]) && names[t])
		return names[t];
	snprintf(buf, size, "%u", t);
	return buf;
}

static void narrate_map_create(const union bpf_attr *a, long ret)
{
	char t[32];

	kcall_log(1, ret, "bpf(BPF_MAP_CREATE, {map_type=%s, key_size=%u, value_size=%u, max_entries=%u, map_flags=%u, map_name=\"%s\"}, %zu)",
		  map_type_text(a->map_type, t, sizeof(t)), a->key_size,
		  a->value_size, a->max_entries, a->map_flags, a->map_name,
		  sizeof(*a));
}

/* Element calls run every interval: -vv. */
static void narrate_elem(const char *cmd, const union bpf_attr *a, long ret)
{
	char k[24], v[24];

	kcall_log(2, ret, "bpf(%s, {map_fd=%u, key=%s, %s=%s, flags=%s}, %zu)",
		  cmd, a->map_fd, ptr_text(a->key, k, sizeof(k)),
		  strcmp(cmd, "BPF_MAP_GET_NEXT_KEY") ? "value" : "next_key",
		  ptr_text(a->value, v, sizeof(v)),
		  a->flags == BPF_ANY ? "BPF_ANY" : "BPF_EXIST", sizeof(*a));
}

static const char *attach_type_text(uint32_t t)
{
	switch (t) {
	case BPF_TRACE_KPROBE_MULTI:
		return "BPF_TRACE_KPROBE_MULTI";
	case BPF_TRACE_FENTRY:
		return "BPF_TRACE_FENTRY";
	case BPF_TRACE_FEXIT:
		return "BPF_TRACE_FEXIT";
	default:
		return "?";
	}
}

static void narrate_prog_load(const union bpf_attr *a, long ret)
{
	const char *type = a->prog_type == BPF_PROG_TYPE_KPROBE ?
			   "BPF_PROG_TYPE_KPROBE" :
			   a->prog_type == BPF_PROG_TYPE_SYSCALL ?
			   "BPF_PROG_TYPE_SYSCALL" :
			   a->prog_type == BPF_PROG_TYPE_TRACING ?
			   "BPF_PROG_TYPE_TRACING" :
			   a->prog_type == BPF_PROG_TYPE_RAW_TRACEPOINT ?
			   "BPF_PROG_TYPE_RAW_TRACEPOINT" :
			   a->prog_type == BPF_PROG_TYPE_TRACEPOINT ?
			   "BPF_PROG_TYPE_TRACEPOINT" : "?";
	char insns[24], log[24], eat[96] = "";

	/* strace names 0 after the first enum value: left out then. */
	if (a->expected_attach_type && a->attach_btf_id)
		snprintf(eat, sizeof(eat),
			 ", expected_attach_type=%s, attach_btf_id=%u",
			 attach_type_text(a->expected_attach_type),
			 a->attach_btf_id);
	else if (a->expected_attach_type)
		snprintf(eat, sizeof(eat), ", expected_attach_type=%s",
			 attach_type_text(a->expected_attach_type));
	kcall_log(1, ret, "bpf(BPF_PROG_LOAD, {prog_type=%s, insn_cnt=%u, insns=%s, license=\"%s\", log_level=%u, log_size=%u, log_buf=%s, kern_version=KERNEL_VERSION(%u, %u, %u), prog_flags=%s, prog_name=\"%s\"%s}, %zu)",
		  type, a->insn_cnt, ptr_text(a->insns, insns, sizeof(insns)),
		  (const char *)(uintptr_t)a->license, a->log_level,
		  a->log_size, ptr_text(a->log_buf, log, sizeof(log)),
		  a->kern_version >> 16, (a->kern_version >> 8) & 0xff,
		  a->kern_version & 0xff,
		  a->prog_flags == BPF_F_SLEEPABLE ? "BPF_F_SLEEPABLE" :
		  a->prog_flags ? "?" : "0", a->prog_name, eat, sizeof(*a));
}

static void narrate_link_create(const union bpf_attr *a, long ret)
{
	char syms[24], addrs[24], cookies[24];

	if (a->link_create.attach_type != BPF_TRACE_KPROBE_MULTI) {
		kcall_log(1, ret, "bpf(BPF_LINK_CREATE, {link_create={prog_fd=%u, target_fd=%u, attach_type=%s, flags=%u}}, %zu)",
			  a->link_create.prog_fd, a->link_create.target_fd,
			  attach_type_text(a->link_create.attach_type),
			  a->link_create.flags, sizeof(*a));
		return;
	}

	kcall_log(1, ret, "bpf(BPF_LINK_CREATE, {link_create={prog_fd=%u, target_fd=%u, attach_type=BPF_TRACE_KPROBE_MULTI, flags=%u, kprobe_multi={flags=%s, cnt=%u, syms=%s, addrs=%s, cookies=%s}}}, %zu)",
		  a->link_create.prog_fd, a->link_create.target_fd,
		  a->link_create.flags,
		  a->link_create.kprobe_multi.flags ?
		  "BPF_F_KPROBE_MULTI_RETURN" : "0",
		  a->link_create.kprobe_multi.cnt,
		  ptr_text(a->link_create.kprobe_multi.syms, syms, sizeof(syms)),
		  ptr_text(a->link_create.kprobe_multi.addrs, addrs,
			   sizeof(addrs)),
		  ptr_text(a->link_create.kprobe_multi.cookies, cookies,
			   sizeof(cookies)), sizeof(*a));
}

/* The attr as it was handed over: the kernel writes some of it back. */
static void narrate(int cmd, const union bpf_attr *a, long ret)
{
	char p[24];

	switch (cmd) {
	case BPF_MAP_CREATE:
		narrate_map_create(a, ret);
		break;
	case BPF_MAP_LOOKUP_ELEM:
		narrate_elem("BPF_MAP_LOOKUP_ELEM", a, ret);
		break;
	case BPF_MAP_UPDATE_ELEM:
		narrate_elem("BPF_MAP_UPDATE_ELEM", a, ret);
		break;
	case BPF_MAP_GET_NEXT_KEY:
		narrate_elem("BPF_MAP_GET_NEXT_KEY", a, ret);
		break;
	case BPF_PROG_LOAD:
		narrate_prog_load(a, ret);
		break;
	case BPF_LINK_CREATE:
		narrate_link_create(a, ret);
		break;
	case BPF_PROG_TEST_RUN:
		kcall_log(1, ret, "bpf(BPF_PROG_TEST_RUN, {test={prog_fd=%u, ctx_size_in=%u, ctx_in=%s}}, %zu)",
			  a->test.prog_fd, a->test.ctx_size_in,
			  ptr_text(a->test.ctx_in, p, sizeof(p)), sizeof(*a));
		break;
	case BPF_RAW_TRACEPOINT_OPEN:
		kcall_log(1, ret, "bpf(BPF_RAW_TRACEPOINT_OPEN, {raw_tracepoint={name=NULL, prog_fd=%u}}, %zu)",
			  a->raw_tracepoint.prog_fd, sizeof(*a));
		break;
	case BPF_BTF_GET_NEXT_ID:
		kcall_log(2, ret, "bpf(BPF_BTF_GET_NEXT_ID, {start_id=%u}, %zu)",
			  a->start_id, sizeof(*a));
		break;
	case BPF_BTF_GET_FD_BY_ID:
		kcall_log(2, ret, "bpf(BPF_BTF_GET_FD_BY_ID, {btf_id=%u}, %zu)",
			  a->btf_id, sizeof(*a));
		break;
	case BPF_OBJ_GET_INFO_BY_FD:
		kcall_log(1, ret, "bpf(BPF_OBJ_GET_INFO_BY_FD, {info={bpf_fd=%u, info_len=%u, info=%s}}, %zu)",
			  a->info.bpf_fd, a->info.info_len,
			  ptr_text(a->info.info, p, sizeof(p)), sizeof(*a));
		break;
	default:
		kcall_log(1, ret, "bpf(%d, ..., %zu)", cmd, sizeof(*a));
	}
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	union bpf_attr in = *attr;
	long ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));
	int err = ret < 0 ? -errno : (int)ret;

	narrate(cmd, &in, err);
	return err;
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
	attr.attach_btf_id = req->attach_btf_id;
	attr.attach_btf_obj_fd = req->attach_btf_obj_fd;
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

int bpf_link_create_tracing(int prog_fd, uint32_t attach_type)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = (uint32_t)prog_fd;
	attr.link_create.attach_type = attach_type;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

int bpf_raw_tp_open(int prog_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = (uint32_t)prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

int bpf_btf_next_id(uint32_t start_id, uint32_t *next)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.start_id = start_id;
	err = sys_bpf(BPF_BTF_GET_NEXT_ID, &attr);
	if (!err)
		*next = attr.next_id;
	return err;
}

int bpf_btf_fd_by_id(uint32_t id)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf_id = id;
	return sys_bpf(BPF_BTF_GET_FD_BY_ID, &attr);
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

int bpf_prog_recursion_misses(int prog_fd, unsigned long long *misses)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	int err;

	memset(&info, 0, sizeof(info));
	err = bpf_obj_info(prog_fd, &info, &len);
	if (err)
		return err;
	/* A kernel that knows less fills less, and says how much. */
	if (len < offsetof(struct bpf_prog_info, recursion_misses) +
		  sizeof(info.recursion_misses))
		return -ENOTSUP;
	*misses = info.recursion_misses;
	return 0;
}
