/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names in a BTF string section, found in one pass through a window:
 * the offset of each string equal to a name asked for.  The BTF reader's
 * own business (btf.c).
 */
#ifndef EXT4DIST_LOADER_BTF_BTF_NAMES_H
#define EXT4DIST_LOADER_BTF_BTF_NAMES_H

#include <stdint.h>

#include "loader/btf/btf_src.h"
#include "loader/util/errbuf.h"

/*
 * The string section at [at, at + len) of src, read in order: for each
 * names[i] whose bit 1 << i is in *todo, offs[i] = first + the offset of
 * the first string equal to it, and its bit leaves *todo.  The pass ends
 * when *todo is empty, or at the section's end.  0, or -errno saying why.
 */
int btf_names_find(struct btf_src *src, uint64_t at, uint32_t len,
		   uint32_t first, const char *const names[], uint32_t *todo,
		   uint32_t offs[], struct errbuf *eb);

#endif
