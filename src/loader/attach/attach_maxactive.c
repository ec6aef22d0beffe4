// SPDX-License-Identifier: GPL-2.0
/*
 * Does kprobe_events honour "rN:"?  Only kretprobes defined there can be
 * given more instances than the kernel's default, which is one per
 * possible CPU on non-preemptible kernels before 6.0.
 */
#include "loader/attach/attach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

/*
 * 4.14 on document the syntax in tracefs's README: 1 when it does, 0
 * when not, or the read's -EMFILE/-ENFILE (said in why).
 */
static int readme_says_so(struct attach_ctx *ctx, struct errbuf *why)
{
	char *text = NULL;
	int yes, err;

	if (ctx->before_4_12)
		return 0;
	err = tracefs_read(&ctx->tf, "README", &text);
	if (errbuf_nofile(why, err, "cannot read %s/README", ctx->tf.dir))
		return err;
	if (err)
		return 0;
	yes = strstr(text, "r[maxactive]") != NULL;
	free(text);
	return yes;
}

/* 1 when event exists, 0 when not, -EMFILE/-ENFILE when it cannot tell. */
static int event_exists(struct attach_ctx *ctx, const char *event)
{
	char name[160], *text = NULL;
	int err;

	snprintf(name, sizeof(name), "events/kprobes/%s/id", event);
	err = tracefs_read(&ctx->tf, name, &text);
	if (errno_nofile(err))
		return err;
	if (err)
		return 0;
	free(text);
	return 1;
}

int attach_probe_maxactive(struct attach_ctx *ctx, const char *func,
			   struct errbuf *why)
{
	const struct probe_spec spec = {
		.kind = PROBE_RETURN, .func = func, .maxactive = 1,
		.prog_fd = -1,
	};
	char ev[64], line[192];
	int err;

	if (!ctx->tf.has_kprobe_events)
		return errbuf_set(why, -ENOENT, "no kprobe_events");
	err = readme_says_so(ctx, why);
	if (err < 0)
		return err;
	if (err) {
		vlog(1, "kprobe_events takes \"rN:\" (its README says so)");
		return 0;
	}
	attach_event_name(ctx, &spec, ev, sizeof(ev));
	/*
	 * Without the README's word, first a line that names no function,
	 * so the kernel looks nothing up and makes no event: 4.12 and 4.13
	 * read the count of "rN:" first and refuse one above 4096 with
	 * E2BIG; before 4.12 "r4097" is no count, and a return probe on an
	 * address is refused with EINVAL.
	 */
	snprintf(line, sizeof(line), "r4097:kprobes/%s 0\n", ev);
	kcall_why("does kprobe_events take \"rN:\"? a return probe at address 0 with 4097 instances: E2BIG (too many) = yes, 4.12+; EINVAL = an address for a return probe, before 4.12; nothing is created");
	err = kprobe_events_write(ctx, line);
	if (err == -E2BIG) {
		vlog(1, "kprobe_events takes \"rN:\" (it refused r4097 as too many)");
		return 0;
	}
	if (err == -EINVAL) {
		vlog(1, "kprobe_events ignores \"rN:\": it refused \"r4097:\" on an address as a return probe that names no symbol (before 4.12)");
		return errbuf_set(why, -EOPNOTSUPP,
				  "kprobe_events ignores \"rN:\" (kernel before 4.12)");
	}
	if (!err) {
		snprintf(line, sizeof(line), "-:kprobes/%s\n", ev);
		kcall_why("the kernel made that event after all: removed again");
		kprobe_events_write(ctx, line);
	}
	/* Neither answer: a definition on func itself decides. */
	snprintf(line, sizeof(line), "r1:kprobes/%s %s\n", ev, func);
	kcall_why("neither answer: a return probe with 1 instance on %s decides (before 4.12 the event is named r_%s_0)",
		  func, func);
	err = kprobe_events_write(ctx, line);
	if (errbuf_nofile(why, err, "cannot write %s/kprobe_events",
			  ctx->tf.dir))
		return err;
	if (err)
		return errbuf_set(why, err,
				  "kprobe_events refused \"r1:kprobes/%s %s\": %s",
				  ev, func, strerror(-err));
	err = event_exists(ctx, ev);
	if (err) {
		snprintf(line, sizeof(line), "-:kprobes/%s\n", ev);
		kcall_why("the test event: removed again");
		/* Through the descriptor kprobe_events keeps open. */
		kprobe_events_write(ctx, line);
		if (errbuf_nofile(why, err, "cannot read %s/events/kprobes/%s/id",
				  ctx->tf.dir, ev)) {
			/* Not known which name it took: before 4.12 this one. */
			snprintf(line, sizeof(line), "-:kprobes/r_%s_0\n", func);
			kprobe_events_write(ctx, line);
			return err;
		}
		vlog(1, "kprobe_events takes \"rN:\" (tried on %s)", func);
		return 0;
	}
	/* Before 4.12 the definition became event r_<func>_0: ours, remove it. */
	snprintf(line, sizeof(line), "-:kprobes/r_%s_0\n", func);
	kcall_why("the test event, as a kernel before 4.12 named it: removed again");
	err = kprobe_events_write(ctx, line);
	vlog(1, "kprobe_events ignores the count and name of \"r1:\" (before 4.12): the event it made as kprobes/r_%s_0 %s",
	     func, err ? "could not be removed" : "is removed again");
	return errbuf_set(why, -EOPNOTSUPP,
			  "kprobe_events ignores \"rN:\" (kernel before 4.12)");
}
