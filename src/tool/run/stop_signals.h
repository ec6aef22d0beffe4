/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signals that stop a run: blocked at start, then taken by whichever
 * loop waits (sigtimedwait() in the run loop, a signalfd in the loops
 * that wait in poll(): ext4slower's on its event rings, the exporter's
 * on its sockets, and the output's writer).
 */
#ifndef EXT4DIST_TOOL_STOP_SIGNALS_H
#define EXT4DIST_TOOL_STOP_SIGNALS_H

#include <signal.h>

/*
 * Blocks every signal whose default action ends the process, except the
 * synchronous faults (list and reasons in stop_signals.c), and installs
 * handlers for them (replacing an inherited SIG_IGN: a job started with &
 * from a script has SIGINT ignored).  Call before tracer_start so a signal
 * during start-up is not lost.  SIGPIPE is ignored: output errors end the
 * run through the normal path.
 */
int stop_signals_setup(void);

/* The signals stop_signals_setup() blocks and a run stops on. */
sigset_t stop_set(void);
/*
 * 1 for the SIGXFSZ the kernel sends ext4dist itself when a write passes
 * RLIMIT_FSIZE: the failed write reports it, it is no request to stop.
 */
int stop_own_xfsz(int signo, int code, int pid);

/* A stop signal already pending, taken: its number, or 0. */
int stop_take(void);
/* "INT", "QUIT", "RTMIN+3": a stop signal's name after "SIG". */
const char *stop_signal_name(int sig);

/* A non-blocking signalfd of the stop signals, or -errno. */
int stop_fd_open(void);
/*
 * The number of a stop signal read from fd, 0 when none is pending (or
 * only the SIGXFSZ ext4dist's own failed write raised: no request to
 * stop).
 */
int stop_fd_read(int fd);

#endif
