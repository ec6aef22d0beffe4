# make bench: the records of build/bench/records.txt ("<kind> key=value ...",
# from guest_bench.sh and run.sh) as tables on stdout and as JSON in the file
# named by -v json=FILE.  "run name=X" starts the records of one boot (tcg,
# icount or kvm); "run name=host" the host's.  POSIX awk (mawk, gawk).

function kv(   i, p, k) {
	split("", V)
	for (i = 2; i <= NF; i++) {
		p = index($i, "=")
		if (p) { k = substr($i, 1, p - 1); V[k] = substr($i, p + 1) }
	}
}

# median (or minimum) of the n values L[key SUBSEP 1..n]
function sorted(key, n, a,   i, j, t) {
	for (i = 1; i <= n; i++) a[i] = L[key, i] + 0
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
}
function med(key,   a, n) {
	n = N[key]
	if (n < 1) return -1
	sorted(key, n, a)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function add(key, v) { N[key]++; L[key, N[key]] = v }
function q(s) { return "\"" s "\"" }
function num(v) { return v == "" ? "null" : v + 0 }
function yesno(b) { return b ? "met" : "NOT met" }
function tf(b) { return b ? "true" : "false" }

$1 == "run" { kv(); R = V["name"]; if (R != "host") RUNS[++nruns] = R; next }
$1 == "env" { kv(); for (k in V) ENV[R, k] = V[k]; next }
$1 == "host" { kv(); for (k in V) HOST[k] = V[k]; next }
$1 == "error" { ERRORS[++nerr] = R ": " $0; next }
$1 == "skip" { SKIPS[R] = SKIPS[R] "  not measured: " substr($0, 6) "\n"; next }
$1 == "floor" { kv(); FLOOR[R] = V["how"] " " V["functions"]; next }
$1 == "op" {
	kv()
	if (!((V["name"]) in OPSEEN)) { OPSEEN[V["name"]] = 1; OPS[++nops] = V["name"] }
	add("op" SUBSEP R SUBSEP V["mode"] SUBSEP V["name"], V["ns"])
	next
}
$1 == "prog" {
	kv()
	if (!(V["probe"] in PSEEN)) { PSEEN[V["probe"]] = 1; PROBES[++nprobes] = V["probe"] }
	key = R SUBSEP V["mode"] SUBSEP V["probe"]
	if (V["run_cnt"] > 0) add("prog" SUBSEP key, V["run_time_ns"] / V["run_cnt"])
	PRUNS[key] += V["run_cnt"]
	XL[V["probe"]] = V["xlated_insns"]; JIT[V["probe"]] = V["jited_bytes"]
	next
}
$1 == "kmem" { kv(); for (k in V) KMEM[R, k] = V[k]; next }
$1 == "rss" { kv(); if (V["vmhwm_kb"] + 0 > RSSHWM[V["mode"]]) RSSHWM[V["mode"]] = V["vmhwm_kb"] + 0; next }
$1 == "slowevents" {
	kv()
	SLOWSEEN[R] = 1
	SLOWSENT[R, V["mode"]] += V["sent"]; SLOWRECV[R, V["mode"]] += V["received"]
	SLOWLOST[R, V["mode"]] += V["lost"]; SLOWROUNDS[R, V["mode"]]++
	next
}
$1 == "counted" { kv(); COUNTED[R, V["mode"]] = $0; next }
$1 == "startup" {
	kv()
	m = V["mode"]
	if (!(m in SMSEEN)) { SMSEEN[m] = 1; SMODES[++nsm] = m }
	for (k in V) S[R, m, k] = V[k]
	rss = V["rss_kb"] + 0; if (V["maxrss_kb"] + 0 > rss) rss = V["maxrss_kb"] + 0
	if (rss > PEAK[m]) PEAK[m] = rss
	next
}
$1 == "variant" {
	kv()
	n = V["name"]
	if (n != "untraced" && !(n in VSEEN)) { VSEEN[n] = 1; VARS[++nv] = n }
	for (k in V) VR[R, n, k] = V[k]
	next
}

function opns(R, mode, o) { return med("op" SUBSEP R SUBSEP mode SUBSEP o) }
function progns(R, mode, pr) { return med("prog" SUBSEP R SUBSEP mode SUBSEP pr) }

# The attach modes measured in run R (env modes=pmu,tracefs[,multi]).
function run_modes(R, M,   n) {
	n = split(ENV[R, "modes"] == "" ? "pmu,tracefs" : ENV[R, "modes"], M, ",")
	return n
}

function tables(R, title,   i, j, o, u, p, t, pr, m, n, bcc, M, nm, v, fl, rss) {
	print ""
	print "=== " title
	printf "kernel %s, %s CPU, clocksource %s, bpf_jit_enable %s, bpf_stats_enabled %s, %s ftrace-able functions\n",
		ENV[R, "kernel"], ENV[R, "cpus"], ENV[R, "clocksource"],
		ENV[R, "bpf_jit_enable"], ENV[R, "bpf_stats_enabled"], ENV[R, "ftrace_functions"]

	printf "%s", SKIPS[R]

	print ""
	nm = run_modes(R, M)
	if (nops == 0) print "1. Workload: not measured in this run"
	else print "1. Workload, ns per operation (median of rounds), traced / untraced"
	if (nops > 0) {
		printf "%-12s %12s", "operation", "untraced"
		for (j = 1; j <= nm; j++) printf " %12s %8s", M[j], "ratio"
		printf "\n"
	}
	for (i = 1; i <= nops && nops > 0; i++) {
		o = OPS[i]
		u = opns(R, "untraced", o)
		printf "%-12s %12.0f", o, u
		for (j = 1; j <= nm; j++) {
			p = opns(R, M[j], o)
			# A tool that did not run (its record says -1): no ratio.
			if (p < 0) printf " %12s %8s", "failed", "-"
			else printf " %12.0f %7.2fx", p, (u > 0 ? p / u : 0)
		}
		printf "\n"
	}

	print ""
	if (nprobes == 0) print "2. ext4dist's own programs: not measured in this run"
	else {
		print "2. ext4dist's own programs: kernel bpf_stats run_time_ns / run_cnt (median of rounds)"
		printf "%-34s", "probe"
		for (j = 1; j <= nm; j++) printf " %10s", M[j] " ns"
		printf " %10s %7s %6s\n", "runs", "insns", "JIT B"
	}
	for (i = 1; i <= nprobes; i++) {
		pr = PROBES[i]
		printf "%-34s", pr
		t = 0
		for (j = 1; j <= nm; j++) {
			v = progns(R, M[j], pr)
			if (v < 0) printf " %10s", "-"; else printf " %10.0f", v
			if (PRUNS[R, M[j], pr] > t) t = PRUNS[R, M[j], pr]
		}
		printf " %10d %7d %6d\n", t, XL[pr], JIT[pr]
	}

	print ""
	print "3. Start-up (median of runs) and footprint (largest); vs floor = to banner / the floor's"
	if (FLOOR[R] != "") print "   floor: the same probes without BPF, " FLOOR[R]
	fl = ((R, "floor", "banner_ms") in S) ? S[R, "floor", "banner_ms"] + 0 : 0
	printf "%-8s %10s %9s %10s %10s %12s %12s %9s\n", "mode", "to banner", "vs floor", "to output", "to exit", "syscalls<=b", "syscalls all", "peak RSS"
	for (i = 1; i <= nsm; i++) {
		m = SMODES[i]
		if (!((R, m, "banner_ms") in S)) continue
		rss = S[R, m, "rss_kb"] + 0; if (S[R, m, "maxrss_kb"] + 0 > rss) rss = S[R, m, "maxrss_kb"] + 0
		printf "%-8s %8.1fms %8s %8.1fms %8.1fms %12s %12s %6d KiB\n", m, S[R, m, "banner_ms"],
			(fl > 0 ? sprintf("%.2fx", S[R, m, "banner_ms"] / fl) : "-"), S[R, m, "output_ms"],
			S[R, m, "exit_ms"], S[R, m, "syscalls_to_banner"], S[R, m, "syscalls_total"], rss
	}

	print ""
	if (!(R in SLOWSEEN)) print "4. Slow mode (ext4slower): not measured in this run"
	else {
		print "4. Slow mode (ext4slower): events over the workload of table 1, summed over rounds, one CPU"
		printf "%-8s %10s %10s %8s %14s\n", "mode", "sent", "read", "lost", "events/s (pread)"
		for (j = 1; j <= 2; j++) {
			m = (j == 1 ? "slow" : "slowall")
			p = opns(R, m, "pread_4k")
			printf "%-8s %10d %10d %8d %14s\n", m, SLOWSENT[R, m], SLOWRECV[R, m], SLOWLOST[R, m],
				(m == "slowall" && p > 0 ? sprintf("%.0f", 1e9 / p) : "-")
		}
		print "   slow: a threshold no call reaches (the slow programs, no event); slowall: min_ms 0, an event per call"
	}

	print ""
	if (nv == 0) { print "5. Per-event cost of alternative designs: not measured in this run"; return }
	printf "5. Per-event cost of alternative designs on ext4_file_read_iter (%s attach, %s rounds x %s preads, medians)\n",
		VR[R, "untraced", "attach"], VR[R, "untraced", "rounds"], VR[R, "untraced", "iters"]
	printf "%-8s %7s %7s %7s %7s %7s %8s %6s %7s %9s %9s %7s %7s\n", "variant", "entry", "return", "total", "min", "vs bcc",
		"pread ns", "ratio", "events", "insns e/r", "JIT e/r", "attach", "detach"
	bcc = VR[R, "bcc", "total_ns"] + 0
	printf "%-8s %7s %7s %7s %7s %7s %8.0f %5.2fx\n", "untraced", "-", "-", "-", "-", "-", VR[R, "untraced", "pread_ns"], 1
	for (i = 1; i <= nv; i++) {
		n = VARS[i]
		printf "%-8s %7.0f %7.0f %7.0f %7.0f %6.2fx %8.0f %5.2fx %7s %4d/%-4d %4d/%-4d %5.1fms %5.1fms\n", n,
			VR[R, n, "entry_ns"], VR[R, n, "return_ns"], VR[R, n, "total_ns"], VR[R, n, "total_min_ns"],
			(bcc > 0 ? VR[R, n, "total_ns"] / bcc : 0), VR[R, n, "pread_ns"], VR[R, n, "ratio"],
			(VR[R, n, "events"] < 0 ? "-" : VR[R, n, "events"]),
			VR[R, n, "entry_insns"], VR[R, n, "return_insns"], VR[R, n, "entry_jited"], VR[R, n, "return_jited"],
			VR[R, n, "attach_pair_ms"], VR[R, n, "detach_pair_ms"]
	}
}

function json_run(R, out,   i, j, o, u, p, t, pr, m, n, bcc, M, nm) {
	printf "    %s: {\n      \"env\": {\"kernel\": %s, \"cpus\": %s, \"clocksource\": %s, \"bpf_jit_enable\": %s},\n",
		q(R), q(ENV[R, "kernel"]), num(ENV[R, "cpus"]), q(ENV[R, "clocksource"]), num(ENV[R, "bpf_jit_enable"]) > out
	nm = run_modes(R, M)
	printf "      \"default_mode\": %s,\n", q(ENV[R, "default_mode"] == "" ? "pmu" : ENV[R, "default_mode"]) > out
	printf "      \"ops_ns\": {" > out
	for (i = 1; i <= nops; i++) {
		o = OPS[i]
		u = opns(R, "untraced", o)
		printf "%s\n        %s: {\"untraced\": %.1f", (i > 1 ? "," : ""), q(o), u > out
		for (j = 1; j <= nm; j++) {
			p = opns(R, M[j], o)
			printf ", %s: %.1f, %s: %.3f", q(M[j]), p, q(M[j] "_ratio"), (u > 0 ? p / u : 0) > out
		}
		printf "}" > out
	}
	printf "\n      },\n      \"programs\": [" > out
	for (i = 1; i <= nprobes; i++) {
		pr = PROBES[i]
		printf "%s\n        {\"probe\": %s", (i > 1 ? "," : ""), q(pr) > out
		for (j = 1; j <= nm; j++)
			printf ", %s: %.1f, %s: %d", q(M[j] "_ns_per_run"), progns(R, M[j], pr), q(M[j] "_runs"), PRUNS[R, M[j], pr] > out
		printf ", \"xlated_insns\": %d, \"jited_bytes\": %d}", XL[pr], JIT[pr] > out
	}
	printf "\n      ],\n      \"startup\": {" > out
	for (i = 1; i <= nsm; i++) {
		m = SMODES[i]
		printf "%s\n        %s: {\"banner_ms\": %s, \"banner_ms_min\": %s, \"output_ms\": %s, \"exit_ms\": %s, \"syscalls_to_banner\": %s, \"syscalls_total\": %s, \"rss_kb\": %s, \"maxrss_kb\": %s, \"runs\": %s}",
			(i > 1 ? "," : ""), q(m), num(S[R, m, "banner_ms"]), num(S[R, m, "banner_ms_min"]), num(S[R, m, "output_ms"]),
			num(S[R, m, "exit_ms"]), num(S[R, m, "syscalls_to_banner"]), num(S[R, m, "syscalls_total"]),
			num(S[R, m, "rss_kb"]), num(S[R, m, "maxrss_kb"]), num(S[R, m, "runs"]) > out
	}
	bcc = VR[R, "bcc", "total_ns"] + 0
	printf "\n      },\n      \"variants\": {\n        \"untraced\": {\"pread_ns\": %s, \"rounds\": %s, \"iters\": %s, \"attach\": %s}",
		num(VR[R, "untraced", "pread_ns"]), num(VR[R, "untraced", "rounds"]), num(VR[R, "untraced", "iters"]), q(VR[R, "untraced", "attach"]) > out
	for (i = 1; i <= nv; i++) {
		n = VARS[i]
		printf ",\n        %s: {\"entry_ns\": %s, \"return_ns\": %s, \"total_ns\": %s, \"total_min_ns\": %s, \"vs_bcc\": %.3f, \"pread_ns\": %s, \"pread_ratio\": %s, \"events\": %s, \"runs\": %s, \"entry_insns\": %s, \"return_insns\": %s, \"entry_jited\": %s, \"return_jited\": %s, \"load_pair_ms\": %s, \"attach_pair_ms\": %s, \"detach_pair_ms\": %s}",
			q(n), num(VR[R, n, "entry_ns"]), num(VR[R, n, "return_ns"]), num(VR[R, n, "total_ns"]), num(VR[R, n, "total_min_ns"]),
			(bcc > 0 ? VR[R, n, "total_ns"] / bcc : 0),
			num(VR[R, n, "pread_ns"]), num(VR[R, n, "ratio"]), num(VR[R, n, "events"]), num(VR[R, n, "return_runs"]),
			num(VR[R, n, "entry_insns"]), num(VR[R, n, "return_insns"]), num(VR[R, n, "entry_jited"]), num(VR[R, n, "return_jited"]),
			num(VR[R, n, "load_pair_ms"]), num(VR[R, n, "attach_pair_ms"]), num(VR[R, n, "detach_pair_ms"]) > out
	}
	printf "\n      }\n    }" > out
}

END {
	print "ext4dist bench (one run per boot; a TCG guest on a shared host is noisy: compare ratios)"
	for (i = 1; i <= nerr; i++) print "ERROR RECORD: " ERRORS[i]
	for (i = 1; i <= nruns; i++) {
		R = RUNS[i]
		if (R == "icount")
			tables(R, "icount: qemu -icount shift=0, guest time = instructions (1 ns = 1 instruction), deterministic")
		else
			tables(R, R ": guest wall-clock time")
	}
	print ""
	print "  null = empty programs (dispatch floor); bcc = BCC's design, histogram in a hash keyed by"
	print "  {char op[16]; u64 slot}; pcpu = ext4dist's first design (start hash); array = shared plain array;"
	print "  pcpu_na = per-CPU, plain adds; tidarr = ext4dist as shipped: start records in a tid-indexed array."
	print "  total = median over rounds of (entry + return) ns per event; min = the least disturbed round."
	print "  floor = tests/bench/bench_floor: the 8 probes ext4dist makes by default on that kernel, made the"
	print "  same way (kprobe PMU, else tracefs) without BPF; exec = a static program that only prints the"
	print "  banner (fork+exec+pipe); to output = SIGINT to the first byte of the histograms; syscalls"
	print "  counted in the guest by a raw_syscalls:sys_enter perf counter on the child from exec (-1: the"
	print "  kernel has no syscall tracepoints)."
	printf "  binary: %d bytes static (%d stripped)", HOST["binary_bytes"], HOST["stripped_bytes"]
	if (HOST["strace_check_calls"] != "")
		printf "; on the host (%s, no kprobes: the --check path) 'strace -f -c ext4dist --check' counts %d syscalls",
			HOST["host_kernel"], HOST["strace_check_calls"]
	printf "\n"

	# --------------------------------------------------------------- targets
	W = RUNS[1]		# wall clock: the first boot (tcg, or kvm)
	SHIP = "tidarr"		# the variant that models bpf/ext4dist.bpf.c
	D = ""			# deterministic: icount when it ran
	for (i = 1; i <= nruns; i++) if (RUNS[i] == "icount") D = "icount"
	rssmax = 0
	# ext4dist's own modes: not the floor, exec, or a peer (tests/bench/peers.sh).
	for (m in PEAK) if (m != "floor" && m != "exec" && m != "libbpf" && m != "bpftrace" && PEAK[m] > rssmax) rssmax = PEAK[m]
	if (RSSHWM["pmu"] > rssmax) rssmax = RSSHWM["pmu"]
	if (RSSHWM["tracefs"] > rssmax) rssmax = RSSHWM["tracefs"]
	T_rss = rssmax > 0 && rssmax < 2048
	T_bin = HOST["binary_bytes"] + 0 < 1500000
	SM = "default"		# start-up as a user gets it: no --attach
	if (!((W, SM, "banner_ms") in S)) SM = "pmu"	# logs of older benches
	T_start = S[W, SM, "banner_ms"] + 0 < 50
	# Wall clock: the least disturbed round (host noise only adds time).
	bw = VR[W, "bcc", "total_min_ns"] + 0; pw = VR[W, SHIP, "total_min_ns"] + 0
	bwm = VR[W, "bcc", "total_ns"] + 0; pwm = VR[W, SHIP, "total_ns"] + 0
	T_ev = pw < bw
	if (D != "") { bd = VR[D, "bcc", "total_ns"] + 0; pd = VR[D, SHIP, "total_ns"] + 0; T_evd = pd < bd }
	print ""
	print "=== Targets"
	printf "%-50s %-34s %s\n", "target", "measured", "verdict"
	printf "%-50s %-34s %s\n", "peak RSS < 2 MiB", rssmax " KiB", yesno(T_rss)
	printf "%-50s %-34s %s\n", "static binary < 1.5 MB (1,500,000 bytes)", HOST["binary_bytes"] " bytes", yesno(T_bin)
	if ((W, "kib") in KMEM)
		printf "%-50s %-34s %s\n", "kernel memory, " KMEM[W, "slots"] " start records (MemTotal " int(KMEM[W, "memtotal_kb"] / 1024) " MiB)", sprintf("%d KiB (%d maps %d, %d programs %d)", KMEM[W, "kib"], KMEM[W, "maps"], KMEM[W, "maps_kib"], KMEM[W, "progs"], KMEM[W, "progs_kib"]), "-"
	printf "%-50s %-34s %s\n", "start-up, exec to banner (" SM ": " (ENV[W, "default_mode"] == "" ? "pmu" : ENV[W, "default_mode"]) ") < 50 ms, " W, sprintf("%.1f ms (floor %.1f ms)", S[W, SM, "banner_ms"], S[W, "floor", "banner_ms"]), yesno(T_start)
	if (D != "")
		printf "%-50s %-34s %s\n", "  (same, icount: guest instructions / 1e6)", sprintf("%.1f M insns (floor %.1f)", S[D, SM, "banner_ms"], S[D, "floor", "banner_ms"]), "-"
	# ext4dist against the kernel's own price of its probes.
	for (i = 1; i <= nruns; i++) {
		R = RUNS[i]
		if (!((R, "floor", "banner_ms") in S) || !((R, SM, "banner_ms") in S)) continue
		FR[R] = S[R, SM, "banner_ms"] / S[R, "floor", "banner_ms"]
		printf "%-50s %-34s %s\n", "start-up " SM " / floor (same probes, no BPF), " R,
			sprintf("%.2fx (%.1f vs %.1f%s)", FR[R], S[R, SM, "banner_ms"], S[R, "floor", "banner_ms"], R == "icount" ? " M insns" : " ms"), "-"
	}
	if (bw > 0) {
		printf "%-50s %-34s %s\n", "per-event cost < BCC string-keyed hash, " W " (min)", sprintf("%.0f ns vs %.0f ns (%.2fx)", pw, bw, (bw > 0 ? pw / bw : 0)), yesno(T_ev)
		printf "%-50s %-34s %s\n", "  (same, " W " medians: noisy)", sprintf("%.0f ns vs %.0f ns (%.2fx)", pwm, bwm, (bwm > 0 ? pwm / bwm : 0)), "-"
	} else
		printf "%-50s %-34s %s\n", "per-event cost < BCC string-keyed hash", "not measured in this run", "-"
	if (D != "" && bd > 0)
		printf "%-50s %-34s %s\n", "per-event cost < BCC string-keyed hash, icount", sprintf("%.0f vs %.0f insns (%.2fx)", pd, bd, (bd > 0 ? pd / bd : 0)), yesno(T_evd)

	# ------------------------------------------------------------------ JSON
	out = json
	printf "{\n  \"runs\": {\n" > out
	for (i = 1; i <= nruns; i++) {
		json_run(RUNS[i], out)
		printf "%s\n", (i < nruns ? "," : "") > out
	}
	printf "  },\n  \"binary\": {\"bytes\": %s, \"stripped_bytes\": %s, \"host_strace_check_syscalls\": %s, \"host_kernel\": %s},\n",
		num(HOST["binary_bytes"]), num(HOST["stripped_bytes"]), num(HOST["strace_check_calls"]), q(HOST["host_kernel"]) > out
	printf "  \"targets\": {\n" > out
	printf "    \"peak_rss_lt_2MiB\": {\"value_kb\": %d, \"met\": %s},\n", rssmax, tf(T_rss) > out
	printf "    \"binary_lt_1.5MB\": {\"value_bytes\": %s, \"met\": %s},\n", num(HOST["binary_bytes"]), tf(T_bin) > out
	printf "    \"kernel_memory\": {\"kib\": %s, \"start_slots\": %s, \"start_kib\": %s, \"memtotal_kb\": %s},\n", num(KMEM[W, "kib"]), num(KMEM[W, "slots"]), num(KMEM[W, "start_kib"]), num(KMEM[W, "memtotal_kb"]) > out
	printf "    \"startup_lt_50ms\": {\"run\": %s, \"mode\": %s, \"value_ms\": %s, \"met\": %s},\n", q(W), q(ENV[W, "default_mode"] == "" ? "pmu" : ENV[W, "default_mode"]), num(S[W, SM, "banner_ms"]), tf(T_start) > out
	printf "    \"startup_vs_floor\": {" > out
	n = 0
	for (i = 1; i <= nruns; i++)
		if (RUNS[i] in FR)
			printf "%s%s: %.3f", (n++ ? ", " : ""), q(RUNS[i]), FR[RUNS[i]] > out
	printf "},\n" > out
	printf "    \"event_cost_lt_bcc_hash\": {\"run\": %s, \"statistic\": \"min of rounds\", \"value_ns\": %s, \"bcc_ns\": %s, \"median_value_ns\": %s, \"median_bcc_ns\": %s, \"met\": %s}", q(W), pw, bw, pwm, bwm, tf(T_ev) > out
	if (D != "")
		printf ",\n    \"event_cost_lt_bcc_hash_icount\": {\"value_insns\": %s, \"bcc_insns\": %s, \"met\": %s}", pd, bd, tf(T_evd) > out
	printf "\n  }\n}\n" > out
	close(out)
	print ""
	print "JSON (" json "):"
	while ((getline line < out) > 0) print line
}
