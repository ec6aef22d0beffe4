// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-bpf=xlated: each program a run loads, as ext4dist sends it (the
 * object's code with the run's constants patched, its map references
 * relocated and the jumps by 0 of the loader's rewrites dropped: each
 * shown where it was) and as the kernel keeps it after the verifier
 * (BPF_OBJ_GET_INFO_BY_FD's xlated_prog_insns, 4.13+), annotated: which
 * constant was patched, which map an fd or id is, which helper a call
 * became, and what the two listings' lengths tell (map lookups inlined,
 * dead code removed).  Needs root: it loads the programs, as --check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "loader/obj/map_value.h"
#include "loader/obj/nops.h"
#include "tool/dump/dump_bpf.h"
#include "tool/dump/prog_batch.h"
#include "tool/plan/prog_select.h"
#include "tool/engine/tracer.h"

#define LD_IMM64 (BPF_LD | BPF_IMM | BPF_DW)
#define CALL (BPF_JMP | BPF_CALL)
#define MAX_HELPER_ADDRS 64

/* What the embedded object had at an instruction a run patches. */
struct mark {
	size_t prog;			/* in xl's obj->progs */
	size_t insn;
	const char *placeholder;	/* PATCH_*; NULL: the field's offset */
};

struct xl {
	FILE *out;
	const struct bpf_obj *obj;	/* loaded: maps with fds */
	struct mark *marks;		/* by program, then instruction */
	size_t nr_marks;
	uint32_t map_id[16];		/* obj->maps[i]'s kernel id */
	unsigned long long call_base;	/* __bpf_call_base, 0: unknown */
	struct errbuf *eb;		/* why err */
	const char *glob;		/* --prog */
	size_t shown;
	int err;
};

static const char *map_name_by_fd(const struct xl *x, int fd)
{
	size_t i;

	for (i = 0; i < x->obj->nr_maps; i++)
		if (x->obj->maps[i].fd == fd)
			return x->obj->maps[i].name;
	return "?";
}

static const char *map_name_by_id(const struct xl *x, uint32_t id)
{
	size_t i;

	for (i = 0; i < x->obj->nr_maps && i < 16; i++)
		if (x->map_id[i] == id)
			return x->obj->maps[i].name;
	return NULL;
}

static uint64_t imm64(const struct bpf_insn *in)
{
	return (uint64_t)(uint32_t)in[1].imm << 32 | (uint32_t)in->imm;
}

/* p's index in x->obj. */
static size_t prog_index(const struct xl *x, const struct obj_prog *p)
{
	size_t k;

	for (k = 0; k < x->obj->nr_progs; k++)
		if (!strcmp(x->obj->progs[k].section, p->section))
			break;
	return k;
}

/*
 * The mark of instruction i of program k, or NULL, asked for i rising:
 * *m is where the last call left off (a program's marks are in the
 * order of its instructions).
 */
static const struct mark *mark_at(const struct xl *x, size_t k, size_t i,
				  size_t *m)
{
	const struct mark *mk;

	for (; *m < x->nr_marks; (*m)++) {
		mk = &x->marks[*m];
		if (mk->prog != k || mk->insn < i)
			continue;
		return mk->insn == i ? mk : NULL;
	}
	return NULL;
}

/* The PATCH_* placeholder q has at insn i, or NULL. */
static const char *placeholder_in(const struct obj_prog *q, size_t i)
{
	const struct bpf_disasm_name *names;
	size_t k, n;

	if (i + 1 >= q->insn_cnt || q->insns[i].code != LD_IMM64 ||
	    q->insns[i].src_reg)
		return NULL;
	names = dump_bpf_placeholders(&n);
	for (k = 0; k < n; k++)
		if (names[k].value == imm64(&q->insns[i]))
			return names[k].name;
	return NULL;
}

/* Whether in[i] is a jump, call or exit other than the loader's no-op. */
static int ends_run(const struct bpf_insn *in)
{
	return BPF_CLASS(in->code) == BPF_JMP && !map_value_is_nop(in);
}

/*
 * What the loader's jump by 0 at i of a program sent stood for: the
 * lookup's call follows the value's address, its null tests come after
 * that call along straight code, its key's set-up (its store, the value
 * stored, its pointer) before the value's address (map_value.h).  A key's
 * set-up is at most MAP_VALUE_KEY_SETUP_MAX instructions, so of a run of
 * jumps by 0 straight into a value's address only the last so many are
 * one (the run's first may be the null tests of the lookup before it).
 */
static const char *ja_0_was(const struct bpf_insn *in, size_t cnt, size_t i)
{
	size_t j;

	if (i >= 2 && map_value_is_load(&in[i - 2]))
		return "call";
	for (j = i + 1; j < cnt && map_value_is_nop(&in[j]); j++)
		;
	if (j < cnt && map_value_is_load(&in[j]) &&
	    j - i <= MAP_VALUE_KEY_SETUP_MAX)
		return "key's set-up";
	for (j = i; j > 0 && !ends_run(&in[j - 1]); j--)
		if (j >= 3 && map_value_is_nop(&in[j - 1]) &&
		    map_value_is_load(&in[j - 3]))
			return "null test (the address is never null)";
	for (j = i + 1; j < cnt && !ends_run(&in[j]); j++)
		if (map_value_is_load(&in[j]))
			return "key's set-up";
	return "null test (the address is never null)";
}

static size_t count_value_reads(const struct bpf_insn *in, size_t cnt)
{
	size_t i, n = 0;

	for (i = 0; i < cnt; i++)
		n += in[i].code == LD_IMM64 &&
		     in[i].src_reg == BPF_PSEUDO_MAP_VALUE;
	return n;
}

/*
 * Marks what q, as embedded, has where the run patches it: the
 * placeholders, and the tracepoint field's placeholder offset.
 */
static int mark_prog(struct xl *x, const struct obj_prog *q)
{
	size_t k = prog_index(x, q), i;

	for (i = 0; i < q->insn_cnt && k < x->obj->nr_progs; i++) {
		const char *ph = placeholder_in(q, i);
		struct mark *m;

		if (!ph && (q->insns[i].code != (BPF_LDX | BPF_MEM | BPF_W) ||
			    q->insns[i].off != PATCH_OFF_TP_RET))
			continue;
		m = realloc(x->marks, (x->nr_marks + 1) * sizeof(*m));
		if (!m)
			return -ENOMEM;
		x->marks = m;
		m[x->nr_marks++] = (struct mark){ k, i, ph };
	}
	return 0;
}

/*
 * p as the loader sent it (nops.h): into c, with at[i] the copy's index
 * of p's instruction i.  Where the loader sent p as it is, so is c.
 */
static long sent_copy(const struct obj_prog *p, struct bpf_insn *c,
		      uint32_t *at)
{
	long cnt = nops_compact(p->insns, p->insn_cnt, c, at);
	size_t i;

	if (cnt >= 0 || cnt == -ENOMEM)
		return cnt;
	memcpy(c, p->insns, p->insn_cnt * sizeof(*c));
	for (i = 0; i <= p->insn_cnt; i++)
		at[i] = (uint32_t)i;
	return (long)p->insn_cnt;
}

/*
 * The object's instructions in order, each with its index in what was
 * sent, the jumps by 0 the loader dropped with none.
 */
static void print_sent(struct xl *x, const struct obj_prog *p)
{
	char text[160], note[224];
	struct bpf_insn *c = malloc((p->insn_cnt + 1) * sizeof(*c));
	uint32_t *at = malloc((p->insn_cnt + 1) * sizeof(*at));
	size_t i, k = prog_index(x, p), m = 0;
	long cnt = c && at ? sent_copy(p, c, at) : -ENOMEM;
	int n;

	if (cnt < 0) {
		x->err = errbuf_set(x->eb, -ENOMEM,
				    "out of memory for the instructions %s was sent as",
				    p->section);
		goto out;
	}
	fprintf(x->out, "  sent: %ld instructions (the object's, placeholders patched, map references relocated, the %zu jumps by 0 of its rewrites dropped)\n",
		cnt, p->insn_cnt - (size_t)cnt);
	for (i = 0; i < p->insn_cnt; i += (size_t)n) {
		const struct bpf_insn *in = &p->insns[i];
		const struct mark *mk = mark_at(x, k, i, &m);
		const char *ph = mk ? mk->placeholder : NULL;

		if (at[i] == at[i + 1]) {
			n = 1;
			bpf_disasm_insn(p->insns, p->insn_cnt, i, text, sizeof(text));
			fprintf(x->out, "     -: %-40s ; was the lookup's %s: a jump by 0, dropped before sending\n",
				text, ja_0_was(p->insns, p->insn_cnt, i));
			continue;
		}
		n = bpf_disasm_insn(c, (size_t)cnt, at[i], text, sizeof(text));
		if (n < 1)
			n = 1;
		note[0] = '\0';
		if (in->code == LD_IMM64 && in->src_reg == BPF_PSEUDO_MAP_FD)
			snprintf(note, sizeof(note), "; map %s: its fd, as the relocation put it (src_reg 1, BPF_PSEUDO_MAP_FD)",
				 map_name_by_fd(x, in->imm));
		else if (in->code == LD_IMM64 &&
			 in->src_reg == BPF_PSEUDO_MAP_VALUE)
			snprintf(note, sizeof(note), "; map %s's value by its address, for the object's lookup (src_reg 2, BPF_PSEUDO_MAP_VALUE, 5.2+)",
				 map_name_by_fd(x, in->imm));
		else if (map_value_is_nop(in))
			snprintf(note, sizeof(note), "; was the lookup's %s: a jump by 0, which the verifier drops",
				 ja_0_was(p->insns, p->insn_cnt, i));
		else if (ph && n == 2)
			snprintf(note, sizeof(note), "; %s patched: %llu", ph,
				 (unsigned long long)imm64(in));
		else if (mk && !ph)
			snprintf(note, sizeof(note), "; the field's offset, from the event's format file (the object has %d)",
				 PATCH_OFF_TP_RET);
		fprintf(x->out, "  %4u: %-40s %s\n", at[i], text, note);
	}
out:
	free(c);
	free(at);
}

static void print_xlated(struct xl *x, const struct bpf_insn *k, size_t cnt,
			 size_t *calls)
{
	char text[160], note[200];
	size_t i;
	int n;

	for (i = 0; i < cnt; i += (size_t)n) {
		const struct bpf_insn *in = &k[i];

		n = bpf_disasm_insn(k, cnt, i, text, sizeof(text));
		if (n < 1)
			n = 1;
		note[0] = '\0';
		if (in->code == LD_IMM64 && in->src_reg == BPF_PSEUDO_MAP_FD) {
			const char *name = map_name_by_id(x, (uint32_t)in->imm);

			snprintf(note, sizeof(note), "; map %s: the kernel keeps its address here and shows its id %d",
				 name ? name : "?", in->imm);
		} else if (in->code == LD_IMM64 &&
			   in->src_reg == BPF_PSEUDO_MAP_VALUE) {
			const char *name = map_name_by_id(x, (uint32_t)in->imm);

			snprintf(note, sizeof(note), "; map %s's value: the kernel keeps its address here and shows the map's id %d",
				 name ? name : "?", in->imm);
		} else if (in->code == CALL && in->src_reg == 0) {
			(*calls)++;
			if (x->call_base)
				snprintf(note, sizeof(note), "; a helper, now called at its address: __bpf_call_base %+d = %#llx",
					 in->imm, x->call_base + (long long)in->imm);
			else
				snprintf(note, sizeof(note), "; a helper, now called at its address (__bpf_call_base %+d)",
					 in->imm);
		}
		fprintf(x->out, "  %4zu: %-40s %s\n", i, text, note);
	}
}

/*
 * bpf_get_smp_processor_id() as the verifier inlines it on x86_64
 * (6.10+): the per-CPU variable's address, made this CPU's
 * (BPF_ADDR_PERCPU, a move with offset -1), and the id loaded from it.
 * An inlined per-CPU array lookup makes its address from a load instead.
 */
static int is_mov_imm(const struct bpf_insn *in)
{
	return (BPF_CLASS(in->code) == BPF_ALU ||
		BPF_CLASS(in->code) == BPF_ALU64) &&
	       BPF_OP(in->code) == BPF_MOV && BPF_SRC(in->code) == BPF_K;
}

static size_t count_cpu_ids(const struct bpf_insn *k, size_t cnt)
{
	size_t i, n = 0;

	for (i = 1; i + 1 < cnt; i++)
		n += k[i].code == (BPF_ALU64 | BPF_MOV | BPF_X) &&
		     k[i].off == -1 &&
		     is_mov_imm(&k[i - 1]) &&
		     k[i - 1].dst_reg == k[i].src_reg &&
		     k[i + 1].code == (BPF_LDX | BPF_MEM | BPF_W) &&
		     k[i + 1].src_reg == k[i].dst_reg;
	return n;
}

static size_t count_calls(const struct bpf_insn *in, size_t cnt, int helper)
{
	size_t i, n = 0;

	for (i = 0; i < cnt; i++)
		if (in[i].code == CALL && in[i].src_reg == 0 &&
		    (helper < 0 || in[i].imm == helper))
			n++;
	return n;
}

/* Called with each program while it is loaded. */
static void dump_one(void *arg, const struct obj_prog *p)
{
	struct xl *x = arg;
	struct bpf_prog_info info;
	struct bpf_insn *k = NULL;
	uint32_t len = sizeof(info);
	size_t cnt, calls = 0, sent_calls, reads, cpu_ids;
	char tag[17];

	if (x->err || !prog_selected(p, x->glob))
		return;
	x->shown++;
	fprintf(x->out, "\nprogram %s: kernel id %u, tag %s, JIT %u bytes\n",
		p->section, p->kinfo.id,
		bpf_tag_text(p->kinfo.tag, tag, sizeof(tag)), p->kinfo.jited_len);
	print_sent(x, p);
	if (x->err)
		return;
	cnt = p->kinfo.xlated_len / sizeof(struct bpf_insn);
	k = cnt ? calloc(cnt, sizeof(*k)) : NULL;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = (uint32_t)(cnt * sizeof(*k));
	info.xlated_prog_insns = (uint64_t)(uintptr_t)k;
	kcall_why("the instructions the kernel keeps for %s after the verifier (xlated_prog_insns, %zu bytes)",
		  p->section, cnt * sizeof(*k));
	if (cnt && !k) {
		x->err = errbuf_set(x->eb, -ENOMEM,
				    "out of memory for the %zu translated instructions of %s",
				    cnt, p->section);
		return;
	}
	if (!k || bpf_obj_info(p->fd, &info, &len)) {
		fprintf(x->out, "  kernel: its translated instructions cannot be read (BPF_OBJ_GET_INFO_BY_FD: 4.13+; the kernel hides them from users who may not see kernel addresses)\n");
		free(k);
		return;
	}
	fprintf(x->out, "  kernel: %zu instructions after the verifier (BPF_OBJ_GET_INFO_BY_FD, xlated_prog_insns)\n",
		cnt);
	print_xlated(x, k, cnt, &calls);
	sent_calls = count_calls(p->insns, p->insn_cnt, -1);
	fprintf(x->out, "  summary: %zu instructions sent, %zu kept; helper calls %zu sent, %zu kept",
		p->sent_cnt, cnt, sent_calls, calls);
	cpu_ids = count_cpu_ids(k, cnt);
	if (cpu_ids > sent_calls - calls || calls > sent_calls)
		cpu_ids = 0;
	if (calls + cpu_ids < sent_calls)
		fprintf(x->out, ": %zu of the %zu map lookups (bpf_map_lookup_elem#1) inlined as address arithmetic on array maps",
			sent_calls - calls - cpu_ids,
			count_calls(p->insns, p->insn_cnt, BPF_FUNC_map_lookup_elem));
	if (cpu_ids)
		fprintf(x->out, "%s bpf_get_smp_processor_id#8 inlined as a load of this CPU's id (x86_64, 6.10+)",
			calls + cpu_ids < sent_calls ? ";" : ":");
	reads = count_value_reads(p->insns, p->insn_cnt);
	if (reads)
		fprintf(x->out, "; %zu lookup%s sent as the value's address, no call",
			reads, reads == 1 ? "" : "s");
	/* opt_remove_dead_code(), opt_hard_wire_dead_code_branches(): 5.1. */
	fprintf(x->out, "; the lengths differ by the inlined lookups' instructions less the code the verifier proved dead with the patched constants (removed for privileged loads since 5.1)\n");
	free(k);
	/* The next program's load maps the text it runs anew (text_pages.c). */
	text_pages_drop();
}

/* The maps' kernel ids, to name the ids the translated code shows. */
static void map_ids(struct xl *x)
{
	size_t i;

	for (i = 0; i < x->obj->nr_maps && i < 16; i++) {
		struct bpf_map_info mi;
		uint32_t len = sizeof(mi);

		memset(&mi, 0, sizeof(mi));
		kcall_why("map %s's kernel id: the translated code names maps by id",
			  x->obj->maps[i].name);
		if (!bpf_obj_info(x->obj->maps[i].fd, &mi, &len))
			x->map_id[i] = mi.id;
	}
}

/*
 * Once the maps are made: what the embedded object has where the run
 * patches its programs (read a batch of programs at a time),
 * __bpf_call_base, map ids.
 */
static int xl_setup(void *arg, struct tracer *t, const struct tracer_config *cfg,
		    struct errbuf *eb)
{
	static const char *const base_name[] = { "__bpf_call_base" };
	struct xl *x = arg;
	struct prog_batch b = { .names = tracer_obj(t) };
	struct ksym_result base;
	size_t i;
	int more, err = 0;

	x->obj = tracer_obj(t);
	while (!err && (more = prog_batch_next(&b, 0, eb)) != 0) {
		err = more < 0 ? more : 0;
		for (i = 0; more > 0 && i < b.obj.nr_progs && !err; i++)
			if (mark_prog(x, &b.obj.progs[i]))
				err = errbuf_set(eb, -ENOMEM,
						 "out of memory for the placeholders of %s",
						 b.obj.progs[i].section);
	}
	prog_batch_end(&b);
	if (err)
		return err;
	if (kallsyms_lookup(cfg->kallsyms_path, base_name, 1, 0, &base,
			    NULL) > 0 && base.found)
		x->call_base = base.addr;
	map_ids(x);
	fprintf(x->out, "The programs a run loads here, patched as it patches them: first as sent, then as the kernel keeps them.\n");
	return 0;
}

int dump_xlated(FILE *out, const struct tracer_config *cfg, struct errbuf *eb)
{
	struct xl x = { .out = out, .eb = eb, .glob = cfg->prog_glob };
	int err = dump_each_loaded(out, cfg, "xlated", xl_setup, dump_one, &x,
				   &x.shown, eb);

	if (!err)
		err = x.err;
	free(x.marks);
	return err;
}
