// SPDX-License-Identifier: GPL-2.0
#include "tool/plan/progs.h"

#include <string.h>

#include "ext4dist_abi.h"
#include "output/report.h"
#include "tool/plan/prog_select.h"

const char *prog_variant(const struct prog_mode *m)
{
	static const char *const names[2][2][2] = {	/* [ip][slow][atomic] */
		{ { "", PROG_ATOMIC },
		  { PROG_SLOW, PROG_SLOW "." PROG_ATOMIC } },
		{ { "ip", "ip." PROG_ATOMIC },
		  { "ip." PROG_SLOW, "ip." PROG_SLOW "." PROG_ATOMIC } },
	};

	switch (m->path) {
	case ATTACH_FENTRY:
		return m->slow ? PROG_SLOW : "";
	case ATTACH_TRACEPOINT:
		return "";
	case ATTACH_MULTI:
		return names[!!m->by_ip][!!m->slow][!m->percpu];
	default:
		return names[0][!!m->slow][!m->percpu];
	}
}

struct obj_prog *prog_of(struct bpf_obj *obj, const struct fs_table *fs,
			 const struct prog_mode *m, enum probe_kind kind,
			 const char *func)
{
	const char *target = fs_prog_target(fs, func);
	const char *v = prog_variant(m);

	switch (m->path) {
	case ATTACH_FENTRY:
		return target ? bpf_obj_find_tracing(obj, kind, target, v) :
				NULL;
	case ATTACH_MULTI:
		return bpf_obj_find_multi(obj, kind, PROG_EVERY_OP, v);
	case ATTACH_TRACEPOINT:
		/* Slow mode has no tracepoint programs. */
		if (!fs->fsync_tp.group || m->slow)
			return NULL;
		return bpf_obj_find_tracepoint(obj, report_op_name(OP_FSYNC),
					       kind == PROBE_RETURN ?
					       "exit" : "enter");
	default:
		return target ? bpf_obj_find_prog(obj, kind, target, v) : NULL;
	}
}

const char *prog_kind_name(const struct prog_mode *m, enum probe_kind kind)
{
	int ret = kind == PROBE_RETURN;

	switch (m->path) {
	case ATTACH_FENTRY:
		return ret ? "fexit" : "fentry";
	case ATTACH_MULTI:
		return ret ? "kretprobe.multi" : "kprobe.multi";
	case ATTACH_TRACEPOINT:
		return "tracepoint";
	default:
		return ret ? "kretprobe" : "kprobe";
	}
}

/* Whether word is one of the '.'-separated words of the variant v. */
static int variant_has(const char *v, const char *word)
{
	size_t n = strlen(word);

	for (; v; v = strchr(v, '.'), v = v ? v + 1 : NULL)
		if (!strncmp(v, word, n) && (v[n] == '.' || !v[n]))
			return 1;
	return 0;
}

int prog_run_keeps(const char *section, int slow)
{
	const char *t = strchr(section, '/'), *v = t ? strchr(t + 1, '/') : NULL;

	if (t && v && (size_t)(v - t - 1) == strlen(LESSON_TARGET) &&
	    !strncmp(t + 1, LESSON_TARGET, v - t - 1))
		return 0;
	v = v ? v + 1 : "";
	if (variant_has(v, "scan_release"))
		return 1;
	return slow == (variant_has(v, PROG_SLOW) || variant_has(v, "peek"));
}
