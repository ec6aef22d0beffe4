/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program without its jumps by 0: the loader's rewrites (map_value.h)
 * leave them where a lookup's call, key or null test was, and the
 * verifier would drop them one at a time (opt_remove_nops, 5.1+:
 * a move of the program and of its aux data each), or keep them
 * before 5.1.  The program handed to the kernel is a compacted copy;
 * the object's own instructions stay as they are, their indices those
 * of its relocations.
 */
#ifndef EXT4DIST_LOADER_OBJ_NOPS_H
#define EXT4DIST_LOADER_OBJ_NOPS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

/*
 * Copies in[0..cnt) into out (room for cnt) without its jumps by 0
 * (map_value_is_nop), the offset of every jump adjusted to land where it
 * landed (on the next instruction kept, where it landed on a jump by 0).  at, when not NULL
 * (room for cnt + 1): at[i] is the copy's index of instruction i (of the
 * next one kept, for a jump by 0), at[cnt] the copy's length.  Returns
 * the copy's length; -ENOTSUP for a program with a bpf-to-bpf call or a
 * function's address (whose offsets it does not follow), -ERANGE for a
 * jump that lands outside the program.  out is not written then.
 */
long nops_compact(const struct bpf_insn *in, size_t cnt, struct bpf_insn *out,
		  uint32_t *at);

#endif
