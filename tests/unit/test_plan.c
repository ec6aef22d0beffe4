// SPDX-License-Identifier: GPL-2.0
/* The attach decision (tool/plan/plan.c): every path, every refusal, and what is asked. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ext4dist_abi.h"
#include "tool/plan/plan.h"
#include "test.h"

/* A kernel: the answer to each capability, 1 yes, 0 no. */
struct kernel {
	int has[NR_CAPS];
};

static const char cap_letter[NR_CAPS] = {
	[CAP_MULTI] = 'M', [CAP_KPROBE_EVENTS] = 'E', [CAP_MAXACTIVE] = 'A',
	[CAP_PMU] = 'P', [CAP_FENTRY] = 'F', [CAP_NO_PREEMPT] = 'R',
	[CAP_TRACEPOINT] = 'T',
};

/*
 * Runs the decision as tracer.c does, answering what it asks from k.
 * asked gets one letter per capability asked, in order.
 */
static int decide(const struct kernel *k, const struct attach_want *w,
		  struct attach_choice *choice, char *asked,
		  struct errbuf *eb)
{
	struct attach_caps caps;
	enum cap_id need;
	size_t n = 0;
	int err;

	memset(&caps, 0, sizeof(caps));
	snprintf(caps.pmu_dir, sizeof(caps.pmu_dir), "/sys/kprobe");
	snprintf(caps.tracing_dir, sizeof(caps.tracing_dir), "/sys/tracing");
	while ((err = plan_attach(w, &caps, choice, &need, eb)) == 1) {
		if (caps.c[need].state != CAP_UNKNOWN) {
			asked[n] = '\0';
			return -ELOOP;	/* asked twice: a bug */
		}
		asked[n++] = cap_letter[need];
		caps.c[need].state = k->has[need] ? CAP_YES : CAP_NO;
		snprintf(caps.c[need].why, sizeof(caps.c[need].why),
			 "why %c", cap_letter[need]);
	}
	asked[n] = '\0';
	return err;
}

static void expect(const char *name, const struct kernel *k,
		   const struct attach_want *w, int want_err,
		   enum attach_mode want_path, unsigned int want_maxactive,
		   const char *want_asked, const char *want_msg)
{
	struct attach_choice choice;
	struct errbuf eb = { "" };
	char asked[NR_CAPS + 1], label[200];
	int err = decide(k, w, &choice, asked, &eb);

	snprintf(label, sizeof(label), "%s: result", name);
	check_int(label, err, want_err);
	snprintf(label, sizeof(label), "%s: capabilities asked", name);
	check_str(label, asked, want_asked);
	if (err) {
		snprintf(label, sizeof(label), "%s: message", name);
		check_str(label, eb.msg, want_msg);
		return;
	}
	snprintf(label, sizeof(label), "%s: path", name);
	check_str(label, plan_path_name(choice.path), plan_path_name(want_path));
	snprintf(label, sizeof(label), "%s: maxactive", name);
	check_int(label, choice.maxactive, want_maxactive);
	if (want_msg) {
		snprintf(label, sizeof(label), "%s: why", name);
		check_str(label, choice.why, want_msg);
	}
}

static const char no_kprobes[] =
	"this kernel has no kprobes: there is no kprobe PMU (/sys/kprobe) and no kprobe_events in /sys/tracing; ext4dist needs a kernel built with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y";

static void test_automatic(void)
{
	const struct kernel k612 = { { [CAP_MULTI] = 1, [CAP_KPROBE_EVENTS] = 1,
				       [CAP_MAXACTIVE] = 1, [CAP_PMU] = 1 } };
	const struct kernel k61 = { { [CAP_KPROBE_EVENTS] = 1,
				      [CAP_MAXACTIVE] = 1, [CAP_PMU] = 1 } };
	const struct kernel k49 = { { [CAP_KPROBE_EVENTS] = 1 } };
	const struct kernel pmu_only = { { [CAP_PMU] = 1 } };
	const struct kernel pmu_events = { { [CAP_KPROBE_EVENTS] = 1,
					     [CAP_PMU] = 1 } };
	const struct kernel none = { { 0 } };
	const struct kernel btf612 = { { [CAP_FENTRY] = 1, [CAP_MULTI] = 1,
					 [CAP_KPROBE_EVENTS] = 1,
					 [CAP_MAXACTIVE] = 1, [CAP_PMU] = 1,
					 [CAP_NO_PREEMPT] = 1 } };
	const struct kernel btf612_full = { { [CAP_FENTRY] = 1, [CAP_MULTI] = 1,
					      [CAP_KPROBE_EVENTS] = 1,
					      [CAP_MAXACTIVE] = 1,
					      [CAP_PMU] = 1 } };
	const struct kernel btf61_full = { { [CAP_FENTRY] = 1,
					     [CAP_KPROBE_EVENTS] = 1,
					     [CAP_MAXACTIVE] = 1,
					     [CAP_PMU] = 1 } };
	const struct kernel btf_only = { { [CAP_FENTRY] = 1,
					   [CAP_NO_PREEMPT] = 1 } };
	const struct kernel btf_only_full = { { [CAP_FENTRY] = 1 } };
	struct attach_want w = { .mode = ATTACH_AUTO, .possible_cpus = 1 };

	/*
	 * kprobe_multi, then kprobes, wherever the kernel has them: fentry
	 * is never asked about; it is taken only where there are no kprobes.
	 */
	expect("6.12 with BTF", &btf612, &w, 0, ATTACH_MULTI, 0, "M",
	       "kprobe_multi links: one link arms every traced function");
	expect("BTF, no kprobes", &btf_only, &w, 0, ATTACH_FENTRY, 0, "MEPFR",
	       "fentry/fexit (no kprobes here): BPF trampolines, where the kernel's BTF names every traced function");
	expect("6.12 with BTF, preemption full", &btf612_full, &w, 0,
	       ATTACH_MULTI, 0, "M",
	       "kprobe_multi links: one link arms every traced function");
	expect("6.1 with BTF, preemption full", &btf61_full, &w, 0,
	       ATTACH_TRACEFS, 64, "MEA",
	       "kprobe_events, which can size the return probes; 64 return probes per function (ext4dist's default: 4 per possible CPU, at least 64)");
	/* No kprobes and preemption full: fentry all the same, said. */
	expect("BTF, preemption full, no kprobes", &btf_only_full, &w, 0,
	       ATTACH_FENTRY, 0, "MEPFR",
	       "fentry/fexit (no kprobes here), though the kernel preempts tasks inside BPF programs (preemption why R): the calls it skips meanwhile are reported as unseen");
	/* A trampoline refused at attach: the plan again, fentry now no. */
	expect("6.12, trampolines refused", &k612, &w, 0, ATTACH_MULTI, 0,
	       "M", "kprobe_multi links: one link arms every traced function");

	expect("6.1", &k61, &w, 0, ATTACH_TRACEFS, 64, "MEA",
	       "kprobe_events, which can size the return probes; 64 return probes per function (ext4dist's default: 4 per possible CPU, at least 64)");
	w.possible_cpus = 64;
	expect("6.1, 64 CPUs", &k61, &w, 0, ATTACH_TRACEFS, 256, "MEA", NULL);
	w.possible_cpus = 8192;
	expect("6.1, 8192 CPUs", &k61, &w, 0, ATTACH_TRACEFS, 4096, "MEA",
	       NULL);
	w.possible_cpus = 1;
	expect("4.9", &k49, &w, 0, ATTACH_TRACEFS, 0, "MEAP",
	       "kprobe_events (no kprobe PMU); the kernel's own number of return probes (why A)");
	expect("kprobe PMU only", &pmu_only, &w, 0, ATTACH_PMU, 0, "MEP",
	       "the kprobe PMU (no kprobe_events)");
	expect("PMU, kprobe_events without rN", &pmu_events, &w, 0, ATTACH_PMU,
	       0, "MEAP",
	       "the kprobe PMU: kprobe_events here cannot size return probes either");
	expect("no kprobes", &none, &w, -EOPNOTSUPP, ATTACH_AUTO, 0, "MEPF",
	       no_kprobes);

	/* The generic read path's filter is in the kprobe programs. */
	w.generic_read = 1;
	expect("generic read path: no kprobe_multi", &k612, &w, 0,
	       ATTACH_TRACEFS, 64, "EA", NULL);
	expect("generic read path with BTF: kprobes too", &btf612, &w, 0,
	       ATTACH_TRACEFS, 64, "EA", NULL);
	w.generic_read = 0;

	w.maxactive = 7;
	expect("--maxactive: tracefs, not fentry", &btf612, &w, 0,
	       ATTACH_TRACEFS, 7, "EA", NULL);
	expect("--maxactive: tracefs", &k612, &w, 0, ATTACH_TRACEFS, 7, "EA",
	       "kprobe_events, which can size the return probes; 7 return probes per function (--maxactive)");
	expect("--maxactive before 4.12", &k49, &w, -EOPNOTSUPP, ATTACH_AUTO, 0,
	       "EA",
	       "--maxactive: return probes cannot be sized here: why A");
	expect("--maxactive without kprobe_events", &pmu_only, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "E",
	       "--maxactive needs kprobe_events in tracefs, which this kernel lacks");
}

static void test_forced(void)
{
	const struct kernel k61 = { { [CAP_KPROBE_EVENTS] = 1,
				      [CAP_MAXACTIVE] = 1, [CAP_PMU] = 1 } };
	const struct kernel k49 = { { [CAP_KPROBE_EVENTS] = 1 } };
	const struct kernel pmu_only = { { [CAP_PMU] = 1 } };
	const struct kernel none = { { 0 } };
	const struct kernel btf = { { [CAP_FENTRY] = 1, [CAP_PMU] = 1,
				      [CAP_NO_PREEMPT] = 1 } };
	const struct kernel btf_full = { { [CAP_FENTRY] = 1, [CAP_PMU] = 1 } };
	struct attach_want w = { .mode = ATTACH_PMU, .possible_cpus = 1 };

	expect("pmu", &k61, &w, 0, ATTACH_PMU, 0, "P", "forced by --attach=pmu");
	expect("pmu on 4.9", &k49, &w, -EOPNOTSUPP, ATTACH_AUTO, 0, "PE",
	       "--attach=pmu: this kernel has no kprobe PMU (/sys/kprobe/type is missing; it arrived in 4.17); use --attach=tracefs");
	expect("pmu without kprobes", &none, &w, -EOPNOTSUPP, ATTACH_AUTO, 0,
	       "PE", no_kprobes);
	w.maxactive = 3;
	expect("pmu with --maxactive", &k61, &w, -EINVAL, ATTACH_AUTO, 0, "",
	       "--maxactive needs the tracefs path: the kprobe PMU cannot set it; drop --attach=pmu");

	w.mode = ATTACH_TRACEFS;
	expect("tracefs with --maxactive", &k61, &w, 0, ATTACH_TRACEFS, 3, "EA",
	       NULL);
	w.maxactive = 0;
	expect("tracefs", &k61, &w, 0, ATTACH_TRACEFS, 64, "EA",
	       "forced by --attach=tracefs; 64 return probes per function (ext4dist's default: 4 per possible CPU, at least 64)");
	expect("tracefs on 4.9", &k49, &w, 0, ATTACH_TRACEFS, 0, "EA", NULL);
	expect("tracefs without kprobe_events", &pmu_only, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "EP",
	       "--attach=tracefs: no kprobe_events in /sys/tracing (CONFIG_KPROBE_EVENTS off?); use --attach=pmu");
	expect("tracefs without kprobes", &none, &w, -EOPNOTSUPP, ATTACH_AUTO,
	       0, "EP", no_kprobes);

	w.mode = ATTACH_FENTRY;
	expect("fentry where BTF has it all", &btf, &w, 0, ATTACH_FENTRY, 0, "FR",
	       "forced by --attach=fentry");
	expect("fentry, preemption full", &btf_full, &w, 0, ATTACH_FENTRY, 0,
	       "FR",
	       "forced by --attach=fentry, though the kernel preempts tasks inside BPF programs (preemption why R): the calls it skips meanwhile are reported as unseen");
	expect("fentry", &k61, &w, -EOPNOTSUPP, ATTACH_AUTO, 0, "F",
	       "--attach=fentry: why F");
	w.generic_read = 1;
	expect("fentry, generic read path", &k61, &w, -EOPNOTSUPP, ATTACH_AUTO,
	       0, "F", "--attach=fentry: why F");
	w.generic_read = 0;
	w.maxactive = 5;
	expect("fentry with --maxactive", &k61, &w, -EINVAL, ATTACH_AUTO, 0, "",
	       "--maxactive sizes kretprobes, and fexit has no instance limit: drop --maxactive or --attach=fentry");
	w.maxactive = 0;

	w.mode = ATTACH_MULTI;
	expect("multi where there is none", &k61, &w, -EOPNOTSUPP, ATTACH_AUTO,
	       0, "M", "--attach=multi: why M");
	w.generic_read = 1;
	expect("multi with the generic read path", &k61, &w, -EINVAL,
	       ATTACH_AUTO, 0, "",
	       "--attach=multi cannot be combined with --maxactive or --read-path=generic");
}

/*
 * The fsync tracepoints: only when asked for, fsync alone, and never
 * asked about by the automatic order (a kernel without kprobes stays
 * "no kprobes" there, with the tracepoints or without).
 */
static void test_tracepoint(void)
{
	const struct kernel host = { { [CAP_TRACEPOINT] = 1 } };
	const struct kernel k61 = { { [CAP_KPROBE_EVENTS] = 1,
				      [CAP_MAXACTIVE] = 1, [CAP_PMU] = 1,
				      [CAP_TRACEPOINT] = 1 } };
	const struct kernel none = { { 0 } };
	struct attach_want w = {
		.mode = ATTACH_TRACEPOINT, .possible_cpus = 1,
		.ops_mask = 1u << OP_FSYNC, .fs_name = "ext4",
		.tracepoints = "ext4:a and ext4:b",
	};
	const char forced[] = "forced by --attach=tracepoint: the file system's own tracepoints around fsync, no kprobes needed";

	expect("tracepoint, no kprobes", &host, &w, 0, ATTACH_TRACEPOINT, 0,
	       "T", forced);
	expect("tracepoint, with kprobes", &k61, &w, 0, ATTACH_TRACEPOINT, 0,
	       "T", forced);
	expect("tracepoint where there is none", &none, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "T", "--attach=tracepoint: why T");
	w.ops_mask |= 1u << OP_READ;
	expect("tracepoint with read", &host, &w, -EINVAL, ATTACH_AUTO, 0, "",
	       "--attach=tracepoint traces fsync alone, through ext4:a and ext4:b: ext4 fires no such pair around its reads, writes, opens or getattr; use --ops fsync");
	w.ops_mask = 1u << OP_FSYNC;
	w.slow = 1;
	expect("tracepoint in slow mode", &host, &w, -EINVAL, ATTACH_AUTO, 0, "",
	       "--attach=tracepoint has no slow mode: an event names the call's file, and the tracepoints' records hold only its device and inode number");
	w.slow = 0;
	w.maxactive = 4;
	expect("tracepoint with --maxactive", &host, &w, -EINVAL, ATTACH_AUTO,
	       0, "",
	       "--maxactive sizes kretprobes, and a tracepoint has no return probe to run out of: drop --maxactive or --attach=tracepoint");
	w.maxactive = 0;
	w.generic_read = 1;
	expect("tracepoint with the generic read path", &host, &w, -EINVAL,
	       ATTACH_AUTO, 0, "",
	       "--read-path=generic traces reads, and --attach=tracepoint fsync alone: drop one of them");
	w.generic_read = 0;
	w.tracepoints = NULL;
	w.fs_name = "xfs";
	expect("tracepoint of a file system without", &host, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "",
	       "--attach=tracepoint: ext4dist knows no tracepoints of xfs (only ext4's, around fsync)");
	w.mode = ATTACH_AUTO;
	w.tracepoints = "ext4:a and ext4:b";
	w.fs_name = "ext4";
	expect("automatic never takes the tracepoints", &host, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "MEPF", no_kprobes);
	check_str("the tracepoint path's name", plan_path_name(ATTACH_TRACEPOINT),
		  "tracepoint");
}

/* 32-bit MIPS: kprobes are unsafe; nothing chooses or forces them. */
static void test_unsafe_kprobes(void)
{
	const struct kernel mips61 = { { [CAP_KPROBE_EVENTS] = 1,
					 [CAP_MAXACTIVE] = 1, [CAP_PMU] = 1,
					 [CAP_TRACEPOINT] = 1 } };
	const struct kernel multi = { { [CAP_MULTI] = 1, [CAP_KPROBE_EVENTS] = 1,
					[CAP_PMU] = 1 } };
	const struct kernel btf_full = { { [CAP_FENTRY] = 1,
					   [CAP_KPROBE_EVENTS] = 1,
					   [CAP_PMU] = 1 } };
	struct attach_want w = {
		.mode = ATTACH_AUTO, .possible_cpus = 1,
		.ops_mask = 1u << OP_FSYNC, .fs_name = "ext4",
		.tracepoints = "ext4:a and ext4:b", .kprobes_unsafe = "oops",
	};

	expect("unsafe kprobes, automatic", &mips61, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "MF",
	       "no safe way to time calls here: this kernel's kprobes are not safe to use (oops), and there is no fentry/fexit (why F); --attach=tracepoint --ops fsync times fsync alone");
	w.mode = ATTACH_TRACEFS;
	expect("unsafe kprobes, --attach=tracefs", &mips61, &w,
	       -EOPNOTSUPP, ATTACH_AUTO, 0, "",
	       "--attach=tracefs makes kprobes, and this kernel's are not safe to use: oops; --attach=tracepoint --ops fsync times fsync without them");
	w.mode = ATTACH_PMU;
	w.tracepoints = NULL;
	expect("unsafe kprobes, --attach=pmu", &mips61, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "",
	       "--attach=pmu makes kprobes, and this kernel's are not safe to use: oops; fentry/fexit is the only other way to time calls");
	w.mode = ATTACH_AUTO;
	w.maxactive = 64;
	expect("unsafe kprobes, --maxactive", &mips61, &w, -EOPNOTSUPP,
	       ATTACH_AUTO, 0, "",
	       "--maxactive sizes return probes, and this kernel's kprobes are not safe to use: oops");
	w.maxactive = 0;
	/* The paths without kprobes stay. */
	expect("unsafe kprobes, kprobe_multi", &multi, &w, 0,
	       ATTACH_MULTI, 0, "M", NULL);
	expect("unsafe kprobes, fentry though preemptible", &btf_full,
	       &w, 0, ATTACH_FENTRY, 0, "MFR",
	       "fentry/fexit (this kernel's kprobes are not safe to use: oops), though the kernel preempts tasks inside BPF programs (preemption why R): the calls it skips meanwhile are reported as unseen");
	w.mode = ATTACH_TRACEPOINT;
	w.tracepoints = "ext4:a and ext4:b";
	expect("unsafe kprobes, --attach=tracepoint", &mips61, &w, 0,
	       ATTACH_TRACEPOINT, 0, "T", NULL);
}

static void test_default_maxactive(void)
{
	check_int("default maxactive, 0 CPUs", plan_default_maxactive(0), 64);
	check_int("default maxactive, 17 CPUs", plan_default_maxactive(17), 68);
}

static const struct test_case test_cases[] = {
	TEST_CASE(automatic),
	TEST_CASE(forced),
	TEST_CASE(tracepoint),
	TEST_CASE(unsafe_kprobes),
	TEST_CASE(default_maxactive),
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, test_cases);
}
