/* Back-end 2: kprobe_events in tracefs (every kernel with kprobe events). */
#include "loader/attach.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/perf_event.h"
#include "loader/vlog.h"

#define GROUP "kprobes"

static int remove_event(struct attach_ctx *ctx, const char *event)
{
	char line[128];

	snprintf(line, sizeof(line), "-:" GROUP "/%s\n", event);
	return tracefs_write(&ctx->tf, "kprobe_events", line);
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

static int tracefs_attach(struct attach_ctx *ctx,
			  const struct probe_spec *spec,
			  struct probe_link *link, struct errbuf *eb)
{
	const char *kind = spec->kind == PROBE_RETURN ? "kretprobe" : "kprobe";
	struct perf_event_attr attr;
	char event[64], def[192], what[160], maxactive[16] = "", place[100];
	int id, fd, err;

	attach_event_name(ctx, spec, event, sizeof(event));
	snprintf(what, sizeof(what), "%s %s", kind, spec->func);
	if (spec->kind == PROBE_RETURN && spec->maxactive)
		snprintf(maxactive, sizeof(maxactive), "%u", spec->maxactive);
	/* By address where it is known: the kernel then skips its name lookup. */
	if (spec->addr)
		snprintf(place, sizeof(place), "0x%llx", spec->addr);
	else
		snprintf(place, sizeof(place), "%s", spec->func);
	snprintf(def, sizeof(def), "%c%s:" GROUP "/%s %s\n",
		 spec->kind == PROBE_RETURN ? 'r' : 'p', maxactive, event,
		 place);
	err = tracefs_write(&ctx->tf, "kprobe_events", def);
	if (err) {
		/* Before 4.12 "rN:" is a syntax error: EINVAL as for a bad symbol. */
		if (err == -ENOENT || err == -EINVAL)
			return errbuf_set(eb, -ENOENT,
					  "cannot create %s: kernel function %s not found or not probeable%s (writing \"%.*s\" to %s/kprobe_events: %s)",
					  what, spec->func,
					  maxactive[0] ? ", or maxactive unsupported (before 4.12)" : "",
					  (int)strlen(def) - 1, def, ctx->tf.dir,
					  strerror(-err));
		return errbuf_set(eb, err, "cannot write %s/kprobe_events: %s",
				  ctx->tf.dir, strerror(-err));
	}
	vlog(1, "wrote \"%.*s\" to %s/kprobe_events", (int)strlen(def) - 1,
	     def, ctx->tf.dir);
	err = read_event_id(ctx, event, &id);
	if (err) {
		errbuf_set(eb, err, "cannot read the id of event %s/%s: %s",
			   GROUP, event, strerror(-err));
		goto err_remove;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (unsigned long long)id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	fd = perf_event_open_fd(&attr);
	if (fd < 0) {
		err = errbuf_set(eb, fd,
				 "perf_event_open on tracepoint %s/%s (id %d) failed: %s",
				 GROUP, event, id, strerror(-fd));
		goto err_remove;
	}
	err = perf_set_bpf_and_enable(fd, spec->prog_fd, what, eb);
	if (err) {
		close(fd);
		goto err_remove;
	}
	link->ops = &attach_tracefs_ops;
	link->perf_fd = fd;
	snprintf(link->event, sizeof(link->event), "%s", event);
	vlog(1, "attached %s via tracefs: event %s/%s, id %d, perf fd %d",
	     what, GROUP, event, id, fd);
	return 0;
err_remove:
	remove_event(ctx, event);
	return err;
}

static void tracefs_detach(struct attach_ctx *ctx, struct probe_link *link)
{
	int err;

	/* The event is busy while a perf fd holds it: close first. */
	if (link->perf_fd >= 0)
		close(link->perf_fd);
	link->perf_fd = -1;
	if (!link->event[0])
		return;
	err = remove_event(ctx, link->event);
	if (err)
		fprintf(stderr, "ext4dist: warning: could not remove kprobe event %s/%s: %s\n",
			GROUP, link->event, strerror(-err));
	else
		vlog(1, "removed kprobe event %s/%s", GROUP, link->event);
	link->event[0] = '\0';
}

const struct attach_ops attach_tracefs_ops = {
	.name = "tracefs",
	.attach = tracefs_attach,
	.detach = tracefs_detach,
};

/* Is pid a live process called <prefix>?  pid reuse makes kill(0) not enough. */
static int owner_alive(const char *prefix, long pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return errno != ENOENT;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, prefix) == 0;
}

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
	int removed = 0;

	if (!ctx->tf.has_kprobe_events ||
	    tracefs_read(&ctx->tf, "kprobe_events", &text))
		return 0;
	for (line = text; line && *line; line = next) {
		char event[64];
		long pid;

		next = strchr(line, '\n');
		if (next)
			next++;
		if (kprobe_event_owner(line, ctx->prefix, &pid, event,
				       sizeof(event)) ||
		    pid == ctx->pid || owner_alive(ctx->prefix, pid))
			continue;
		if (remove_event(ctx, event) == 0) {
			removed++;
			vlog(1, "removed stale kprobe event %s/%s (pid %ld is gone)",
			     GROUP, event, pid);
		}
	}
	free(text);
	return removed;
}

int attach_tracefs_missed(struct attach_ctx *ctx,
			  const struct probe_link *links, unsigned int n,
			  unsigned long long *missed)
{
	char *text = NULL, *line, *next;
	unsigned int i, ours = 0;
	int err;

	for (i = 0; i < n; i++)
		ours += links[i].ops == &attach_tracefs_ops && links[i].event[0];
	if (!ours)
		return -ENOTSUP;
	err = tracefs_read(&ctx->tf, "kprobe_profile", &text);
	if (err)
		return err;
	*missed = 0;
	/* "  <event>   <hits>   <misses>", one line per kprobe event. */
	for (line = text; line && *line; line = next) {
		char name[64];
		unsigned long long hits, miss;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%63s %llu %llu", name, &hits, &miss) != 3)
			continue;
		for (i = 0; i < n; i++)
			if (links[i].ops == &attach_tracefs_ops &&
			    strcmp(links[i].event, name) == 0)
				*missed += miss;
	}
	free(text);
	return 0;
}
