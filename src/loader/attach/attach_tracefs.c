// SPDX-License-Identifier: GPL-2.0
/* Back-end 2: kprobe_events in tracefs (every kernel with kprobe events). */
#include "loader/attach/attach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/attach/perf_event.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

#define GROUP "kprobes"

/* "r...:GROUP/EVENT 0x..." or "r... 123": a return probe on an address. */
static int return_probe_on_address(const char *line)
{
	const char *place;

	if (line[0] != 'r')
		return 0;
	place = strchr(line, ' ');
	return place && place[1] >= '0' && place[1] <= '9';
}

int kprobe_events_write(struct attach_ctx *ctx, const char *line)
{
	/* 4.9-4.11 refuse it: "Return probe point must be a symbol." */
	if (ctx->before_4_12 && return_probe_on_address(line)) {
		vlog(1, "--pretend=no-maxactive: \"%.*s\" refused with EINVAL without asking the kernel, as before 4.12",
		     (int)strcspn(line, "\n"), line);
		return -EINVAL;
	}
	return tracefs_write(&ctx->tf, "kprobe_events", line);
}

static int remove_event(struct attach_ctx *ctx, const char *event)
{
	char line[128];

	snprintf(line, sizeof(line), "-:" GROUP "/%s\n", event);
	kcall_why("remove event %s/%s: \"-:\" undefines it (EBUSY while a perf fd holds it)",
		  GROUP, event);
	return kprobe_events_write(ctx, line);
}

static int read_event_id(struct attach_ctx *ctx, const char *event, int *id)
{
	char name[160], *text = NULL;
	int err;

	snprintf(name, sizeof(name), "events/" GROUP "/%s/id", event);
	err = tracefs_read(&ctx->tf, name, &text);
	if (err)
		return err;
	*id = atoi(text);
	free(text);
	return *id > 0 ? 0 : -EINVAL;
}

/* Writes the definition of event; errors say what to do. */
static int define_event(struct attach_ctx *ctx, const struct probe_spec *spec,
			const char *event, const char *what,
			struct errbuf *eb)
{
	char def[192], maxactive[16] = "", place[100];
	int ret = spec->kind == PROBE_RETURN, by_addr, err;

	if (ret && spec->maxactive)
		snprintf(maxactive, sizeof(maxactive), "%u", spec->maxactive);
	/* By address where it is known: the kernel then skips its name lookup. */
	by_addr = spec->addr && !(ret && ctx->ret_by_name);
again:
	if (by_addr)
		snprintf(place, sizeof(place), "0x%llx", spec->addr);
	else
		snprintf(place, sizeof(place), "%s", spec->func);
	snprintf(def, sizeof(def), "%c%s:" GROUP "/%s %s\n",
		 ret ? 'r' : 'p', maxactive, event, place);
	kcall_why("define the %s: \"%c%s:\" = %s%s, event %s in group " GROUP ", at %s",
		  what, ret ? 'r' : 'p', maxactive,
		  ret ? "a return probe" : "an entry probe",
		  maxactive[0] ? " with that many instances (4.12+)" : "",
		  event, by_addr ? "the function's address (no name lookup)" :
		  "the function's name");
	err = kprobe_events_write(ctx, def);
	/* Before 4.12 a return probe must name a symbol: by name then. */
	if (err == -EINVAL && ret && by_addr) {
		vlog(1, "kprobe_events refused \"%.*s\" (return probes on an address arrived in 4.12): return probes by name",
		     (int)strlen(def) - 1, def);
		ctx->ret_by_name = 1;
		by_addr = 0;
		goto again;
	}
	if (err == -EINVAL &&
	    attach_refused_on_ftrace(ctx, what, spec->func, eb))
		return -EOPNOTSUPP;
	/* Before 4.12 "rN:" is a syntax error: EINVAL as for a bad symbol. */
	if (err == -ENOENT || err == -EINVAL)
		return errbuf_set(eb, -ENOENT,
				  "cannot create %s: kernel function %s not found or not probeable%s (writing \"%.*s\" to %s/kprobe_events: %s)",
				  what, spec->func,
				  maxactive[0] ? ", or maxactive unsupported (before 4.12)" : "",
				  (int)strlen(def) - 1, def, ctx->tf.dir,
				  strerror(-err));
	/*
	 * The name is taken: EEXIST from 5.x; before, the kernel replaces
	 * an unused event of that name and answers EBUSY for a used one.
	 */
	if (err == -EEXIST || err == -EBUSY)
		return errbuf_set(eb, err,
				  "cannot create %s: kprobe event %s/%s exists already (%s); if no %s runs, remove it with: echo '-:%s/%s' >> %s/kprobe_events",
				  what, GROUP, event, strerror(-err), ctx->prefix,
				  GROUP, event,
				  ctx->tf.dir);
	if (errbuf_nofile(eb, err, "cannot write %s/kprobe_events", ctx->tf.dir))
		return err;
	if (err)
		return errbuf_set(eb, err, "cannot write %s/kprobe_events: %s",
				  ctx->tf.dir, strerror(-err));
	vlog(1, "wrote \"%.*s\" to %s/kprobe_events", (int)strlen(def) - 1,
	     def, ctx->tf.dir);
	return 0;
}

static int open_tracepoint(int id)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (unsigned long long)id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	kcall_why("the kprobe_events definition as a perf event: tracepoint id %d from events/kprobes/<event>/id; while this fd is open the definition cannot be removed",
		  id);
	return perf_event_open_fd(&attr);
}

/* 1 when event exists with this id. */
static int event_is(struct attach_ctx *ctx, const char *event, int id)
{
	int now;

	return read_event_id(ctx, event, &now) == 0 && now == id;
}

/*
 * Defines event and opens it as a tracepoint: 0 with *fd set.  -EAGAIN
 * when the definition vanished before our perf fd held it: another
 * instance's start-up sweep (attach_remove_stale()) removes every
 * event of ours not in use.  Once opened, the event cannot be removed
 * (EBUSY); that it still exists under its id then proves the fd holds
 * it, and not an event that got the freed id meanwhile.
 */
static int define_and_open(struct attach_ctx *ctx,
			   const struct probe_spec *spec, const char *event,
			   const char *what, int *fd, int *id,
			   struct errbuf *eb)
{
	int err;

	err = define_event(ctx, spec, event, what, eb);
	if (err)
		return err;
	err = read_event_id(ctx, event, id);
	if (errbuf_nofile(eb, err, "cannot read the id of event %s/%s", GROUP,
			  event))
		goto err_remove;
	/*
	 * Gone already, or going (4.19 answers ENODEV for the id of an
	 * event whose directory a concurrent removal is tearing down).
	 */
	if (err == -ENOENT || err == -ENODEV)
		return -EAGAIN;
	if (err) {
		errbuf_set(eb, err, "cannot read the id of event %s/%s: %s",
			   GROUP, event, strerror(-err));
		goto err_remove;
	}
	*fd = open_tracepoint(*id);
	if (errbuf_nofile(eb, *fd, "perf_event_open on tracepoint %s/%s (id %d)",
			  GROUP, event, *id)) {
		err = *fd;
		goto err_remove;
	}
	if (*fd < 0 && !event_is(ctx, event, *id))
		return -EAGAIN;
	if (*fd < 0) {
		err = errbuf_set(eb, *fd,
				 "perf_event_open on tracepoint %s/%s (id %d) failed: %s",
				 GROUP, event, *id, strerror(-*fd));
		goto err_remove;
	}
	if (!event_is(ctx, event, *id)) {
		kcall_close(*fd, "event %s/%s went away before our fd held it: defined again", GROUP, event);
		return -EAGAIN;
	}
	return 0;
err_remove:
	remove_event(ctx, event);
	return err;
}

#define DEFINE_TRIES 4

static int tracefs_attach(struct attach_ctx *ctx,
			  const struct probe_spec *spec,
			  struct probe_link *link, struct errbuf *eb)
{
	const char *kind = spec->kind == PROBE_RETURN ? "kretprobe" : "kprobe";
	char event[64], what[160];
	int id = 0, fd = -1, err = -EAGAIN, i;

	attach_event_name(ctx, spec, event, sizeof(event));
	snprintf(what, sizeof(what), "%s %s", kind, spec->func);
	for (i = 0; i < DEFINE_TRIES && err == -EAGAIN; i++) {
		err = define_and_open(ctx, spec, event, what, &fd, &id, eb);
		if (err == -EAGAIN)
			vlog(1, "event %s/%s was removed before we opened it (another %s's start-up sweep): defining it again",
			     GROUP, event, ctx->prefix);
	}
	if (err == -EAGAIN)
		return errbuf_set(eb, -EAGAIN,
				  "cannot create %s: event %s/%s was removed %d times before it could be opened (other %s instances starting?); try again",
				  what, GROUP, event, DEFINE_TRIES, ctx->prefix);
	if (err)
		return err;
	err = perf_set_bpf_and_enable(fd, spec->prog_fd, what, eb);
	if (err) {
		kcall_close(fd, "%s: its program could not be attached", what);
		remove_event(ctx, event);
		return err;
	}
	link->ops = &attach_tracefs_ops;
	link->perf_fd = fd;
	snprintf(link->event, sizeof(link->event), "%s", event);
	vlog(1, "attached %s via tracefs: event %s/%s, id %d, perf fd %d",
	     what, GROUP, event, id, fd);
	return 0;
}

static void tracefs_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	int err;

	/* The event is busy while a perf fd holds it: close first. */
	if (link->perf_fd >= 0)
		kcall_close(link->perf_fd, "event %s/%s: closed first, since the kernel refuses to remove an event in use (EBUSY)",
			    GROUP, link->event);
	link->perf_fd = -1;
	if (!link->event[0])
		return;
	err = remove_event(ctx, link->event);
	/* Unused now: another instance's start-up sweep may be first. */
	if (err == -ENOENT)
		vlog(1, "kprobe event %s/%s already removed (by another %s's start-up sweep)",
		     GROUP, link->event, ctx->prefix);
	else if (err)
		vwarn("could not remove kprobe event %s/%s: %s", GROUP,
		      link->event, strerror(-err));
	else
		vlog(1, "removed kprobe event %s/%s", GROUP, link->event);
	link->event[0] = '\0';
}

const struct attach_ops attach_tracefs_ops = {
	.name = "tracefs",
	.attach = tracefs_attach,
	.detach = tracefs_detach,
};

int kprobe_event_owner(const char *line, const char *prefix, long *pid,
		       char *event, size_t size)
{
	const char *colon = strchr(line, ':'), *name, *slash, *end;
	size_t plen = strlen(prefix), len;
	char *num_end;

	if (!colon)
		return -ENOENT;
	slash = strchr(colon, '/');
	end = strpbrk(colon, " \n");
	if (!slash || !end || slash > end ||
	    strncmp(colon + 1, GROUP "/", sizeof(GROUP)) != 0)
		return -ENOENT;
	name = slash + 1;
	if (strncmp(name, prefix, plen) || name[plen] != '_')
		return -ENOENT;
	errno = 0;
	*pid = strtol(name + plen + 1, &num_end, 10);
	if (errno || num_end == name + plen + 1 || *num_end != '_' ||
	    *pid <= 0)
		return -ENOENT;
	len = (size_t)(end - name);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(event, name, len);
	event[len] = '\0';
	return 0;
}

int attach_remove_stale(struct attach_ctx *ctx)
{
	char *text = NULL, *line, *next;
	int removed = 0, err;

	if (!ctx->tf.has_kprobe_events ||
	    tracefs_read(&ctx->tf, "kprobe_events", &text))
		goto out;
	for (line = text; line && *line; line = next) {
		char event[64];
		long pid;

		next = strchr(line, '\n');
		if (next)
			next++;
		if (kprobe_event_owner(line, ctx->prefix, &pid, event,
				       sizeof(event)))
			continue;
		/* In use (EBUSY): a live ext4dist holds it.  Else stale. */
		err = remove_event(ctx, event);
		if (!err) {
			removed++;
			vlog(1, "removed stale kprobe event %s/%s (in use by no process: the %s that made it is gone)",
			     GROUP, event, ctx->prefix);
		} else if (err == -EBUSY) {
			vlog(2, "kept kprobe event %s/%s: in use (a running %s)",
			     GROUP, event, ctx->prefix);
		}
	}
	free(text);
out:
	return removed;
}
