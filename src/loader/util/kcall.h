/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -v narration of every kernel call the loader makes on a BPF or perf
 * object: one line as strace would print it ("bpf(BPF_MAP_CREATE,
 * {map_type=BPF_MAP_TYPE_ARRAY, ...}, 144) = 3"), with the fields that
 * matter and their values as strace spells them, then one "# " line
 * saying why.  The caller says why before the call (kcall_why()); the
 * wrapper that makes the call prints both lines.  Calls of start-up and
 * teardown are printed from -v; the map reads and writes of each
 * interval from -vv.
 */
#ifndef EXT4DIST_LOADER_UTIL_KCALL_H
#define EXT4DIST_LOADER_UTIL_KCALL_H

/* The reason for the next call printed (replaces one not used yet). */
void kcall_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Prints "<call> = <result>" and the reason at verbosity level: result
 * ret when ret >= 0, else "-1 ENAME (message)" of -ret, as strace.
 */
void kcall_log(int level, long ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* close(fd), narrated with the reason given as fmt; returns 0 or -errno. */
int kcall_close(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "-1 EINVAL (Invalid argument)" or "3": the result as strace prints it. */
const char *kcall_result(long ret, char *buf, unsigned long size);

#endif
