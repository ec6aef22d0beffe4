// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/plan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "output/tool_name.h"
#include "tool/fs/fs.h"

#define MAXACTIVE_MIN	64
#define MAXACTIVE_MAX	4096	/* KRETPROBE_MAXACTIVE_MAX */

unsigned int plan_default_maxactive(unsigned int possible_cpus)
{
	unsigned long n = 4UL * possible_cpus;

	if (n < MAXACTIVE_MIN)
		n = MAXACTIVE_MIN;
	if (n > MAXACTIVE_MAX)
		n = MAXACTIVE_MAX;
	return (unsigned int)n;
}

const char *plan_path_name(enum attach_mode path)
{
	switch (path) {
	case ATTACH_MULTI:
		return "kprobe_multi";
	case ATTACH_TRACEFS:
		return "tracefs";
	case ATTACH_PMU:
		return "pmu";
	case ATTACH_FENTRY:
		return "fentry";
	case ATTACH_TRACEPOINT:
		return "tracepoint";
	default:
		return "none";
	}
}

static int has(const struct attach_caps *caps, enum cap_id id)
{
	return caps->c[id].state == CAP_YES;
}

static int choose(struct attach_choice *choice, enum attach_mode path,
		  unsigned int maxactive, const char *why)
{
	choice->path = path;
	choice->maxactive = maxactive;
	snprintf(choice->why, sizeof(choice->why), "%s", why);
	return 0;
}

/* Neither kind of kprobe: nothing can be done on this kernel. */
static int no_kprobes(const struct attach_caps *caps, struct errbuf *eb)
{
	return errbuf_set(eb, -EOPNOTSUPP,
			  "this kernel has no kprobes: there is no kprobe PMU (%s) and no kprobe_events in %s; %s needs a kernel built with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y",
			  caps->pmu_dir, caps->tracing_dir, tool_name());
}

/* tracefs with "rN:" where the kernel honours it, else its default. */
static int tracefs_sized(const struct attach_want *w,
			 const struct attach_caps *caps,
			 struct attach_choice *choice, const char *why,
			 struct errbuf *eb)
{
	char text[600];

	if (has(caps, CAP_MAXACTIVE)) {
		unsigned int n = w->maxactive ? w->maxactive :
				 plan_default_maxactive(w->possible_cpus);

		snprintf(text, sizeof(text), "%s; %u return probes per function (%s%s)",
			 why, n, w->maxactive ? "--maxactive" : tool_name(),
			 w->maxactive ? "" :
			 "'s default: 4 per possible CPU, at least 64");
		return choose(choice, ATTACH_TRACEFS, n, text);
	}
	if (w->maxactive)
		return errbuf_set(eb, -EOPNOTSUPP,
				  "--maxactive: return probes cannot be sized here: %s",
				  caps->c[CAP_MAXACTIVE].why);
	snprintf(text, sizeof(text), "%s; the kernel's own number of return probes (%s)",
		 why, caps->c[CAP_MAXACTIVE].why);
	return choose(choice, ATTACH_TRACEFS, 0, text);
}

#define NEED(id) do {						\
	if (caps->c[id].state == CAP_UNKNOWN) {			\
		*need = (id);					\
		return 1;					\
	}							\
} while (0)

/* A forced kprobe path where they are unsafe: refused, and why. */
static int unsafe_kprobes(const struct attach_want *w, const char *path,
			    struct errbuf *eb)
{
	return errbuf_set(eb, -EOPNOTSUPP,
			  "--attach=%s makes kprobes, and this kernel's are not safe to use: %s; %s",
			  path, w->kprobes_unsafe,
			  w->tracepoints ? "--attach=tracepoint --ops fsync times fsync without them" :
			  "fentry/fexit is the only other way to time calls");
}

static int plan_forced_pmu(const struct attach_want *w,
			   const struct attach_caps *caps,
			   struct attach_choice *choice, enum cap_id *need,
			   struct errbuf *eb)
{
	if (w->kprobes_unsafe)
		return unsafe_kprobes(w, "pmu", eb);
	NEED(CAP_PMU);
	if (has(caps, CAP_PMU))
		return choose(choice, ATTACH_PMU, 0, "forced by --attach=pmu");
	NEED(CAP_KPROBE_EVENTS);
	if (!has(caps, CAP_KPROBE_EVENTS))
		return no_kprobes(caps, eb);
	return errbuf_set(eb, -EOPNOTSUPP,
			  "--attach=pmu: this kernel has no kprobe PMU (%s/type is missing; it arrived in 4.17); use --attach=tracefs",
			  caps->pmu_dir);
}

static int plan_forced_tracefs(const struct attach_want *w,
			       const struct attach_caps *caps,
			       struct attach_choice *choice, enum cap_id *need,
			       struct errbuf *eb)
{
	if (w->kprobes_unsafe)
		return unsafe_kprobes(w, "tracefs", eb);
	NEED(CAP_KPROBE_EVENTS);
	if (!has(caps, CAP_KPROBE_EVENTS)) {
		NEED(CAP_PMU);
		if (!has(caps, CAP_PMU))
			return no_kprobes(caps, eb);
		return errbuf_set(eb, -EOPNOTSUPP,
				  "--attach=tracefs: no kprobe_events in %s (CONFIG_KPROBE_EVENTS off?); use --attach=pmu",
				  caps->tracing_dir);
	}
	NEED(CAP_MAXACTIVE);
	return tracefs_sized(w, caps, choice, "forced by --attach=tracefs", eb);
}

/* The automatic order without fentry/fexit: kprobe_multi, then kprobes. */
static int plan_auto_kprobes(const struct attach_want *w,
			     const struct attach_caps *caps,
			     struct attach_choice *choice, enum cap_id *need,
			     struct errbuf *eb)
{
	if (!w->maxactive && !w->generic_read) {
		NEED(CAP_MULTI);
		if (has(caps, CAP_MULTI))
			return choose(choice, ATTACH_MULTI, 0,
				      "kprobe_multi links: one link arms every traced function");
	}
	if (w->kprobes_unsafe && w->maxactive)
		return errbuf_set(eb, -EOPNOTSUPP,
				  "--maxactive sizes return probes, and this kernel's kprobes are not safe to use: %s",
				  w->kprobes_unsafe);
	if (w->kprobes_unsafe)
		return errbuf_set(eb, -EOPNOTSUPP,
				  "no safe way to time calls here: this kernel's kprobes are not safe to use (%s), and there is no fentry/fexit (%s)%s",
				  w->kprobes_unsafe, caps->c[CAP_FENTRY].why,
				  w->tracepoints ? "; --attach=tracepoint --ops fsync times fsync alone" : "");
	NEED(CAP_KPROBE_EVENTS);
	if (has(caps, CAP_KPROBE_EVENTS)) {
		NEED(CAP_MAXACTIVE);
		if (has(caps, CAP_MAXACTIVE) || w->maxactive)
			return tracefs_sized(w, caps, choice,
					     "kprobe_events, which can size the return probes", eb);
	}
	if (w->maxactive)
		return errbuf_set(eb, -EOPNOTSUPP,
				  "--maxactive needs kprobe_events in tracefs, which this kernel lacks");
	NEED(CAP_PMU);
	if (has(caps, CAP_PMU))
		return choose(choice, ATTACH_PMU, 0,
			      has(caps, CAP_KPROBE_EVENTS) ?
			      "the kprobe PMU: kprobe_events here cannot size return probes either" :
			      "the kprobe PMU (no kprobe_events)");
	if (has(caps, CAP_KPROBE_EVENTS))
		return tracefs_sized(w, caps, choice, "kprobe_events (no kprobe PMU)", eb);
	return no_kprobes(caps, eb);
}

/*
 * kprobe_multi, then kprobes; fentry/fexit only where there are no
 * kprobes at all, or when asked for.  A trampoline dispatches a call for
 * some 580 instructions less than a kprobe and kretprobe, but making and
 * removing them is the kernel's dearest start-up and exit here (one
 * ftrace walk per program linked and unlinked: 3.8x kprobe_multi's
 * start-up and 3.3x its exit on 6.12, more than libbpf-tools' on 6.1 and
 * 6.12), which only a run of many calls repays (docs/performance.md).
 */
static int plan_auto(const struct attach_want *w,
		     const struct attach_caps *caps,
		     struct attach_choice *choice, enum cap_id *need,
		     struct errbuf *eb)
{
	char text[sizeof(choice->why)], why[256];
	int err = plan_auto_kprobes(w, caps, choice, need, eb);

	if (err != -EOPNOTSUPP || w->maxactive)
		return err;
	NEED(CAP_FENTRY);
	if (!has(caps, CAP_FENTRY))
		return err;
	if (w->kprobes_unsafe)
		snprintf(why, sizeof(why), "this kernel's kprobes are not safe to use: %.200s",
			 w->kprobes_unsafe);
	else
		snprintf(why, sizeof(why), "no kprobes here");
	NEED(CAP_NO_PREEMPT);
	if (has(caps, CAP_NO_PREEMPT))
		snprintf(text, sizeof(text), "fentry/fexit (%.220s): BPF trampolines, where the kernel's BTF names every traced function",
			 why);
	else
		snprintf(text, sizeof(text), "fentry/fexit (%.220s), though the kernel preempts tasks inside BPF programs (preemption %.200s): the calls it skips meanwhile are reported as unseen",
			 why, caps->c[CAP_NO_PREEMPT].why);
	return choose(choice, ATTACH_FENTRY, 0, text);
}

/*
 * The file system's own tracepoints around fsync: a call's start and end,
 * where there are no kprobes.  Forced only.
 */
static int plan_forced_tracepoint(const struct attach_want *w,
				  const struct attach_caps *caps,
				  struct attach_choice *choice,
				  enum cap_id *need, struct errbuf *eb)
{
	if (!w->tracepoints)
		return errbuf_set(eb, -EOPNOTSUPP,
				  "--attach=tracepoint: %s knows no tracepoints of %s (only %s's, around fsync)",
				  tool_name(), w->fs_name, fs_with_tracepoints()->name);
	if (w->ops_mask != 1u << OP_FSYNC)
		return errbuf_set(eb, -EINVAL,
				  "--attach=tracepoint traces fsync alone, through %s: %s fires no such pair around its reads, writes, opens or getattr; use --ops fsync",
				  w->tracepoints, w->fs_name);
	if (w->slow)
		return errbuf_set(eb, -EINVAL,
				  "--attach=tracepoint has no slow mode: an event names the call's file, and the tracepoints' records hold only its device and inode number");
	if (w->maxactive)
		return errbuf_set(eb, -EINVAL,
				  "--maxactive sizes kretprobes, and a tracepoint has no return probe to run out of: drop --maxactive or --attach=tracepoint");
	if (w->generic_read)
		return errbuf_set(eb, -EINVAL,
				  "--read-path=generic traces reads, and --attach=tracepoint fsync alone: drop one of them");
	NEED(CAP_TRACEPOINT);
	if (!has(caps, CAP_TRACEPOINT))
		return errbuf_set(eb, -EOPNOTSUPP, "--attach=tracepoint: %s",
				  caps->c[CAP_TRACEPOINT].why);
	return choose(choice, ATTACH_TRACEPOINT, 0,
		      "forced by --attach=tracepoint: the file system's own tracepoints around fsync, no kprobes needed");
}

int plan_attach(const struct attach_want *w, const struct attach_caps *caps,
		struct attach_choice *choice, enum cap_id *need,
		struct errbuf *eb)
{
	char text[sizeof(choice->why)];

	memset(choice, 0, sizeof(*choice));
	switch (w->mode) {
	case ATTACH_MULTI:
		if (w->maxactive || w->generic_read)
			return errbuf_set(eb, -EINVAL,
					  "--attach=multi cannot be combined with --maxactive or --read-path=generic");
		NEED(CAP_MULTI);
		if (!has(caps, CAP_MULTI))
			return errbuf_set(eb, -EOPNOTSUPP, "--attach=multi: %s",
					  caps->c[CAP_MULTI].why);
		return choose(choice, ATTACH_MULTI, 0, "forced by --attach=multi");
	case ATTACH_FENTRY:
		if (w->maxactive)
			return errbuf_set(eb, -EINVAL,
					  "--maxactive sizes kretprobes, and fexit has no instance limit: drop --maxactive or --attach=fentry");
		NEED(CAP_FENTRY);
		if (!has(caps, CAP_FENTRY))
			return errbuf_set(eb, -EOPNOTSUPP, "--attach=fentry: %s",
					  caps->c[CAP_FENTRY].why);
		NEED(CAP_NO_PREEMPT);
		if (!has(caps, CAP_NO_PREEMPT)) {
			snprintf(text, sizeof(text), "forced by --attach=fentry, though the kernel preempts tasks inside BPF programs (preemption %.250s): the calls it skips meanwhile are reported as unseen",
				 caps->c[CAP_NO_PREEMPT].why);
			return choose(choice, ATTACH_FENTRY, 0, text);
		}
		return choose(choice, ATTACH_FENTRY, 0, "forced by --attach=fentry");
	case ATTACH_PMU:
		if (w->maxactive)
			return errbuf_set(eb, -EINVAL,
					  "--maxactive needs the tracefs path: the kprobe PMU cannot set it; drop --attach=pmu");
		return plan_forced_pmu(w, caps, choice, need, eb);
	case ATTACH_TRACEFS:
		return plan_forced_tracefs(w, caps, choice, need, eb);
	case ATTACH_TRACEPOINT:
		return plan_forced_tracepoint(w, caps, choice, need, eb);
	default:
		return plan_auto(w, caps, choice, need, eb);
	}
}
