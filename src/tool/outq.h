/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output that cannot hold a run hostage.  A run (and --check) blocks its
 * stop signals and waits for them itself; a write(2) to a pipe nobody
 * reads, a terminal paused with Ctrl-S or a stalled journald would sit
 * there for good, signals pending, probes in.  So stdout and stderr go
 * through a queue that one thread of their own writes out, in order:
 * the run never waits on a reader, except for room in the queue, and
 * that wait ends on a stop signal too.
 */
#ifndef EXT4DIST_TOOL_OUTQ_H
#define EXT4DIST_TOOL_OUTQ_H

#include <stddef.h>

/*
 * What the queue holds before a writer waits for room: a reader that
 * keeps up never lets it fill; one that is slow holds the run back (no
 * output is dropped while it reads on).
 */
#define OUTQ_CAP		(1u << 20)
/*
 * At the end, how long the rest of the output is given: as long as the
 * reader takes some every OUTQ_STALL_MS, at most OUTQ_MAX_MS in all, or
 * until another stop signal.
 */
#define OUTQ_STALL_MS		1000
#define OUTQ_MAX_MS		10000

/*
 * Starts the writer thread and points stdout and stderr (the FILE
 * pointers) at the queue.  Call after run_loop_signals_setup(), before
 * anything is printed.  0 or -errno (nothing changed then).
 */
int outq_start(void);

/*
 * len bytes of data for fd 1 or 2, in order with what went before.
 * Waits for room while the queue is full, until a stop signal comes
 * (outq_stop_signal() then has it, and from then on stdout's text that
 * does not fit is dropped, and counted; stderr's, the stop's messages,
 * is kept).  0, or stdout's -errno once a write to it failed (EPIPE: its
 * reader went away).
 */
int outq_write(int fd, const void *data, size_t len);

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
 * Flushes stdout and stderr into the queue and waits for the writer to
 * write it all, as long as OUTQ_STALL_MS and OUTQ_MAX_MS allow.  When
 * the reader did not take it all, what remains of stderr is handed to a
 * writer of its own (OUTQ_STALL_MS more at most), after line, if not
 * NULL, which says what was lost; the stuck writer is left behind (the
 * process is about to exit).  Fills *r.  A no-op without outq_start().
 */
void outq_finish(struct outq_result *r,
		 void (*line)(char *buf, size_t size,
			      const struct outq_result *r, void *arg),
		 void *arg);

#endif
