/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many start records a run keeps (ext4dist_abi.h): sized to the
 * machine, or as --start-slots says.
 */
#ifndef EXT4DIST_TOOL_START_SLOTS_H
#define EXT4DIST_TOOL_START_SLOTS_H

#include "ext4dist_abi.h"

struct bpf_obj;
struct tracer;
struct errbuf;

/*
 * The rule: one slot per START_MEM_PER_SLOT bytes of MemTotal, rounded
 * down to a power of two from START_SLOTS_MIN to START_SLOTS_MAX
 * (START_SLOTS_MAX from 512 MiB up; START_SLOTS_MIN, 160 KiB of records,
 * below 128 MiB).
 */
#define START_MEM_PER_SLOT (16ULL << 10)
unsigned int start_slots_for(unsigned long long mem_bytes);

/* log2 of slots, a power of two. */
unsigned int start_slots_shift(unsigned int slots);
/*
 * What the programs shift the thread id down by, from the top half of
 * the word where they put it, to make a record's tag (PATCH_START_SHIFT,
 * record_tag() in bpf/ext4dist.bpf.c): 31 + log2 slots.
 */
unsigned int start_tag_shift(unsigned int slots);

/*
 * A slot's bytes: one 8-byte record per operation of ops_mask (bit per
 * enum ext4dist_op), at least one.
 */
unsigned int start_slot_bytes(unsigned int ops_mask);
/* op's record offset in its slot: 8 times its rank in ops_mask; 0 if not in it. */
unsigned int start_rec_offset(unsigned int ops_mask, unsigned int op);

/*
 * obj's start records for slots slots of start_slot_bytes(ops_mask):
 * the start array's value_size, slow_start's max_entries, and every
 * placeholder of the layout patched (PATCH_START_MASK, _SHIFT, _STRIDE,
 * PATCH_OFF_START_REC of each operation).  Returns how many
 * instructions were patched.
 */
int start_layout_apply(struct bpf_obj *obj, unsigned int slots,
		       unsigned int ops_mask);

/*
 * The run's number: cfg.start_slots, else the rule on MemTotal
 * (cfg.meminfo), else START_SLOTS_MAX; lays the records out for
 * cfg.ops_mask (start_layout_apply), and records the choice and why
 * (t->rec).
 */
void start_slots_apply(struct tracer *t);

#endif
