// SPDX-License-Identifier: GPL-2.0
/*
 * What a 4.9 kernel's verifier demanded of the programs a kprobe run
 * loads there, checked on the embedded object itself.  The suite booted
 * vanilla 4.9.337 to prove it until that image was withdrawn; the rules
 * are the kernel's, one per check below:
 *   - at most 4096 instructions (BPF_MAXINSNS; the 1M limit is 5.2's);
 *   - no call of another BPF function (bpf-to-bpf calls: 4.16);
 *   - no loop: a jump back into a path still being walked (bounded
 *     loops: 5.3; a jump back to a shared exit is no loop);
 *   - no BPF_JMP32 class (5.1) and no JLT/JLE/JSLT/JSLE (4.14);
 *   - no atomic but the plain add (fetch, xchg, cmpxchg: 5.12);
 *   - no 64-bit load of a map value's address (global data: 5.2):
 *     every ld_imm64 is a plain constant until the loader makes it a
 *     map's fd or patches a value in;
 *   - helpers a kprobe program had on 4.9, each older than 4.9;
 *   - maps of types 4.9 created (no LRU hash: 4.10).
 * The kprobe_multi and fentry/fexit programs are for 5.18+ and 5.5+.
 */
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/obj/elf_obj.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"

/* JLT, JLE, JSLT, JSLE (4.14): opcodes the 4.9 verifier rejects. */
static int new_jump(const struct bpf_insn *in)
{
	unsigned int op = BPF_OP(in->code);

	return op == BPF_JLT || op == BPF_JLE || op == BPF_JSLT ||
	       op == BPF_JSLE;
}

/* The helpers the programs call, each with the kernel that added it. */
static const struct {
	int id;
	const char *name;
} old_helpers[] = {
	{ BPF_FUNC_map_lookup_elem, "map_lookup_elem (3.18)" },
	{ BPF_FUNC_probe_read, "probe_read (4.1)" },
	{ BPF_FUNC_ktime_get_ns, "ktime_get_ns (4.1)" },
	{ BPF_FUNC_get_current_pid_tgid, "get_current_pid_tgid (4.2)" },
	{ BPF_FUNC_get_current_comm, "get_current_comm (4.2)" },
	{ BPF_FUNC_get_smp_processor_id, "get_smp_processor_id (4.1)" },
	{ BPF_FUNC_perf_event_output, "perf_event_output (4.4)" },
};

static int old_helper(int id)
{
	size_t i;

	/* s390's object reads with probe_read_kernel (5.5): bpf_legacy.h. */
	if (id == BPF_FUNC_probe_read_kernel &&
	    strcmp(bpf_blob_own_arch(), "s390") == 0)
		return 1;
	for (i = 0; i < sizeof(old_helpers) / sizeof(old_helpers[0]); i++)
		if (old_helpers[i].id == id)
			return 1;
	return 0;
}

enum { WHITE, ON_PATH, DONE };

/* 1 when a path from insn i comes back to an instruction on itself. */
static int loops_from(const struct obj_prog *p, size_t i, unsigned char *state,
		      size_t *at)
{
	const struct bpf_insn *in;
	size_t next[2];
	int n = 0, k;

	if (i >= p->insn_cnt || state[i] == DONE)
		return 0;
	if (state[i] == ON_PATH) {
		*at = i;
		return 1;
	}
	state[i] = ON_PATH;
	in = &p->insns[i];
	if (in->code == (BPF_JMP | BPF_EXIT)) {
		n = 0;
	} else if (in->code == (BPF_JMP | BPF_JA)) {
		next[n++] = i + 1 + (size_t)(long)in->off;
	} else if (BPF_CLASS(in->code) == BPF_JMP &&
		   in->code != (BPF_JMP | BPF_CALL)) {
		next[n++] = i + 1;
		next[n++] = i + 1 + (size_t)(long)in->off;
	} else {
		next[n++] = i + (in->code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1);
	}
	for (k = 0; k < n; k++)
		if (loops_from(p, next[k], state, at))
			return 1;
	state[i] = DONE;
	return 0;
}

/* The first rule prog breaks, in why; 0 when it keeps them all. */
static int breaks_a_rule(const struct bpf_obj *obj, const struct obj_prog *p,
			 char *why, size_t len)
{
	size_t i, r;

	if (p->insn_cnt > 4096) {
		snprintf(why, len, "%zu instructions", p->insn_cnt);
		return 1;
	}
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpf_insn *in = &p->insns[i];
		unsigned int cls = BPF_CLASS(in->code);

		if (cls == BPF_JMP32) {
			snprintf(why, len, "insn %zu: a BPF_JMP32 instruction", i);
			return 1;
		}
		if (cls == BPF_JMP && in->code == (BPF_JMP | BPF_CALL)) {
			if (in->src_reg == BPF_PSEUDO_CALL) {
				snprintf(why, len, "insn %zu: a bpf-to-bpf call", i);
				return 1;
			}
			if (!old_helper(in->imm)) {
				snprintf(why, len, "insn %zu: helper %d", i, in->imm);
				return 1;
			}
			continue;
		}
		if (cls == BPF_JMP && in->code != (BPF_JMP | BPF_EXIT)) {
			if (new_jump(in)) {
				snprintf(why, len, "insn %zu: jump opcode 0x%02x", i,
					 in->code);
				return 1;
			}
		}
		if (cls == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC &&
		    in->imm != BPF_ADD) {
			snprintf(why, len, "insn %zu: atomic 0x%x", i, in->imm);
			return 1;
		}
		/* A map's (relocated) or a constant (patched): not data. */
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (in->src_reg) {
				snprintf(why, len, "insn %zu: ld_imm64 src %u", i,
					 in->src_reg);
				return 1;
			}
			i++;	/* its second half */
		}
	}
	{
		unsigned char state[4096] = { WHITE };
		size_t at;

		if (loops_from(p, 0, state, &at)) {
			snprintf(why, len, "insn %zu: a loop", at);
			return 1;
		}
	}
	for (r = 0; r < p->nr_relocs; r++) {
		const struct obj_map *m = &obj->maps[p->relocs[r].map];

		if (m->def.type != BPF_MAP_TYPE_ARRAY &&
		    m->def.type != BPF_MAP_TYPE_PERCPU_ARRAY &&
		    m->def.type != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		    m->def.type != BPF_MAP_TYPE_HASH) {
			snprintf(why, len, "map %s of type %u", m->name,
				 m->def.type);
			return 1;
		}
	}
	return 0;
}

static void test_as_4_9(void)
{
	struct errbuf eb = { "" };
	struct bpf_obj obj;
	char why[128], name[200];
	size_t i, legacy = 0, largest = 0;
	int err;

	err = bpf_obj_parse(ext4dist_bpf_obj, ext4dist_bpf_obj_size(), &obj,
			    &eb);
	if (!check_int("object parses", err, 0))
		return;
	for (i = 0; i < obj.nr_progs; i++) {
		const struct obj_prog *p = &obj.progs[i];

		/* The lessons are broken on purpose: never loaded by a run. */
		if (p->multi || p->tracing ||
		    !strncmp(p->section, "kprobe/lesson/", 14))
			continue;
		legacy++;
		if (p->insn_cnt > largest)
			largest = p->insn_cnt;
		why[0] = '\0';
		snprintf(name, sizeof(name), "4.9 verifier rules: %s", p->section);
		if (breaks_a_rule(&obj, p, why, sizeof(why)))
			check_str(name, why, "");
	}
	/*
	 * kprobe and kretprobe sections but the lessons, 24 + 22
	 * (test_elf_obj counts them), and the fsync tracepoints' pair
	 * (tracepoint programs: 4.7+).
	 */
	check_int("programs a 4.9 run may load", (long long)legacy, 48);
	CHECK(largest > 0 && largest <= 4096, "the largest under 4096 instructions");
	bpf_obj_free(&obj);
}

/* The rules above fail where they should, on made-up programs. */
static void test_rules_fail(void)
{
	struct bpf_insn insns[4];
	struct bpf_obj obj;
	struct obj_prog p;
	char why[128];

	memset(&obj, 0, sizeof(obj));
	memset(&p, 0, sizeof(p));
	p.insns = insns;
	p.insn_cnt = 2;
	insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };

	insns[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
				      .src_reg = BPF_PSEUDO_CALL, .imm = 1 };
	check_int("bpf-to-bpf call", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	check_str("bpf-to-bpf call: why", why, "insn 0: a bpf-to-bpf call");
	insns[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
				      .imm = BPF_FUNC_get_func_ip };
	check_int("a 5.15 helper", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	check_str("a 5.15 helper: why", why, "insn 0: helper 173");
	insns[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = -1 };
	check_int("a loop", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	check_str("a loop: why", why, "insn 0: a loop");
	/* A jump back to an exit already walked is no loop (as 4.9 saw). */
	p.insn_cnt = 4;
	insns[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_JEQ | BPF_K, .off = 1 };
	insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	insns[2] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = -2 };
	check_int("a jump back to an exit", breaks_a_rule(&obj, &p, why,
		  sizeof(why)), 0);
	insns[3] = insns[1];
	insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = 1 };
	insns[2] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = -3 };
	check_int("a jump back into the path", breaks_a_rule(&obj, &p, why,
		  sizeof(why)), 1);
	p.insn_cnt = 2;
	insns[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	insns[0] = (struct bpf_insn){ .code = BPF_JMP | BPF_JLT | BPF_K };
	check_int("JLT", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	check_str("JLT: why", why, "insn 0: jump opcode 0xa5");
	insns[0] = (struct bpf_insn){ .code = BPF_JMP32 | BPF_JEQ | BPF_K };
	check_int("JMP32", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	insns[0] = (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | BPF_DW,
				      .imm = BPF_ADD | BPF_FETCH };
	check_int("fetch-add", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	insns[0] = (struct bpf_insn){ .code = BPF_STX | BPF_ATOMIC | BPF_DW,
				      .imm = BPF_ADD };
	check_int("plain atomic add passes",
		  breaks_a_rule(&obj, &p, why, sizeof(why)), 0);
	p.insn_cnt = 4097;
	check_int("4097 instructions", breaks_a_rule(&obj, &p, why, sizeof(why)), 1);
	check_str("4097 instructions: why", why, "4097 instructions");
}

static const struct test_case test_cases[] = {
	TEST_CASE(as_4_9),
	TEST_CASE(rules_fail),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
