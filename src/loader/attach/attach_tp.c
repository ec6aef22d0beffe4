// SPDX-License-Identifier: GPL-2.0
/*
 * Back-end 5: a kernel tracepoint (4.7+ for BPF programs on them).  The
 * event exists already, compiled into the kernel: nothing is defined or
 * removed, only its id is read from tracefs and opened as a perf event,
 * which holds the program while its fd is open.  The event's format file
 * says where each field of its record lies, the program's context.
 */
#include "loader/attach/attach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/attach/perf_event.h"
#include "loader/util/kcall.h"
#include "loader/util/vlog.h"

/*
 * One "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line: 1 when its
 * name is field (the last word before ';', an array's "[...]" cut).
 */
static int field_line(const char *line, const char *field, int *off,
		      int *size, int *is_signed)
{
	const char *decl = strstr(line, "field:"), *end, *name;
	size_t len = strlen(field);

	if (!decl)
		return 0;
	end = strchr(decl, ';');
	if (!end)
		return 0;
	name = end;
	while (name > decl && name[-1] != ' ' && name[-1] != '\t')
		name--;
	if ((size_t)(end - name) < len || strncmp(name, field, len) ||
	    (name + len != end && name[len] != '['))
		return 0;
	return sscanf(end, ";%*[ \t]offset:%d;%*[ \t]size:%d;%*[ \t]signed:%d;",
		      off, size, is_signed) == 3;
}

int tp_format_field(const char *format, const char *field, int *off,
		    int *size, int *is_signed)
{
	const char *line = format;

	while (line && *line) {
		if (field_line(line, field, off, size, is_signed))
			return *off >= 0 && *size > 0 ? 0 : -EINVAL;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

int attach_probe_tracepoint(struct attach_ctx *ctx, const char *group,
			    const char *event, const char *field,
			    struct tp_event *tp, struct errbuf *why)
{
	char name[192], *text = NULL;
	struct errbuf eb;
	int err;

	memset(tp, 0, sizeof(*tp));
	snprintf(tp->group, sizeof(tp->group), "%s", group);
	snprintf(tp->event, sizeof(tp->event), "%s", event);
	if (!ctx->tf.dir[0] && tracefs_open(&ctx->tf, ctx->paths, 1, &eb))
		return errbuf_set(why, -ENOENT, "%s", eb.msg);
	snprintf(name, sizeof(name), "events/%s/%s/id", group, event);
	err = tracefs_read(&ctx->tf, name, &text);
	if (!err)
		tp->id = atoi(text);
	free(text);
	text = NULL;
	if (err || tp->id <= 0)
		return errbuf_set(why, err ? err : -EINVAL,
				  "no tracepoint %s:%s (%s/%s: %s)", group, event,
				  ctx->tf.dir, name,
				  err ? strerror(-err) : "not a number");
	if (!field) {
		vlog(1, "tracepoint %s:%s: id %d", group, event, tp->id);
		return 0;
	}
	snprintf(name, sizeof(name), "events/%s/%s/format", group, event);
	err = tracefs_read(&ctx->tf, name, &text);
	if (err)
		return errbuf_set(why, err, "cannot read %s/%s: %s", ctx->tf.dir,
				  name, strerror(-err));
	err = tp_format_field(text, field, &tp->field_off, &tp->field_size,
			      &tp->field_signed);
	free(text);
	if (err)
		return errbuf_set(why, err, "%s/%s has no field \"%s\"",
				  ctx->tf.dir, name, field);
	snprintf(tp->field, sizeof(tp->field), "%s", field);
	vlog(1, "tracepoint %s:%s: id %d; field %s at offset %d, %d bytes, %s (its format file)",
	     group, event, tp->id, field, tp->field_off, tp->field_size,
	     tp->field_signed ? "signed" : "unsigned");
	return 0;
}

int attach_tracepoint(const struct tp_event *tp, int prog_fd,
		      struct probe_link *link, struct errbuf *eb)
{
	struct perf_event_attr attr;
	char what[160];
	int fd, err;

	snprintf(what, sizeof(what), "tracepoint %s:%s", tp->group, tp->event);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (unsigned long long)tp->id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	kcall_why("%s as a perf event: its id %d from events/%s/%s/id; the kernel compiled the event in, so nothing is defined or removed",
		  what, tp->id, tp->group, tp->event);
	fd = perf_event_open_fd(&attr);
	if (fd < 0)
		return errbuf_set(eb, fd, "perf_event_open on %s (id %d) failed: %s",
				  what, tp->id, strerror(-fd));
	err = perf_set_bpf_and_enable(fd, prog_fd, what, eb);
	if (err) {
		kcall_close(fd, "%s: its program could not be attached", what);
		return err;
	}
	link->ops = &attach_tp_ops;
	link->perf_fd = fd;
	snprintf(link->event, sizeof(link->event), "%s", tp->event);
	vlog(1, "attached %s: id %d, perf fd %d", what, tp->id, fd);
	return 0;
}

static void tp_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	(void)ctx;
	if (link->perf_fd >= 0)
		kcall_close(link->perf_fd, "tracepoint %s: closing its perf event takes the program off (the event stays: the kernel's own)",
			    link->event);
	link->perf_fd = -1;
	link->event[0] = '\0';
}

const struct attach_ops attach_tp_ops = {
	.name = "tracepoint",
	.attach = NULL,
	.detach = tp_detach,
};
