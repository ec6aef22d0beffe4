# make bench: the records of build/bench/records.txt ("<kind> key=value ...",
# from guest_bench.sh and run.sh) as tables on stdout and as JSON in the file
# named by -v json=FILE.  POSIX awk.

function kv(   i, p, k) {
	delete V
	for (i = 2; i <= NF; i++) {
		p = index($i, "=")
		if (p) { k = substr($i, 1, p - 1); V[k] = substr($i, p + 1) }
	}
}

# median of the n values L[key SUBSEP 1..n]
function med(key, n,   a, i, j, t) {
	if (n < 1) return -1
	for (i = 1; i <= n; i++) a[i] = L[key, i] + 0
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function add(key, v) { N[key]++; L[key, N[key]] = v }
function q(s) { return "\"" s "\"" }
function num(v) { return v == "" ? "null" : v + 0 }
function yesno(b) { return b ? "met" : "NOT met" }

$1 == "env" { kv(); for (k in V) ENV[k] = V[k]; next }
$1 == "host" { kv(); for (k in V) HOST[k] = V[k]; next }
$1 == "error" { ERRORS[++nerr] = $0; next }
$1 == "op" {
	kv()
	if (!((V["name"]) in OPSEEN)) { OPSEEN[V["name"]] = 1; OPS[++nops] = V["name"] }
	add("op" SUBSEP V["mode"] SUBSEP V["name"], V["ns"])
	next
}
$1 == "prog" {
	kv()
	key = V["mode"] SUBSEP V["probe"]
	if (!(V["probe"] in PSEEN)) { PSEEN[V["probe"]] = 1; PROBES[++nprobes] = V["probe"] }
	if (V["run_cnt"] > 0) add("prog" SUBSEP key, V["run_time_ns"] / V["run_cnt"])
	RUNS[key] += V["run_cnt"]
	XL[V["probe"]] = V["xlated_insns"]; JIT[V["probe"]] = V["jited_bytes"]
	next
}
$1 == "rss" { kv(); if (V["vmhwm_kb"] + 0 > RSSHWM[V["mode"]]) RSSHWM[V["mode"]] = V["vmhwm_kb"] + 0; next }
$1 == "counted" { kv(); COUNTED[V["mode"]] = $0; next }
$1 == "startup" {
	kv()
	m = V["mode"]; SMODES[++nsm] = m
	for (k in V) S[m, k] = V[k]
	next
}
$1 == "variant" {
	kv()
	n = V["name"]; if (n != "untraced") VARS[++nv] = n
	for (k in V) VR[n, k] = V[k]
	next
}

END {
	# ---------------------------------------------------------------- tables
	printf "ext4dist bench: kernel %s, %s, %s CPU, clocksource %s, bpf_jit_enable %s, bpf_stats_enabled %s\n",
		ENV["kernel"], ENV["accel"], ENV["cpus"], ENV["clocksource"],
		ENV["bpf_jit_enable"], ENV["bpf_stats_enabled"]
	print "(one run; timings in a TCG guest on a shared host are noisy: compare the ratios)"
	for (i = 1; i <= nerr; i++) print "ERROR RECORD: " ERRORS[i]

	print ""
	print "1. Workload, ns per operation (median of rounds), traced / untraced"
	printf "%-12s %12s %12s %8s %12s %8s\n", "operation", "untraced", "pmu", "ratio", "tracefs", "ratio"
	for (i = 1; i <= nops; i++) {
		o = OPS[i]
		u = med("op" SUBSEP "untraced" SUBSEP o, N["op" SUBSEP "untraced" SUBSEP o])
		p = med("op" SUBSEP "pmu" SUBSEP o, N["op" SUBSEP "pmu" SUBSEP o])
		t = med("op" SUBSEP "tracefs" SUBSEP o, N["op" SUBSEP "tracefs" SUBSEP o])
		OPU[o] = u; OPP[o] = p; OPT[o] = t
		printf "%-12s %12.0f %12.0f %7.2fx %12.0f %7.2fx\n", o, u, p, (u > 0 ? p / u : 0), t, (u > 0 ? t / u : 0)
	}

	print ""
	print "2. ext4dist's own programs, kernel bpf_stats (run_time_ns / run_cnt, median of rounds)"
	printf "%-34s %10s %10s %10s %7s %6s\n", "probe", "pmu ns", "tracefs ns", "runs", "insns", "JIT B"
	for (i = 1; i <= nprobes; i++) {
		pr = PROBES[i]
		a = med("prog" SUBSEP "pmu" SUBSEP pr, N["prog" SUBSEP "pmu" SUBSEP pr])
		b = med("prog" SUBSEP "tracefs" SUBSEP pr, N["prog" SUBSEP "tracefs" SUBSEP pr])
		PNS[pr] = a; PNT[pr] = b
		printf "%-34s %10.0f %10.0f %10d %7d %6d\n", pr, a, b, RUNS["pmu" SUBSEP pr], XL[pr], JIT[pr]
		if (pr ~ /ext4_file_read_iter$/) readev += a
	}

	print ""
	print "3. Start-up and footprint (median of runs; RSS the largest)"
	printf "%-8s %10s %10s %10s %12s %12s %9s\n", "mode", "to banner", "to output", "to exit", "syscalls<=b", "syscalls all", "peak RSS"
	for (i = 1; i <= nsm; i++) {
		m = SMODES[i]
		rss = S[m, "rss_kb"] + 0; if (S[m, "maxrss_kb"] + 0 > rss) rss = S[m, "maxrss_kb"] + 0
		if (m in RSSHWM && RSSHWM[m] > rss) rss = RSSHWM[m]
		PEAK[m] = rss
		printf "%-8s %8.1fms %8.1fms %8.1fms %12s %12s %6d KiB\n", m, S[m, "banner_ms"], S[m, "output_ms"],
			S[m, "exit_ms"], S[m, "syscalls_to_banner"], S[m, "syscalls_total"], rss
	}
	print "  (floor = a static program that only prints the banner: fork+exec+pipe in this VM;"
	print "   to output = SIGINT to the first byte of the histograms; syscalls counted in the guest"
	print "   by a raw_syscalls:sys_enter perf counter on the child, from exec)"
	printf "  binary: %d bytes static (%d stripped)", HOST["binary_bytes"], HOST["stripped_bytes"]
	if (HOST["strace_check_calls"] != "")
		printf "; host 'strace -f -c ext4dist --check' on %s (no kprobes: error path): %d syscalls", HOST["host_kernel"], HOST["strace_check_calls"]
	printf "\n"

	print ""
	printf "4. Per-event cost of alternative designs on ext4_file_read_iter (%s, %s rounds x %s preads, medians)\n",
		VR["untraced", "attach"], VR["untraced", "rounds"], VR["untraced", "iters"]
	printf "%-8s %8s %8s %8s %7s %9s %6s %8s %9s %9s %7s %7s\n", "variant", "entry", "return", "total", "vs bcc",
		"pread ns", "ratio", "events", "insns e/r", "JIT e/r", "attach", "detach"
	bcc = VR["bcc", "total_ns"] + 0
	printf "%-8s %8s %8s %8s %7s %9.0f %5.2fx\n", "untraced", "-", "-", "-", "-", VR["untraced", "pread_ns"], 1
	for (i = 1; i <= nv; i++) {
		n = VARS[i]
		printf "%-8s %8.0f %8.0f %8.0f %6.2fx %9.0f %5.2fx %8s %4d/%-4d %4d/%-4d %5.1fms %5.1fms\n", n,
			VR[n, "entry_ns"], VR[n, "return_ns"], VR[n, "total_ns"],
			(bcc > 0 ? VR[n, "total_ns"] / bcc : 0), VR[n, "pread_ns"], VR[n, "ratio"],
			(VR[n, "events"] < 0 ? "-" : VR[n, "events"]),
			VR[n, "entry_insns"], VR[n, "return_insns"], VR[n, "entry_jited"], VR[n, "return_jited"],
			VR[n, "attach_pair_ms"], VR[n, "detach_pair_ms"]
	}
	print "  null = empty programs (dispatch floor); bcc = BCC's hash keyed by {char op[16]; u64 slot};"
	print "  pcpu = ext4dist as shipped; array = shared plain array; pcpu_na = per-CPU, plain adds;"
	print "  tidarr = pcpu_na + start timestamps in a tid-indexed array instead of the hash"

	# --------------------------------------------------------------- targets
	rssmax = 0
	for (m in PEAK) if (m != "floor" && PEAK[m] > rssmax) rssmax = PEAK[m]
	T_rss = rssmax > 0 && rssmax < 2048
	T_bin = HOST["binary_bytes"] + 0 < 1500000
	T_start = S["pmu", "banner_ms"] + 0 < 50
	T_event = VR["pcpu", "total_ns"] + 0 < bcc
	print ""
	print "5. Targets"
	printf "%-46s %-26s %s\n", "target", "measured", "verdict"
	printf "%-46s %-26s %s\n", "peak RSS < 2 MiB", rssmax " KiB", yesno(T_rss)
	printf "%-46s %-26s %s\n", "static binary < 1.5 MB (1,500,000 bytes)", HOST["binary_bytes"] " bytes", yesno(T_bin)
	printf "%-46s %-26s %s\n", "start-up (exec to banner, pmu) < 50 ms in TCG", sprintf("%.1f ms (floor %.1f ms)", S["pmu", "banner_ms"], S["floor", "banner_ms"]), yesno(T_start)
	printf "%-46s %-26s %s\n", "per-event cost < BCC-style string-keyed hash", sprintf("%.0f ns vs %.0f ns", VR["pcpu", "total_ns"], bcc), yesno(T_event)

	# ------------------------------------------------------------------ JSON
	out = json
	printf "{\n  \"env\": {\"kernel\": %s, \"accel\": %s, \"cpus\": %s, \"clocksource\": %s, \"bpf_jit_enable\": %s, \"host_kernel\": %s},\n",
		q(ENV["kernel"]), q(ENV["accel"]), num(ENV["cpus"]), q(ENV["clocksource"]), num(ENV["bpf_jit_enable"]), q(ENV["host_kernel"]) > out
	printf "  \"ops_ns\": {" > out
	for (i = 1; i <= nops; i++) {
		o = OPS[i]
		printf "%s\n    %s: {\"untraced\": %.1f, \"pmu\": %.1f, \"tracefs\": %.1f, \"pmu_ratio\": %.3f, \"tracefs_ratio\": %.3f}",
			(i > 1 ? "," : ""), q(o), OPU[o], OPP[o], OPT[o], (OPU[o] > 0 ? OPP[o] / OPU[o] : 0), (OPU[o] > 0 ? OPT[o] / OPU[o] : 0) > out
	}
	printf "\n  },\n  \"programs\": [" > out
	for (i = 1; i <= nprobes; i++) {
		pr = PROBES[i]
		printf "%s\n    {\"probe\": %s, \"pmu_ns_per_run\": %.1f, \"tracefs_ns_per_run\": %.1f, \"runs_pmu\": %d, \"xlated_insns\": %d, \"jited_bytes\": %d}",
			(i > 1 ? "," : ""), q(pr), PNS[pr], PNT[pr], RUNS["pmu" SUBSEP pr], XL[pr], JIT[pr] > out
	}
	printf "\n  ],\n  \"startup\": {" > out
	for (i = 1; i <= nsm; i++) {
		m = SMODES[i]
		printf "%s\n    %s: {\"banner_ms\": %s, \"banner_ms_min\": %s, \"output_ms\": %s, \"exit_ms\": %s, \"syscalls_to_banner\": %s, \"syscalls_total\": %s, \"peak_rss_kb\": %d, \"runs\": %s}",
			(i > 1 ? "," : ""), q(m), num(S[m, "banner_ms"]), num(S[m, "banner_ms_min"]), num(S[m, "output_ms"]), num(S[m, "exit_ms"]),
			num(S[m, "syscalls_to_banner"]), num(S[m, "syscalls_total"]), PEAK[m], num(S[m, "runs"]) > out
	}
	printf "\n  },\n  \"binary\": {\"bytes\": %s, \"stripped_bytes\": %s, \"host_strace_check_syscalls\": %s},\n",
		num(HOST["binary_bytes"]), num(HOST["stripped_bytes"]), num(HOST["strace_check_calls"]) > out
	printf "  \"variants\": {\n    \"untraced\": {\"pread_ns\": %s, \"rounds\": %s, \"iters\": %s, \"attach\": %s}",
		num(VR["untraced", "pread_ns"]), num(VR["untraced", "rounds"]), num(VR["untraced", "iters"]), q(VR["untraced", "attach"]) > out
	for (i = 1; i <= nv; i++) {
		n = VARS[i]
		printf ",\n    %s: {\"entry_ns\": %s, \"return_ns\": %s, \"total_ns\": %s, \"vs_bcc\": %.3f, \"pread_ns\": %s, \"pread_ratio\": %s, \"events\": %s, \"runs\": %s, \"entry_insns\": %s, \"return_insns\": %s, \"entry_jited\": %s, \"return_jited\": %s, \"load_pair_ms\": %s, \"attach_pair_ms\": %s, \"detach_pair_ms\": %s}",
			q(n), num(VR[n, "entry_ns"]), num(VR[n, "return_ns"]), num(VR[n, "total_ns"]), (bcc > 0 ? VR[n, "total_ns"] / bcc : 0),
			num(VR[n, "pread_ns"]), num(VR[n, "ratio"]), num(VR[n, "events"]), num(VR[n, "return_runs"]),
			num(VR[n, "entry_insns"]), num(VR[n, "return_insns"]), num(VR[n, "entry_jited"]), num(VR[n, "return_jited"]),
			num(VR[n, "load_pair_ms"]), num(VR[n, "attach_pair_ms"]), num(VR[n, "detach_pair_ms"]) > out
	}
	printf "\n  },\n  \"targets\": {\n" > out
	printf "    \"peak_rss_lt_2MiB\": {\"value_kb\": %d, \"met\": %s},\n", rssmax, T_rss ? "true" : "false" > out
	printf "    \"binary_lt_1.5MB\": {\"value_bytes\": %s, \"met\": %s},\n", num(HOST["binary_bytes"]), T_bin ? "true" : "false" > out
	printf "    \"startup_lt_50ms_tcg\": {\"value_ms\": %s, \"met\": %s},\n", num(S["pmu", "banner_ms"]), T_start ? "true" : "false" > out
	printf "    \"event_cost_lt_bcc_hash\": {\"value_ns\": %s, \"bcc_ns\": %s, \"met\": %s}\n", num(VR["pcpu", "total_ns"]), bcc, T_event ? "true" : "false" > out
	printf "  }\n}\n" > out
	close(out)
	print ""
	print "JSON (" json "):"
	while ((getline line < out) > 0) print line
}
