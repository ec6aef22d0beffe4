// SPDX-License-Identifier: GPL-2.0
#include "tool/engine/start_slots.h"

#include <stdio.h>
#include <string.h>

#include "loader/kernel/meminfo.h"
#include "loader/util/ilog2.h"
#include "loader/util/vlog.h"
#include "tool/engine/tracer_priv.h"

unsigned int start_slots_for(unsigned long long mem_bytes)
{
	unsigned int slots = START_SLOTS_MAX;

	while (slots > START_SLOTS_MIN && slots * START_MEM_PER_SLOT > mem_bytes)
		slots >>= 1;
	return slots;
}

unsigned int start_slots_shift(unsigned int slots)
{
	return ilog2_ull(slots);
}

unsigned int start_tag_shift(unsigned int slots)
{
	return 31 + start_slots_shift(slots);
}

static unsigned int choose(struct tracer *t)
{
	const char *path = t->cfg.meminfo ? t->cfg.meminfo : "/proc/meminfo";
	unsigned long long mem;
	unsigned int slots;
	int err;

	if (t->cfg.start_slots) {
		snprintf(t->rec.start_why, sizeof(t->rec.start_why),
			 "--start-slots");
		return t->cfg.start_slots;
	}
	err = meminfo_total(t->cfg.meminfo, &mem);
	if (err) {
		snprintf(t->rec.start_why, sizeof(t->rec.start_why),
			 "the most: %s not read: %s", path,
			 strerror(-err));
		return START_SLOTS_MAX;
	}
	slots = start_slots_for(mem);
	snprintf(t->rec.start_why, sizeof(t->rec.start_why),
		 "one per %llu KiB of MemTotal (%llu MiB)",
		 START_MEM_PER_SLOT >> 10, mem >> 20);
	return slots;
}

unsigned int start_slot_bytes(unsigned int ops_mask)
{
	unsigned int n = (unsigned int)__builtin_popcount(ops_mask &
							  ((1u << NR_OPS) - 1));

	return 8 * (n ? n : 1);
}

unsigned int start_rec_offset(unsigned int ops_mask, unsigned int op)
{
	if (op >= NR_OPS || !(ops_mask & (1u << op)))
		return 0;
	return 8 * (unsigned int)__builtin_popcount(ops_mask & ((1u << op) - 1));
}

int start_layout_apply(struct bpf_obj *obj, unsigned int slots,
		       unsigned int ops_mask)
{
	unsigned int bytes = start_slot_bytes(ops_mask), op;
	struct obj_map *m = bpf_obj_find_map(obj, "start");
	struct bpf_insn_patch w[3 + NR_OPS];
	int n;

	/* start: one value of every slot; slow_start: one entry per slot. */
	if (m)
		m->def.value_size = slots * bytes;
	m = bpf_obj_find_map(obj, "slow_start");
	if (m)
		m->def.max_entries = slots;
	w[0] = (struct bpf_insn_patch){ INSN_PATCH_ALU64_IMM, BPF_AND,
		PATCH_START_MASK, (int32_t)(slots - 1) };
	w[1] = (struct bpf_insn_patch){ INSN_PATCH_ALU64_IMM, BPF_RSH,
		PATCH_START_SHIFT, (int32_t)start_tag_shift(slots) };
	w[2] = (struct bpf_insn_patch){ INSN_PATCH_ALU64_IMM, BPF_MUL,
		PATCH_START_STRIDE, (int32_t)bytes };
	/* An operation not traced has no record: its code never runs. */
	for (op = 0; op < NR_OPS; op++)
		w[3 + op] = (struct bpf_insn_patch){ INSN_PATCH_DW_OFF, 0,
			PATCH_OFF_START_REC(op),
			(int32_t)start_rec_offset(ops_mask, op) };
	n = bpf_obj_patch_list(obj, w, 3 + NR_OPS);
	return n;
}

void start_slots_apply(struct tracer *t)
{
	unsigned int slots = choose(t);

	start_layout_apply(&t->obj, slots, t->cfg.ops_mask);
	t->rec.start_slots = slots;
	t->rec.start_slot_bytes = start_slot_bytes(t->cfg.ops_mask);
	vlog(1, "start records: %u slots (%s), %u bytes each", slots,
	     t->rec.start_why, t->rec.start_slot_bytes);
}
