// SPDX-License-Identifier: GPL-2.0
#include "loader/obj/obj_load.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/kernel/privileges.h"
#include "loader/obj/bpf_sys.h"
#include "loader/obj/map_value.h"
#include "loader/obj/nops.h"
#include "loader/util/byteorder.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define LOG_MIN ((size_t)64 << 10)
#define LOG_MAX ((size_t)16 << 20)

const char *map_type_name(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH:
		return "hash";
	case BPF_MAP_TYPE_ARRAY:
		return "array";
	case BPF_MAP_TYPE_PERCPU_HASH:
		return "percpu_hash";
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		return "percpu_array";
	default:
		return "other";
	}
}

/*
 * Finds p's plain 64-bit constants once per instruction array: a run
 * patches a dozen placeholders, and the object keeps every path's
 * programs (some 13,000 instructions), of which a few hundred are
 * ld_imm64.  -ENOMEM leaves p without an index (then scanned whole).
 */
static int imm64_index(struct obj_prog *p)
{
	size_t j, n = 0;
	uint32_t *at;

	if (p->imm64_at && p->imm64_of == p->insns &&
	    p->imm64_of_cnt == p->insn_cnt)
		return 0;
	free(p->imm64_at);
	p->nr_imm64 = 0;
	/* At most one in two instructions: trimmed once counted. */
	p->imm64_at = malloc((p->insn_cnt / 2 + 1) * sizeof(*p->imm64_at));
	if (!p->imm64_at)
		return -ENOMEM;
	for (j = 0; j + 1 < p->insn_cnt; j++)
		if (p->insns[j].code == LD_IMM64) {
			if (!p->insns[j].src_reg)
				p->imm64_at[n++] = (uint32_t)j;
			j++;	/* the second half is not an instruction */
		}
	at = realloc(p->imm64_at, (n ? n : 1) * sizeof(*at));
	if (at)
		p->imm64_at = at;
	p->nr_imm64 = n;
	p->imm64_of = p->insns;
	p->imm64_of_cnt = p->insn_cnt;
	return 0;
}

/* Patches in[0..1] if it is a plain ld_imm64 of placeholder: 1, else 0. */
static int patch_one(struct bpf_insn *in, uint64_t placeholder,
		     uint64_t value)
{
	uint64_t imm;

	if (in->code != LD_IMM64 || in->src_reg)
		return 0;
	imm = (uint64_t)(uint32_t)in[1].imm << 32 | (uint32_t)in->imm;
	if (imm != placeholder)
		return 0;
	in->imm = (int32_t)(uint32_t)value;
	in[1].imm = (int32_t)(uint32_t)(value >> 32);
	return 1;
}

int bpf_obj_patch_imm64(struct bpf_obj *obj, uint64_t placeholder,
			uint64_t value)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < obj->nr_progs; i++) {
		struct obj_prog *p = &obj->progs[i];

		if (imm64_index(p) == 0) {
			for (j = 0; j < p->nr_imm64; j++)
				n += patch_one(&p->insns[p->imm64_at[j]],
					       placeholder, value);
			continue;
		}
		for (j = 0; j + 1 < p->insn_cnt; j++) {
			if (p->insns[j].code != LD_IMM64)
				continue;
			n += patch_one(&p->insns[j], placeholder, value);
			j++;	/* the second half is not an instruction */
		}
	}
	return n;
}

/*
 * The opcode of the instructions of w's kind (for INSN_PATCH_DW_OFF the
 * loads; its stores are BPF_STX's).
 */
static uint8_t patch_code(const struct bpf_insn_patch *w)
{
	return w->kind == INSN_PATCH_W_OFF ? BPF_LDX | BPF_MEM | BPF_W :
	       w->kind == INSN_PATCH_DW_OFF ? BPF_LDX | BPF_MEM | BPF_DW :
	       (uint8_t)(BPF_ALU64 | w->op | BPF_K);
}

/* Whether in is one of w's kind holding its placeholder. */
static int patch_matches(const struct bpf_insn *in,
			 const struct bpf_insn_patch *w)
{
	int kind = in->code == patch_code(w) ||
		   (w->kind == INSN_PATCH_DW_OFF &&
		    in->code == (BPF_STX | BPF_MEM | BPF_DW));

	return kind && (w->kind == INSN_PATCH_ALU64_IMM ? in->imm : in->off) ==
		       w->placeholder;
}

int bpf_obj_patch_list(struct bpf_obj *obj, const struct bpf_insn_patch *w,
		       size_t nw)
{
	unsigned char asked[256] = { 0 };
	size_t i, j, k;
	int n = 0;

	/* Most instructions are of no kind asked: one look each. */
	for (k = 0; k < nw; k++) {
		asked[patch_code(&w[k])] = 1;
		if (w[k].kind == INSN_PATCH_DW_OFF)
			asked[BPF_STX | BPF_MEM | BPF_DW] = 1;
	}
	for (i = 0; i < obj->nr_progs; i++) {
		struct obj_prog *p = &obj->progs[i];

		for (j = 0; j < p->insn_cnt; j++) {
			struct bpf_insn *in = &p->insns[j];

			for (k = 0; asked[in->code] && k < nw; k++) {
				if (!patch_matches(in, &w[k]))
					continue;
				if (w[k].kind == INSN_PATCH_ALU64_IMM)
					in->imm = w[k].value;
				else
					in->off = (int16_t)w[k].value;
				n++;
				break;
			}
			if (in->code == LD_IMM64)
				j++;	/* its second half is not an instruction */
		}
	}
	return n;
}

int bpf_obj_patch_off16(struct bpf_obj *obj, int16_t placeholder,
			int16_t value)
{
	const struct bpf_insn_patch w = {
		INSN_PATCH_W_OFF, 0, placeholder, value
	};

	return bpf_obj_patch_list(obj, &w, 1);
}

int bpf_obj_patch_dw_off(struct bpf_obj *obj, int16_t placeholder,
			 int16_t value)
{
	const struct bpf_insn_patch w = {
		INSN_PATCH_DW_OFF, 0, placeholder, value
	};

	return bpf_obj_patch_list(obj, &w, 1);
}

int bpf_obj_patch_alu64_imm(struct bpf_obj *obj, uint8_t op,
			    int32_t placeholder, int32_t value)
{
	const struct bpf_insn_patch w = {
		INSN_PATCH_ALU64_IMM, op, placeholder, value
	};

	return bpf_obj_patch_list(obj, &w, 1);
}

/*
 * The type to try when the kernel refuses one with EINVAL: per-CPU arrays
 * arrived in 4.6.  0 = no fallback.  (Programs that count into a plain
 * array must add atomically: every CPU shares it.)
 */
static uint32_t fallback_type(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY ? BPF_MAP_TYPE_ARRAY : 0;
}

/* --pretend=no-percpu: as a kernel before 4.6. */
static uint32_t forced_type(uint32_t type, const struct obj_load_opts *o)
{
	return o->no_percpu && type == BPF_MAP_TYPE_PERCPU_ARRAY ?
	       BPF_MAP_TYPE_ARRAY : type;
}

static int create_one(struct obj_map *m, const struct obj_load_opts *o,
		      struct obj_load_state *st, struct errbuf *eb)
{
	uint32_t type = forced_type(m->def.type, o);
	const char *name;
	int fd;

	if (type != m->def.type)
		vlog(1, "map %s: %s taken as %s, as on a kernel without it", m->name,
		     map_type_name(m->def.type), map_type_name(type));
	for (;;) {
		name = st->names_ok ? m->name : NULL;
		kcall_why("map %s of the object's maps section: the fd returned goes into every instruction that names the map%s",
			  m->name, name ? "" :
			  " (no map_name: names arrived in 4.15)");
		fd = bpf_map_create_fd(type, m->def.key_size,
				       m->def.value_size, m->def.max_entries,
				       m->def.map_flags, name);
		/* Before 4.15 a name is an unknown attribute: E2BIG/EINVAL. */
		if (fd < 0 && name && (fd == -E2BIG || fd == -EINVAL)) {
			st->names_ok = 0;
			vlog(1, "map %s: kernel refused a map name (%s), retrying without names (before 4.15)",
			     m->name, strerror(-fd));
			continue;
		}
		if (fd == -EINVAL && fallback_type(type)) {
			vlog(1, "map %s: type %s refused (EINVAL), falling back to %s",
			     m->name, map_type_name(type),
			     map_type_name(fallback_type(type)));
			type = fallback_type(type);
			continue;
		}
		break;
	}
	if (fd < 0) {
		if (errbuf_nofile(eb, fd, "cannot create BPF map %s", m->name))
			return fd;
		if (fd == -EPERM)
			return errbuf_set(eb, fd,
					  "cannot create BPF map %s: %s (needs root or CAP_BPF+CAP_PERFMON; on kernels before 5.11 also a large enough RLIMIT_MEMLOCK)",
					  m->name, strerror(-fd));
		return errbuf_set(eb, fd,
				  "cannot create BPF map %s (%s, key %u, value %u, %u entries): %s",
				  m->name, map_type_name(type), m->def.key_size,
				  m->def.value_size, m->def.max_entries,
				  strerror(-fd));
	}
	m->fd = fd;
	m->def.type = type;
	vlog(1, "map %s created: type %s, key %u bytes, value %u bytes, %u entries, fd %d",
	     m->name, map_type_name(type), m->def.key_size, m->def.value_size,
	     m->def.max_entries, fd);
	return 0;
}

static int skipped(const struct obj_load_opts *o, const char *name)
{
	const char *const *s;

	for (s = o->skip_maps; s && *s; s++)
		if (strcmp(*s, name) == 0)
			return 1;
	return 0;
}

int bpf_obj_create_maps(struct bpf_obj *obj, const struct obj_load_opts *o,
			struct obj_load_state *st, struct errbuf *eb)
{
	size_t i;
	int err;

	if (obj->foreign)
		return errbuf_set(eb, -ENOEXEC,
				  "the BPF object is %s-endian and this kernel %s-endian: it cannot be loaded here",
				  HOST_LITTLE_ENDIAN ? "big" : "little",
				  HOST_LITTLE_ENDIAN ? "little" : "big");
	st->names_ok = !o->no_names;
	if (o->no_names)
		vlog(1, "map and program names off, as before 4.15");
	for (i = 0; i < obj->nr_maps; i++) {
		if (obj->maps[i].fd >= 0 || skipped(o, obj->maps[i].name))
			continue;
		err = create_one(&obj->maps[i], o, st, eb);
		if (err)
			return err;
	}
	return 0;
}

void bpf_obj_reloc_insn(const struct bpf_obj *obj, const struct obj_reloc *r,
			const struct bpf_insn in[2], struct bpf_insn out[2])
{
	out[0] = in[0];
	out[1] = in[1];
	/* "this ld_imm64 loads the map whose fd is imm" (BPF_PSEUDO_MAP_FD). */
	out[0].src_reg = BPF_PSEUDO_MAP_FD;
	out[0].imm = obj->maps[r->map].fd;
	out[1].imm = 0;
}

static int value_map(const struct obj_load_opts *o, const struct obj_map *m)
{
	const char *const *v;

	if (m->def.type != BPF_MAP_TYPE_ARRAY || m->def.max_entries != 1)
		return 0;
	for (v = o->value_maps; v && *v; v++)
		if (strcmp(*v, m->name) == 0)
			return 1;
	return 0;
}

/*
 * Whether m's lookups are read by address instead: asked of the kernel
 * once, with the first such map.
 */
static int read_by_address(const struct obj_load_opts *o,
			   struct obj_load_state *st, const struct obj_map *m,
			   struct errbuf *eb)
{
	int yes;

	if (!value_map(o, m))
		return 0;
	if (!st->map_value && o->no_map_value) {
		st->map_value = -1;
		vlog(1, "map values by address (BPF_PSEUDO_MAP_VALUE): not asked, as on a kernel before 5.2: the lookups stay");
	}
	if (!st->map_value) {
		yes = map_value_probe(m->fd);
		if (errbuf_nofile(eb, yes, "cannot ask whether the kernel reads map values by address"))
			return yes;
		st->map_value = yes ? 1 : -1;
		vlog(1, "map values by address (BPF_PSEUDO_MAP_VALUE): %s",
		     yes ? "taken: a one-entry map's lookup of key 0 reads the value at its address, no call" :
		     "refused (a kernel before 5.2): the lookups stay");
	}
	return st->map_value > 0;
}

static int apply_relocs(struct bpf_obj *obj, struct obj_prog *p,
			const struct obj_load_opts *o,
			struct obj_load_state *st, struct errbuf *eb)
{
	size_t i;
	int by_addr, rewritten = 0, n;

	for (i = 0; i < p->nr_relocs; i++) {
		struct bpf_insn *in = &p->insns[p->relocs[i].insn];
		struct obj_map *m = &obj->maps[p->relocs[i].map];

		if (m->fd < 0)
			return errbuf_set(eb, -EBADF,
					  "%s: map %s was not created before the program",
					  p->section, m->name);
		by_addr = read_by_address(o, st, m, eb);
		if (by_addr < 0)
			return by_addr;
		if (by_addr && map_value_rewrite(p, p->relocs[i].insn, m->fd)) {
			vlog(2, "%s: instruction %zu now loads the address of map %s's value (fd %d): its lookup's call is a jump by 0",
			     p->section, p->relocs[i].insn, m->name, m->fd);
			rewritten = 1;
			continue;
		}
		bpf_obj_reloc_insn(obj, &p->relocs[i], in, in);
		vlog(2, "%s: instruction %zu now loads map %s (fd %d)",
		     p->section, p->relocs[i].insn, m->name, m->fd);
	}
	if (rewritten) {
		n = map_value_drop_keys(p, obj->maps);
		vlog(2, "%s: %d instruction%s of the keys of lookups read by address now jump%s by 0 (nothing else reads those stack bytes)",
		     p->section, n, n == 1 ? "" : "s", n == 1 ? "s" : "");
	}
	return 0;
}

/* The kernel's internal ENOTSUPP (include/linux/errno.h), not ENOTSUP. */
#define ENOTSUPP_KERNEL 524

/*
 * Loads with the verifier log on, growing the buffer until it fits.
 * *no_room: the size no memory was left for (then -ENOMEM), else 0.
 */
static int load_with_log(struct bpf_prog_load_req *req,
			 struct obj_load_state *st, const char *why,
			 uint32_t level, size_t *no_room)
{
	size_t size = LOG_MIN;
	char *log = NULL;
	int fd;

	*no_room = 0;
	for (;;) {
		char *nl = realloc(log, size);

		if (!nl) {
			free(log);
			*no_room = size;
			return -ENOMEM;
		}
		log = nl;
		/* What the kernel does not write stays defined (valgrind). */
		memset(log, 0, size);
		req->log = log;
		req->log_size = size;
		req->log_level = level;
		kcall_why("%s, with a %zu-byte buffer for the verifier's log (log_level %u: %s)%s",
			  why, size, level, level == 2 ?
			  "every state of its walk, 5.2+" : "what it found",
			  size > LOG_MIN ? "; the last buffer was too small (ENOSPC)" : "");
		fd = bpf_prog_load_fd(req);
		/* Level 2 (every state of the walk) arrived in 5.2. */
		if (fd == -EINVAL && level == 2 && !log[0]) {
			level = 1;
			continue;
		}
		if (fd != -ENOSPC || size >= LOG_MAX)
			break;
		size *= 4;
	}
	free(st->verifier_log);
	st->verifier_log = log;
	return fd;
}

/*
 * What the kernel made of p: its id and tag, sizes after the verifier
 * and the JIT, how many instructions the verifier walked.
 * BPF_OBJ_GET_INFO_BY_FD arrived in 4.13; verified_insns in 5.16 (0
 * before).  A kernel with a shorter bpf_prog_info fills what it knows.
 */
static void prog_kinfo(struct obj_prog *p)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&p->kinfo, 0, sizeof(p->kinfo));
	memset(&info, 0, sizeof(info));
	kcall_why("what the kernel made of program %s (fd %d): its id, its tag, its size after the verifier and the JIT",
		  p->section, p->fd);
	if (bpf_obj_info(p->fd, &info, &len))
		return;
	p->kinfo.known = 1;
	p->kinfo.id = info.id;
	memcpy(p->kinfo.tag, info.tag, sizeof(p->kinfo.tag));
	p->kinfo.xlated_len = info.xlated_prog_len;
	p->kinfo.jited_len = info.jited_prog_len;
	if (len >= offsetof(struct bpf_prog_info, verified_insns) +
		   sizeof(info.verified_insns))
		p->kinfo.verified_insns = info.verified_insns;
}

static const char *jit_text(const struct obj_prog *p, char *buf, size_t size)
{
	buf[0] = '\0';
	if (p->kinfo.jited_len)
		snprintf(buf, size, ", JIT %u bytes", p->kinfo.jited_len);
	return buf;
}

const char *bpf_tag_text(const uint8_t tag[8], char *buf, size_t size)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < 8 && 2 * i + 2 < size; i++)
		snprintf(buf + 2 * i, size - 2 * i, "%02x", tag[i]);
	return buf;
}

/*
 * The copy of p handed to the kernel: without its jumps by 0 (nops.h),
 * *sent NULL where p goes as it is (none to drop, or code the copy
 * cannot follow: the verifier says what it makes of that).
 */
static int compacted(struct obj_prog *p, struct bpf_insn **sent,
		     struct errbuf *eb)
{
	struct bpf_insn *c;
	long n;

	*sent = NULL;
	p->sent_cnt = p->insn_cnt;
	c = malloc((p->insn_cnt ? p->insn_cnt : 1) * sizeof(*c));
	if (!c)
		goto no_memory;
	n = nops_compact(p->insns, p->insn_cnt, c, NULL);
	if (n == -ENOMEM)
		goto no_memory;
	if (n < 0 || (size_t)n == p->insn_cnt) {
		if (n < 0)
			vlog(1, "%s: sent with its jumps by 0: %s", p->section,
			     n == -ENOTSUP ? "it calls a function of its own, whose offsets the copy would not follow" :
			     "a jump of it lands outside it");
		free(c);
		return 0;
	}
	vlog(2, "%s: %zu jumps by 0 dropped before the verifier: %ld instructions sent",
	     p->section, p->insn_cnt - (size_t)n, n);
	*sent = c;
	p->sent_cnt = (size_t)n;
	return 0;
no_memory:
	free(c);
	return errbuf_set(eb, -ENOMEM,
			  "out of memory for a copy of BPF program %s",
			  p->section);
}

/* Through the verifier: the program's fd, or -errno with eb set. */
static int load_prog(const struct obj_prog *p, const struct obj_load_opts *o,
		     struct obj_load_state *st, struct bpf_prog_load_req *req,
		     struct errbuf *eb)
{
	size_t no_room = 0;
	int fd;

	/* First without a log (cheaper), then again to explain a refusal. */
	if (p->tracing)
		kcall_why("program %s: %zu instructions, patched and relocated, through the verifier, for the function of BTF id %u in %s (attach_btf_obj_fd %d); the license for GPL-only helpers",
			  p->section, req->insn_cnt, p->attach_btf_id,
			  p->attach_btf_obj_fd > 0 ? "its module's BTF" :
			  "vmlinux's BTF", p->attach_btf_obj_fd > 0 ?
			  p->attach_btf_obj_fd : 0);
	else if (p->tracepoint)
		kcall_why("program %s: %zu instructions, patched and relocated, through the verifier, for tracepoint %s:%s (its context is the event's record); the license for GPL-only helpers",
			  p->section, req->insn_cnt, p->target, p->variant);
	else
		kcall_why("program %s: %zu instructions, patched and relocated, through the verifier%s; the license for GPL-only helpers, kern_version checked against the running kernel's before 5.0",
			  p->section, req->insn_cnt, p->multi ?
			  ", for kprobe_multi links (expected_attach_type, 5.18+)" : "");
	if (o->log_always)
		fd = load_with_log(req, st, "the same, for --verifier-log",
				   o->log_level ? o->log_level : 2, &no_room);
	else
		fd = bpf_prog_load_fd(req);
	if (!o->log_always && (fd == -EINVAL || fd == -EACCES))
		fd = load_with_log(req, st, "the same program again, to say why it was refused",
				   o->log_level ? o->log_level : 1, &no_room);
	if (no_room)
		return errbuf_set(eb, -ENOMEM,
				  "out of memory for the verifier's log of BPF program %s (%zu bytes)",
				  p->section, no_room);
	if (errbuf_nofile(eb, fd, "cannot load BPF program %s", p->section))
		return fd;
	if (fd < 0) {
		/*
		 * EPERM is also what a kernel says that forbids the program
		 * to root: this project's build host (6.18, with ftrace and
		 * its direct calls, and BPF among its security modules)
		 * refuses fentry/fexit programs so before its verifier runs,
		 * a security module's hook the likely cause.  No capability
		 * would help there.
		 */
		if (fd == -EPERM)
			return errbuf_set(eb, fd,
					  "cannot load BPF program %s: %s (%s)",
					  p->section, strerror(-fd),
					  privileges_check() == 0 ?
					  "this process has the capabilities: the kernel refuses it for another reason, a security module, lockdown or how it was built" :
					  "needs root or CAP_BPF+CAP_PERFMON");
		/*
		 * The verifier passed it; the JIT could not compile one of
		 * its instructions (32-bit ARM's: no 64-bit division, no
		 * atomic add) and the kernel would not interpret it instead
		 * (6.1 says ENOTSUPP, 5.10 falls back to its interpreter).
		 */
		if (fd == -ENOTSUPP_KERNEL)
			return errbuf_set(eb, fd,
					  "the kernel's BPF JIT cannot compile BPF program %s (error 524, ENOTSUPP: the verifier accepted it, but this kernel's JIT lacks one of its instructions and will not interpret it instead); with net.core.bpf_jit_enable=0 it would run interpreted",
					  p->section);
		return errbuf_set(eb, fd,
				  "the kernel's verifier rejected BPF program %s: %s%s",
				  p->section, strerror(-fd),
				  st->verifier_log && st->verifier_log[0] ?
				  " (verifier log follows)" : "");
	}
	return fd;
}

int bpf_obj_load_prog(struct bpf_obj *obj, struct obj_prog *p,
		      const struct obj_load_opts *o, struct obj_load_state *st,
		      struct errbuf *eb)
{
	char jit[64], tag[17];
	struct bpf_prog_load_req req = {
		.type = p->tracing ? BPF_PROG_TYPE_TRACING :
			p->tracepoint ? BPF_PROG_TYPE_TRACEPOINT :
			BPF_PROG_TYPE_KPROBE,
		.insns = p->insns,
		.insn_cnt = p->insn_cnt,
		.license = o->license ? o->license : obj->license,
		.kern_version = o->kern_version,
		.name = st->names_ok && p->name[0] ? p->name : NULL,
		.expected_attach_type = p->multi ? BPF_TRACE_KPROBE_MULTI :
					!p->tracing ? 0 :
					p->kind == PROBE_RETURN ? BPF_TRACE_FEXIT :
					BPF_TRACE_FENTRY,
		.attach_btf_id = p->tracing ? p->attach_btf_id : 0,
		.attach_btf_obj_fd = p->tracing && p->attach_btf_obj_fd > 0 ?
				     (uint32_t)p->attach_btf_obj_fd : 0,
	};
	struct bpf_insn *sent = NULL;
	int fd, err;

	if (p->fd >= 0)
		return 0;
	err = apply_relocs(obj, p, o, st, eb);
	if (err)
		return err;
	err = compacted(p, &sent, eb);
	if (err)
		return err;
	req.insns = sent ? sent : p->insns;
	req.insn_cnt = p->sent_cnt;
	fd = load_prog(p, o, st, &req, eb);
	free(sent);
	if (fd < 0)
		return fd;
	p->fd = fd;
	prog_kinfo(p);
	if (p->kinfo.known)
		vlog(1, "program %s loaded: %zu instructions%s, kern_version 0x%06x, fd %d, kernel id %u, tag %s",
		     p->section, p->sent_cnt, jit_text(p, jit, sizeof(jit)),
		     o->kern_version, fd, p->kinfo.id,
		     bpf_tag_text(p->kinfo.tag, tag, sizeof(tag)));
	else
		vlog(1, "program %s loaded: %zu instructions, kern_version 0x%06x, fd %d (no id or tag: BPF_OBJ_GET_INFO_BY_FD arrived in 4.13)",
		     p->section, p->sent_cnt, o->kern_version, fd);
	return 0;
}

void bpf_obj_unload_prog(struct obj_prog *p)
{
	if (p && p->fd >= 0) {
		kcall_close(p->fd, "program %s no longer needed: the kernel frees it once no perf event or link holds it",
			    p->section);
		p->fd = -1;
	}
}

void obj_load_state_free(struct obj_load_state *st)
{
	free(st->verifier_log);
	st->verifier_log = NULL;
}
