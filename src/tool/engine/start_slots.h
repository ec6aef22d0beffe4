/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many start records a run keeps (ext4dist_abi.h): sized to the
 * machine, or as --start-slots says.
 */
#ifndef EXT4DIST_TOOL_START_SLOTS_H
#define EXT4DIST_TOOL_START_SLOTS_H

#include "ext4dist_abi.h"

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
 * The run's number: cfg.start_slots, else the rule on MemTotal
 * (cfg.meminfo), else START_SLOTS_MAX; sets the start arrays'
 * max_entries, patches the programs' mask and shift, and records the
 * choice and why (t->rec).
 */
void start_slots_apply(struct tracer *t);

#endif
