/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output that cannot hold a run hostage.  A run (and --check) blocks its
 * stop signals and waits for them itself; a blocking write(2) to a pipe
 * nobody reads, a terminal paused with Ctrl-S or a stalled journald
 * would sit there for good, signals pending, probes in.  So stdout and
 * stderr are written without blocking: through descriptors of their own
 * opened O_NONBLOCK on the same pipe or terminal (a reopen of
 * /proc/self/fd/N: the caller's, which others may share, keep their
 * flags), with MSG_DONTWAIT on a socket; regular files are written as
 * they are.  A write that cannot go on waits for room, and a stop signal
 * ends that wait; once the run stops nothing waits any more: what does
 * not go is kept (1 MiB of stdout at most), in order, for outq_finish().
 * Without /proc a pipe or terminal is written as it is (blocking).
 */
#ifndef EXT4DIST_TOOL_OUTQ_H
#define EXT4DIST_TOOL_OUTQ_H

#include <stddef.h>

/* What is kept of stdout once the run stopped and its reader did not read. */
#define OUTQ_CAP		(1u << 20)
/*
 * At the end, how long what is kept is given: as long as the reader
 * takes some every OUTQ_STALL_MS, at most OUTQ_MAX_MS in all, or until
 * another stop signal.
 */
#define OUTQ_STALL_MS		1000
#define OUTQ_MAX_MS		10000

/*
 * Points stdout and stderr (the FILE pointers) at the non-blocking
 * writer.  Call after stop_signals_setup(), before anything is
 * printed.  0 or -errno (nothing changed then).
 */
int outq_start(void);

/*
 * len bytes of data for fd 1 or 2, in order with what went before.
 * Waits for room while the reader is behind, until a stop signal comes
 * (outq_stop_signal() then has it); from then on, or after
 * outq_stopping(), nothing waits.  0, or stdout's -errno once a write to
 * it failed (EPIPE: its reader went away).
 */
int outq_write(int fd, const void *data, size_t len);

/* The run stops: from now on no write waits for its reader. */
void outq_stopping(void);

/* stdout's failed write, as -errno, or 0. */
int outq_error(void);

/* The stop signal taken while waiting for room, 0 if none. */
int outq_stop_signal(void);

/* What became of the output, once outq_finish() has returned. */
struct outq_result {
	int err;			/* stdout's write error, -errno, or 0 */
	unsigned long long lost;	/* bytes of stdout not written */
	unsigned long long lost_stderr;	/* and of stderr */
	unsigned int waited_ms;		/* how long the end waited for them */
};

/*
 * Flushes stdout and stderr and gives what is kept to the reader as long
 * as OUTQ_STALL_MS and OUTQ_MAX_MS allow; then, when output was lost,
 * writes line (if not NULL), which says so, to stderr as far as stderr
 * takes it at once.  Fills *r, puts stdout and stderr back.  A no-op
 * without outq_start().
 */
void outq_finish(struct outq_result *r,
		 void (*line)(char *buf, size_t size,
			      const struct outq_result *r, void *arg),
		 void *arg);

#endif
