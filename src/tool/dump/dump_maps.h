/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --dump-maps: what one bpf(BPF_MAP_LOOKUP_ELEM) of the histogram map
 * returned, before the values are summed: each CPU's count of each slot,
 * and the sum the histogram shows.  A learning aid; on stderr.
 */
#ifndef EXT4DIST_TOOL_DUMP_MAPS_H
#define EXT4DIST_TOOL_DUMP_MAPS_H

#include <stddef.h>
#include <stdio.h>

#include "ext4dist_abi.h"

/*
 * Prints the n values (one per possible CPU of a per-CPU map, or the one
 * value of a plain array when percpu is 0) of the hist map at key, the
 * buffer of operation key % NR_OPS: a header line, then per non-zero
 * slot (bounds in unit, as the histogram prints them) and per non-zero
 * untimed count (queued, errors, stolen) each CPU's number and the sum:
 *
 *   ext4dist: map hist, key 3 (fsync, buffer 0): 2 per-CPU values
 *   ext4dist:   slot 12 (2048 -> 4095 usecs): cpu0 3 + cpu1 8 = 11
 *
 * Returns 0, or -EIO if writing failed.
 */
int dump_maps_hist(FILE *f, unsigned int key, const struct op_hist *vals,
		   size_t n, int percpu, const char *unit);

#endif
