// SPDX-License-Identifier: GPL-2.0
#include "tool/run/slow_loop.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loader/util/text_pages.h"
#include "output/report.h"
#include "output/slow.h"
#include "output/tool_name.h"
#include "tool/run/fleet.h"
#include "tool/run/outq.h"
#include "tool/run/run_loop.h"
#include "tool/run/stop_signals.h"

struct printer {
	FILE *out;
	enum slow_format fmt;
	time_t now;
	unsigned long long short_records;
	int err;
	struct heatmap *heat;		/* --heatmap: each event in it */
	const char *fs;
	int heat_err;
};

static int on_event(void *arg, const void *data, uint32_t size)
{
	struct printer *p = arg;
	struct slow_event ev;

	/* The kernel pads the payload to 8 bytes after the u32 size. */
	if (size < sizeof(ev)) {
		p->short_records++;
		return 0;
	}
	memcpy(&ev, data, sizeof(ev));
	if (p->heat && !p->heat_err)
		p->heat_err = heat_add_event(p->heat,
					     (unsigned int)heat_panel_of(p->heat,
									  p->fs,
									  ev.op),
					     ev.end_ns, ev.delta_ns);
	p->err = slow_event_print(p->out, p->fmt, &ev, p->now);
	if (p->err == -EIO && outq_error())
		p->err = outq_error();
	return p->err ? 1 : 0;
}

/*
 * Every event written so far, printed; BCC's own line for each loss the
 * kernel reports.  0 or -errno (output).
 */
static int drain_events(struct tracer *t, struct printer *p,
			struct perf_ring_stats *st)
{
	unsigned long long lost = st->lost;

	p->now = time(NULL);
	perf_buf_drain(tracer_events(t), on_event, p, st);
	if (st->lost != lost)
		fprintf(stderr, "Possibly lost %llu samples\n", st->lost - lost);
	if (p->err)
		return p->err;
	/* stdout's own write error (outq.h) says more than stdio's. */
	if (fflush(p->out))
		return outq_error() ? outq_error() : -EIO;
	return 0;
}

int slow_loop_rings_fit(unsigned int pages, const char *meminfo,
			struct errbuf *eb)
{
	static struct cpu_list online;	/* 32 KiB: not on the stack */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const char *path = meminfo ? meminfo : "/proc/meminfo";
	unsigned long long mem, need;
	unsigned int most;
	int err;

	err = cpus_online(&online);
	if (errbuf_nofile(eb, err, "cannot read /sys/devices/system/cpu/online"))
		return err;
	if (err)
		return errbuf_set(eb, err,
				  "cannot read /sys/devices/system/cpu/online: %s",
				  strerror(-err));
	err = meminfo_total(meminfo, &mem);
	if (errbuf_nofile(eb, err, "cannot read %s", path))
		return err;
	if (err)
		return errbuf_set(eb, err,
				  "cannot tell this machine's memory (MemTotal in %s): %s",
				  path, strerror(-err));
	most = perf_buf_max_pages(online.n, mem, page);
	if (pages <= most)
		return 0;
	need = (unsigned long long)(online.n + 1) * pages * page;
	if (!most)
		return errbuf_set(eb, -ENOMEM,
				  "--ring-pages %u: not even rings of one page fit this machine: %u (one per online CPU) and the reader's copy of one would take %llu KiB, more than a sixteenth of its memory (%llu KiB, MemTotal in %s)",
				  pages, online.n, (online.n + 1ULL) * page >> 10,
				  mem >> 10, path);
	return errbuf_set(eb, -ENOMEM,
			  "--ring-pages %u: %u event rings of that many pages (one per online CPU) and the reader's copy of one would take %llu MiB, more than a sixteenth of this machine's memory (%llu MiB, MemTotal in %s); --ring-pages %u at most here",
			  pages, online.n, need >> 20, mem >> 20, path, most);
}

/* One drain of the accounting into r: its losses only, not its slots. */
static int account(struct tracer *t, struct report *r)
{
	struct op_hist ops[NR_OPS];
	struct op_flow flow[NR_OPS];
	unsigned int op;
	int err = tracer_drain(t, ops, flow, NULL, NULL);

	if (err)
		return err;
	for (op = 0; op < NR_OPS; op++) {
		r->ops[op].stolen += ops[op].stolen;
		report_add_flow(&r->flow[op], &flow[op]);
	}
	return 0;
}

/* The stop's settling (tracer_settle()): the events of each step too. */
struct settling {
	struct tracer *t;
	struct printer *p;
	struct perf_ring_stats *st;
	struct report *r;
};

static long long settle_drain(void *ctx)
{
	struct settling *s = ctx;
	int err = account(s->t, s->r);

	if (!err)
		err = drain_events(s->t, s->p, s->st);
	return err ? err : (long long)report_in_flight(s->r);
}

/*
 * After a stop: the calls in flight are given their time to end (their
 * events printed too), then what is left in the rings is read.
 */
static int finish(struct tracer *t, struct printer *p,
		  struct perf_ring_stats *st, struct report *r)
{
	struct settling s = { t, p, st, r };
	int err = tracer_settle(t, settle_drain, &s);

	r->final = 1;
	return err ? err : drain_events(t, p, st);
}

/* The losses, with their numbers, on stderr. */
static void report_losses(struct tracer *t, const struct printer *p,
			  const struct perf_ring_stats *st,
			  const struct report *r)
{
	struct slow_stats ss;
	unsigned long long lost;

	report_warnings(stderr, r, tracer_missed_reason(t));
	if (tracer_slow_stats(t, &ss))
		memset(&ss, 0, sizeof(ss));
	vlog(1, "events: %llu sent, %llu received, %llu refused by the kernel; %llu lost by the kernel's count",
	     ss.sent, st->samples, ss.failed, st->lost);
	/*
	 * Refused sends are lost events.  Before 5.4 the helper returns 0
	 * even when the ring was full (perf_event_output() returned
	 * nothing): those are the sent ones never read.  The kernel's
	 * PERF_RECORD_LOST counts the same drops, but comes only with the
	 * next event that finds room.
	 */
	lost = ss.failed + (ss.sent > st->samples ? ss.sent - st->samples : 0);
	if (lost)
		fprintf(stderr, "%s: warning: %llu event%s lost: the event rings were full; a higher min_ms or a larger --ring-pages keeps up\n",
			tool_name(), lost, lost == 1 ? "" : "s");
	if (st->bad || p->short_records)
		fprintf(stderr, "%s: warning: %llu malformed record%s skipped in the event rings\n",
			tool_name(), st->bad + p->short_records,
			st->bad + p->short_records == 1 ? "" : "s");
}

/* --heatmap: the events drawn once the run is over. */
static void heat_end(struct printer *p, const char *path)
{
	int err = p->heat_err ? p->heat_err : heat_write_file(path, p->heat);

	if (err)
		fprintf(stderr, "%s: cannot write %s: %s\n", tool_name(), path,
			strerror(-err));
	heat_free(p->heat);
}

int slow_loop(struct tracer *t, const struct run_print *pr, FILE *out)
{
	struct perf_buf *pb = tracer_events(t);
	struct printer p = {
		.out = out,
		.fmt = pr->json ? SLOW_JSON : pr->csv ? SLOW_CSV : SLOW_TEXT,
	};
	struct perf_ring_stats st;
	struct heatmap heat;
	struct pollfd *fds;
	struct report r;
	int sfd, stopped = 0, err;

	memset(&st, 0, sizeof(st));
	memset(&r, 0, sizeof(r));
	r.ops_mask = tracer_ops_mask(t);
	r.start_slots = tracer_record(t)->start_slots;
	r.pid_filter = pr->pid_filter;
	r.final = 0;
	/* JSON keeps stdout parseable: the banner goes to stderr there. */
	err = pr->json ? slow_banner(stderr, tracer_fs(t)->label, pr->min_ms) :
			slow_header(out, p.fmt, tracer_fs(t)->label, pr->min_ms);
	if (err || fflush(out))
		return err ? err : -errno;
	/* Start-up's text, done with (text_pages.c). */
	text_pages_drop();
	if (pr->heatmap) {
		err = fleet_heat_init(&heat, &t, 1, 1000000000ULL, 0);
		if (err)
			return err;
		heat.events = 1;
		p.heat = &heat;
		p.fs = tracer_fs(t)->name;
	}
	sfd = stop_fd_open();
	if (sfd < 0)
		return sfd;
	fds = calloc(pb->n + 1, sizeof(*fds));
	if (!fds) {
		close(sfd);
		return -ENOMEM;
	}
	perf_buf_pollfds(pb, fds);
	fds[pb->n].fd = sfd;
	fds[pb->n].events = POLLIN;
	while (!stopped) {
		if (poll(fds, pb->n + 1, -1) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		if (fds[pb->n].revents)
			stopped = stop_fd_read(sfd);
		/*
		 * Taken from the signalfd, the stop is gone for outq's own
		 * look for one: from here on no write may wait for room.
		 */
		if (stopped)
			outq_stopping();
		err = drain_events(t, &p, &st);
		if (err)
			break;
		/* Taken while the output waited for room. */
		if (!stopped)
			stopped = outq_stop_signal();
	}
	free(fds);
	close(sfd);
	/* The last events wait for no reader: the probes go first. */
	outq_stopping();
	if (!err)
		err = finish(t, &p, &st, &r);
	report_losses(t, &p, &st, &r);
	if (p.heat)
		heat_end(&p, pr->heatmap);
	return err ? err : stopped;
}
