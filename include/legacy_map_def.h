/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map definition as legacy loaders read it from an object's "maps"
 * section: one struct of u32s per map, named by its symbol.  Shared by the
 * BPF programs (which define maps with it) and the loader (which reads it).
 */
#ifndef EXT4DIST_LEGACY_MAP_DEF_H
#define EXT4DIST_LEGACY_MAP_DEF_H

struct legacy_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

#endif
