/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stop signals (run_loop_stop_set(), blocked by
 * run_loop_signals_setup()) as a descriptor, for the loops that wait in
 * poll(): ext4slower's on its event rings, the exporter's on its sockets.
 */
#ifndef EXT4DIST_TOOL_STOP_FD_H
#define EXT4DIST_TOOL_STOP_FD_H

/* A non-blocking signalfd of the stop signals, or -errno. */
int stop_fd_open(void);
/*
 * The number of a stop signal read from fd, 0 when none is pending (or
 * only the SIGXFSZ ext4dist's own failed write raised: no request to
 * stop).
 */
int stop_fd_read(int fd);

#endif
