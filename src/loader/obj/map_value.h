/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A single-entry array's value read by its address instead of looked up:
 * where the kernel takes an ld_imm64 of a map value (BPF_PSEUDO_MAP_VALUE,
 * 5.2+), the lookup's map load becomes that address and its call a jump
 * by 0, which the verifier drops from privileged programs (5.1+).
 */
#ifndef EXT4DIST_LOADER_OBJ_MAP_VALUE_H
#define EXT4DIST_LOADER_OBJ_MAP_VALUE_H

#include <stddef.h>

#include "loader/obj/elf_obj.h"

/*
 * The most instructions of a key's set-up that become jumps by 0: the
 * value moved into r1, its store, the pointer to it (two).
 */
#define MAP_VALUE_KEY_SETUP_MAX 4

/* Whether in is the loader's no-op: a jump by 0, nothing else set. */
int map_value_is_nop(const struct bpf_insn *in);

/* Whether in loads a map value's address (BPF_PSEUDO_MAP_VALUE). */
int map_value_is_load(const struct bpf_insn *in);

/*
 * Whether the kernel loads an ld_imm64 of map_fd's value (an array):
 * 1 yes, 0 no, -EMFILE/-ENFILE when no fd was left to ask with.
 */
int map_value_probe(int map_fd);

/*
 * Rewrites the lookup of map_fd's key 0 that starts with p's ld_imm64 at
 * insn (the map's relocation) into a read of the value's address, where
 * the code around it has the shape this needs: the map loaded into r1,
 * then only the key's and its pointer's set-up (no jump, nothing into
 * or out of r0 and r1, no jump from elsewhere landing among them) up to
 * the call of bpf_map_lookup_elem.  The pointer's set-up (r2) and the
 * call become jumps by 0.  A lookup already rewritten is given map_fd
 * again.  Returns 1 when rewritten, 0 when the shape is not there (the
 * caller relocates the lookup as it is).  Only for maps whose programs
 * look up key 0 alone: another key's lookup would not fail any more.
 */
int map_value_rewrite(struct obj_prog *p, size_t insn, int map_fd);

/*
 * After p's lookups were rewritten: the key's store of each (an ST or
 * STX into r10's frame just before its jumps by 0), where no load of
 * the stack, no other lookup's key (of its map's key_size, maps indexed
 * as p's relocations) and no other pointer made from r10 may read its
 * bytes, becomes a jump by 0, and so does the constant moved into r1
 * for it alone.  Returns how many instructions it dropped.
 */
int map_value_drop_keys(struct obj_prog *p, const struct obj_map *maps);

#endif
