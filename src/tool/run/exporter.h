/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ext4dist as a Prometheus exporter (--listen): the HTTP server of
 * serve/ on the run loop's wait.  A scrape drains every tracer (into the
 * interval's report as well as the totals: tool/run/fleet.h) and is answered
 * with the totals in the text format, the --prometheus file's series.
 * Scrapes within EXPORTER_FRESH_MS of the last drain share its answer:
 * any number of scrapers cost at most one drain each such period.
 */
#ifndef EXT4DIST_TOOL_EXPORTER_H
#define EXT4DIST_TOOL_EXPORTER_H

#include <time.h>

#include "loader/util/errbuf.h"
#include "tool/run/fleet.h"

#define EXPORTER_FRESH_MS 100

struct exporter;

/*
 * Listening as --listen spec says (a socket bound now, before tracing
 * starts, or systemd's).  0, or -errno with the reason in eb.
 */
int exporter_open(struct exporter **x, const char *spec, struct errbuf *eb);
/* Scrapes are answered from fl's tracers from now on. */
void exporter_serve(struct exporter *x, struct fleet *fl);
/*
 * The run loop's wait, serving meanwhile: until deadline
 * (CLOCK_MONOTONIC; none when forever) or a stop signal.  Returns the
 * signal's number, 0 at the deadline, or -errno (a drain that failed
 * during a scrape, or poll()).
 */
int exporter_wait(struct exporter *x, const struct timespec *deadline,
		  int forever);
/* Every socket closed. */
void exporter_close(struct exporter *x);

#endif
