/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol lookup in a kallsyms-format file ("ADDR TYPE NAME[\t[MODULE]]"),
 * several names in one streaming pass with a fixed buffer.
 */
#ifndef EXT4DIST_LOADER_KSYM_KALLSYMS_H
#define EXT4DIST_LOADER_KSYM_KALLSYMS_H

#include <stddef.h>

#define KALLSYMS_PATH		"/proc/kallsyms"
/* Longer lines (without the '\n') are skipped and counted as malformed. */
#define KALLSYMS_MAX_LINE	8191
/* The kernel's MODULE_NAME_LEN is 56 with the NUL; longer ones are cut. */
#define KSYM_MODULE_LEN		64

/* Flags for kallsyms_lookup(). */
#define KSYM_SCAN_ALL	0x1	/* read to EOF even when all are found */

struct ksym_result {
	int found;
	unsigned long long addr;
	char type;			/* 'T', 't', 'R', 'd', ... */
	char module[KSYM_MODULE_LEN];	/* "ext4", or "" for the core */
	/* Later lines with the same name (ignored: the first one wins). */
	unsigned int dups;
	/* Those of them from another module, or core vs module. */
	unsigned int dups_elsewhere;
};

struct ksym_stats {
	unsigned long lines;		/* well-formed lines read */
	unsigned long nonzero;		/* ... with an address != 0 */
	unsigned long data;		/* ... of type d D b B r R */
	unsigned long malformed;	/* lines skipped, too long included */
	int complete;			/* 1: the file was read to its end */
};

/*
 * Looks names[0..n-1] up in the kallsyms-format file at path (NULL means
 * KALLSYMS_PATH) and fills out[0..n-1].  Stops reading as soon as every
 * name is found unless flags has KSYM_SCAN_ALL, so dups and stats only
 * cover the lines read.  stats may be NULL.
 *
 * Returns the number of names found (0..n), or:
 *   -EPERM   the file has well-formed lines but every address read is 0
 *            (kernel.kptr_restrict, or a reader without CAP_SYSLOG);
 *            out[] is still filled, with addresses 0
 *   -EINVAL  bad arguments (NULL or empty name)
 *   -errno   from open()/read()
 */
int kallsyms_lookup(const char *path, const char *const *names, size_t n,
		    unsigned int flags, struct ksym_result *out,
		    struct ksym_stats *stats);

/*
 * The first core-kernel text symbol (type T or t, no module) in the
 * kallsyms-format file at path: its name and address.  It comes within
 * the first lines (kallsyms lists the core kernel by address), so this is
 * cheap.  Unlike _text, which kernels built without CONFIG_KALLSYMS_ALL
 * leave out on some architectures (32-bit ARM), there always is one.
 * Returns 0, -ENOENT, -EPERM (addresses hidden), or -errno.
 */
int kallsyms_first_text(const char *path, char *name, size_t size,
			unsigned long long *addr);

/*
 * Whether a complete scan (KSYM_SCAN_ALL) shows the data symbols that only
 * CONFIG_KALLSYMS_ALL exports.  Heuristic: at least 1 in 20 well-formed
 * lines has a data type (d D b B r R).  With KALLSYMS_ALL a large share
 * of the symbols are data; without it only section markers such as
 * __start_rodata are (74 of 122,102 lines on a 6.18 kernel).  Returns 1
 * yes, 0 no, -EAGAIN if the scan was not complete or read no line.
 */
int kallsyms_stats_have_data(const struct ksym_stats *stats);

#endif
