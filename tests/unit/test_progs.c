// SPDX-License-Identifier: GPL-2.0
/*
 * Which program a path and mode load (tool/plan/progs.c): for every
 * attach path, mode (histogram, slow), counter kind (per-CPU or atomic),
 * kprobe_multi by address or by name, read path and file system, the
 * program the run and --check load is the one of the object's sections
 * written out here, and one the run's parse of the object kept.
 */
#include <stdio.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "loader/loader.h"
#include "test.h"
#include "tool/engine/bpf_blob.h"
#include "tool/fs/fs.h"
#include "tool/plan/progs.h"

static int keep(const char *section, void *arg)
{
	return prog_run_keeps(section, *(const int *)arg);
}

/* The object as a run of this mode parses it. */
static int parse(int slow, struct bpf_blob *blob, struct bpf_obj *obj)
{
	const struct obj_parse_opts o = { .keep = keep, .arg = &slow };
	struct errbuf eb = { "" };

	if (!check_int("the object", bpf_blob_for(bpf_blob_own_arch(), blob),
		       0))
		return -1;
	return bpf_obj_parse_in(blob->data, blob->size, &o, obj, &eb);
}

/*
 * The section a run must load, written out from the object's naming
 * (include/ext4dist_abi.h): name is the operation's, or the generic read
 * path's.
 */
static void want_section(char *buf, size_t size, enum attach_mode path,
			 enum probe_kind kind, const char *name, int slow,
			 int percpu, int ip)
{
	int ret = kind == PROBE_RETURN;
	char v[32];

	snprintf(v, sizeof(v), "%s%s%s%s%s", ip ? "ip" : "",
		 ip && (slow || !percpu) ? "." : "", slow ? "slow" : "",
		 slow && !percpu ? "." : "", percpu ? "" : "atomic");
	switch (path) {
	case ATTACH_FENTRY:
		snprintf(buf, size, "%s/%s%s", ret ? "fexit" : "fentry", name,
			 slow ? "/slow" : "");
		break;
	case ATTACH_MULTI:
		snprintf(buf, size, "%s/every_op%s%s",
			 ret ? "kretprobe.multi" : "kprobe.multi",
			 v[0] ? "/" : "", v);
		break;
	case ATTACH_TRACEPOINT:
		snprintf(buf, size, "tracepoint/fsync/%s",
			 ret ? "exit" : "enter");
		break;
	default:
		snprintf(buf, size, "%s/%s%s%s", ret ? "kretprobe" : "kprobe",
			 name, v[0] ? "/" : "", v);
	}
}

/*
 * The objects for 32-bit kernels carry no fentry/fexit programs: those
 * kernels have no BPF trampolines (bpf/ext4dist.bpf.c).
 */
static int own_trampolines(void)
{
	const char *arch = bpf_blob_own_arch();

	return strcmp(arch, "arm") && strcmp(arch, "mips");
}

/* One path and mode: every traced function of every file system. */
static void check_mode(struct bpf_obj *obj, const struct prog_mode *m,
		       unsigned int *checked)
{
	static const enum probe_kind kinds[2] = { PROBE_RETURN, PROBE_ENTRY };
	static const char *const op_names[NR_OPS] = {
		"read", "write", "open", "fsync", "getattr",
	};
	const struct fs_table *const *fs;
	char want[160], name[400];
	unsigned int op, k, generic;
	const struct obj_prog *p;

	for (fs = fs_all; *fs; fs++)
		for (op = 0; op < NR_OPS; op++)
			for (generic = 0; generic < 2; generic++)
				for (k = 0; k < 2; k++) {
					const char *func = generic ?
						(*fs)->generic_read :
						(*fs)->ops[op].func;

					if (!func || (generic && op != OP_READ))
						continue;
					/* What the run's paths take on. */
					if (m->slow && op == OP_GETATTR)
						continue;
					if ((m->path == ATTACH_MULTI && generic) ||
					    (m->path == ATTACH_TRACEPOINT &&
					     (op != OP_FSYNC || !(*fs)->fsync_tp.group)))
						continue;
					want_section(want, sizeof(want), m->path,
						     kinds[k],
						     generic ? "generic_read" :
						     op_names[op],
						     m->slow, m->percpu, m->by_ip);
					if (m->path == ATTACH_FENTRY &&
					    !own_trampolines())
						snprintf(want, sizeof(want),
							 "(none)");
					p = prog_of(obj, *fs, m, kinds[k], func);
					snprintf(name, sizeof(name),
						 "%s %s, path %d, slow %d, per-CPU %d, by address %d: %s",
						 (*fs)->name, func, m->path,
						 m->slow, m->percpu, m->by_ip,
						 want);
					check_str(name, p ? p->section : "(none)",
						  want);
					(*checked)++;
				}
}

static void test_every_path_and_mode(void)
{
	static const enum attach_mode paths[] = {
		ATTACH_AUTO, ATTACH_PMU, ATTACH_TRACEFS, ATTACH_MULTI,
		ATTACH_FENTRY, ATTACH_TRACEPOINT,
	};
	struct prog_mode m;
	unsigned int i, checked = 0;
	int slow, percpu, ip;

	for (slow = 0; slow < 2; slow++) {
		struct bpf_blob blob;
		struct bpf_obj obj;

		if (!check_int("it parses", parse(slow, &blob, &obj), 0))
			return;
		for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			for (percpu = 0; percpu < 2; percpu++)
				for (ip = 0; ip < 2; ip++) {
					/*
					 * fentry/fexit and the tracepoints
					 * only with per-CPU maps (probe.c),
					 * the tracepoints not in slow mode,
					 * by address only kprobe_multi.
					 */
					if ((!percpu &&
					     (paths[i] == ATTACH_FENTRY ||
					      paths[i] == ATTACH_TRACEPOINT)) ||
					    (slow && paths[i] == ATTACH_TRACEPOINT) ||
					    (ip && paths[i] != ATTACH_MULTI))
						continue;
					m = (struct prog_mode){ paths[i], slow,
								percpu, ip };
					check_mode(&obj, &m, &checked);
				}
		bpf_obj_free(&obj);
		bpf_blob_release(&blob);
	}
	/*
	 * Functions, each with a return and an entry program: ext4 5 and
	 * its generic read, xfs 4, btrfs 4 and its generic read, f2fs 4
	 * (19; 18 in slow mode, without getattr; 17 and 16 without the
	 * generic read).  Histogram mode: the kprobe pairs' 3 paths x 2
	 * counter kinds x 19 x 2 = 228, kprobe_multi 2 x 2 (by address or
	 * not) x 17 x 2 = 136, fentry 19 x 2 = 38, the tracepoints 2: 404.
	 * Slow mode: 3 x 2 x 18 x 2 = 216, 2 x 2 x 16 x 2 = 128, 18 x 2 =
	 * 36: 380.
	 */
	check_int("programs checked", checked, 404 + 380);
}

/* Slow mode has no tracepoint programs: --check must not verify any. */
static void test_slow_tracepoint(void)
{
	struct prog_mode m = { ATTACH_TRACEPOINT, 1, 1, 0 };
	struct bpf_blob blob;
	struct bpf_obj obj;

	if (!check_int("it parses", parse(0, &blob, &obj), 0))
		return;
	CHECK(!prog_of(&obj, &fs_ext4, &m, PROBE_RETURN, NULL),
	      "no tracepoint program in slow mode");
	CHECK(!prog_of(&obj, &fs_xfs, &m, PROBE_RETURN, NULL) &&
	      !prog_of(&obj, &fs_xfs, &(struct prog_mode){ ATTACH_TRACEPOINT,
							  0, 1, 0 },
		       PROBE_RETURN, NULL),
	      "xfs has no fsync tracepoints");
	bpf_obj_free(&obj);
	bpf_blob_release(&blob);
}

static void test_kind_names(void)
{
	struct prog_mode m = { ATTACH_FENTRY, 0, 1, 0 };

	check_str("fexit", prog_kind_name(&m, PROBE_RETURN), "fexit");
	m.path = ATTACH_TRACEFS;
	check_str("kprobe", prog_kind_name(&m, PROBE_ENTRY), "kprobe");
	m.path = ATTACH_MULTI;
	check_str("kprobe_multi's return", prog_kind_name(&m, PROBE_RETURN),
		  "kretprobe.multi");
}

static const struct test_case test_cases[] = {
	TEST_CASE(every_path_and_mode),
	TEST_CASE(slow_tracepoint),
	TEST_CASE(kind_names),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
