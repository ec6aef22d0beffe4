# tests/budget/judge.awk BUDGET RECORDS: the guard's verdicts.  BUDGET
# (tests/bench/budget) has one figure a line, "NAME LIMIT UNIT WHY...";
# RECORDS are tests/budget/guest.sh's (and run.sh's binary sizes).  Every
# figure of the budget is measured and at most its limit: "PASS budget
# NAME", else "FAIL budget NAME" with the figure, the limit and why the
# limit is what it is; one not measured fails too.  -v series: the kernel
# series booted, for the lines.

# kv(KEY): the value of KEY=... in the current record, else "".
function kv(k,   i, p) {
	for (i = 2; i <= NF; i++) {
		p = index($i, "=")
		if (substr($i, 1, p - 1) == k) return substr($i, p + 1)
	}
	return ""
}
function max(a, b) { return a == "" || b + 0 > a + 0 ? b : a }

FNR == NR {
	if ($0 ~ /^[ \t]*(#|$)/) next
	nb++
	bname[nb] = $1; blimit[$1] = $2; bunit[$1] = $3
	why = $0
	sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]*/, "", why)
	bwhy[$1] = why
	next
}
$1 == "binary" { fig["binary." kv("arch")] = kv("bytes") }
# "skip FIGURE REASON...": a figure this machine cannot measure, said.
$1 == "skip" { r = $0; sub(/^skip [^ ]+ /, "", r); skipped[$2] = r }
$1 == "startup" {
	m = kv("mode")
	# Exit: the least of the runs.  Its price is the kernel's unregistering
	# and RCU grace periods, whose length moves with where the timer tick
	# falls: the floor's own exit spreads 217 to 225 M instructions over
	# three runs, its least stays put.
	banner[m] = kv("banner_ms"); leave[m] = kv("exit_ms_min")
	fig["peak_rss." m] = max(fig["peak_rss." m], kv("maxrss_kb"))
	fig["peak_rss." m] = max(fig["peak_rss." m], kv("rss_kb"))
}
$1 == "startup_run" {
	m = kv("mode")
	fig["steady_rss." m] = max(fig["steady_rss." m], kv("smaps_rss_kb"))
}
$1 == "maxrss" {
	fig["peak_rss." kv("mode")] = max(kv("maxrss_kb"), kv("sampled_peak_kb"))
	if (kv("status") != 0 && kv("status") != 1)
		errors = errors "\n    | " kv("mode") " exited " kv("status")
}
$1 == "op" && kv("name") == "pread_4k" { pread[kv("mode")] = kv("ns") + 0; iters[kv("mode")] = kv("iters") + 0 }
# Programs that ran once per pread or more (not the odd open of the file).
$1 == "prog" { prog_cnt[++np] = kv("run_cnt") + 0; prog_mode[np] = kv("mode"); prog_ns[np] = kv("ns_per_run") + 0 }
$1 == "env" { paths = kv("paths"); default_path = kv("default") }
$1 == "error" { errors = errors "\n    | " $0 }
END {
	for (m in banner) {
		if (m ~ /^floor/) continue
		floor = m == "tracefs" ? "floor-tracefs" : "floor-pmu"
		if (banner[floor] > 0) {
			fig["startup." m] = sprintf("%.3f", banner[m] / banner[floor])
			fig["exit." m] = sprintf("%.3f", leave[m] / leave[floor])
		}
		fig["banner_minsn." m] = banner[m]	# ms of icount: M instructions
	}
	for (i = 1; i <= np; i++)
		if (prog_cnt[i] >= iters[prog_mode[i]] / 2 && iters[prog_mode[i]] > 0)
			per[prog_mode[i]] += prog_ns[i]
	for (m in per) fig["insns_per_event." m] = sprintf("%.0f", per[m])
	for (m in pread)
		if (m != "untraced" && pread["untraced"] > 0)
			fig["pread_ratio." m] = sprintf("%.3f", pread[m] / pread["untraced"])
	printf "budget: %s, paths %s, default %s; every figure measured:\n", series, paths, default_path
	n = 0
	for (f in fig) names[++n] = f
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
	for (i = 1; i <= n; i++) printf "    %-28s %s\n", names[i], fig[names[i]]
	if (errors != "") printf "FAIL budget guest: errors in the boot%s\n", errors
	for (i = 1; i <= nb; i++) {
		f = bname[i]
		if (f in skipped)
			printf "SKIP budget %s: %s\n", f, skipped[f]
		else if (!(f in fig) || fig[f] == "")
			printf "FAIL budget %s: not measured (%s budget %s %s: %s)\n", f, series, blimit[f], bunit[f], bwhy[f]
		else if (fig[f] + 0 > blimit[f] + 0)
			printf "FAIL budget %s: %s %s, over its budget of %s %s (%s)\n", f, fig[f], bunit[f], blimit[f], bunit[f], bwhy[f]
		else
			printf "PASS budget %s: %s %s (at most %s)\n", f, fig[f], bunit[f], blimit[f]
	}
}
