# The records of guest/armhf-places.sh ("place ..." from floor8 --time,
# "profile ..." from bench_probe profile) as two tables: the kernel's
# price of the 8 probes by each place, and the instructions each process
# runs to its banner.  For tests/vm-armhf/bench.sh, places-x86.sh and
# tests/vm-arm64/bench.sh.
function kv(k,   i, p) {
	for (i = 1; i <= NF; i++) {
		p = index($i, "=")
		if (substr($i, 1, p - 1) == k) return substr($i, p + 1)
	}
	return ""
}
function least(v, n,   i, m) {
	m = v[1]
	for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]
	return m
}
function med(v, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
$1 == "place" && kv("make_ns") != "" {
	k = kv("how") " " kv("by"); n = ++np[k]
	mk[k, n] = kv("make_ns") / 1e6; mc[k, n] = kv("make_cpu_ns") / 1e6
	rc[k, n] = kv("remove_cpu_ns") / 1e6
}
$1 == "place" && kv("make_ns") == "" { bad++ }
$1 == "profile" && kv("phase") == "start" {
	own[kv("mode")] = kv("samples") * kv("period") / 1e6
	ownu[kv("mode")] = kv("user") * kv("period") / 1e6
	if (!(kv("mode") in seen)) { seen[kv("mode")] = 1; owned[++nown] = kv("mode") }
}
END {
	printf "\nThe same 8 probes without BPF, by place (floor8 --time, %d runs; M guest instructions: medians, the least in brackets). Elapsed counts idle time, which jumps to the next tick; own is floor8's CLOCK_THREAD_CPUTIME_ID, without it:\n\n", np["pmu name"]
	if (bad) printf "(%d runs failed: their records say why)\n\n", bad
	printf "| made through | place | make, elapsed | make, own time | remove, own time |\n"
	printf "| --- | --- | ---: | ---: | ---: |\n"
	split("pmu tracefs", hows, " "); split("name mod addr", bys, " ")
	split("a name,ext4:NAME,an address", byname, ",")
	for (h = 1; h <= 2; h++)
		for (y = 1; y <= 3; y++) {
			k = hows[h] " " bys[y]; n = np[k]
			if (!n) continue
			for (i = 1; i <= n; i++) { pv[i] = mk[k, i]; pc[i] = mc[k, i]; pr[i] = rc[k, i] }
			printf "| %s | %s | %.2f (%.2f) | %.2f (%.2f) | %.2f |\n",
				(hows[h] == "pmu" ? "the kprobe PMU" : "kprobe_events, r64:"), byname[y],
				med(pv, n), least(pv, n), med(pc, n), least(pc, n), med(pr, n)
		}
	printf "\nExec to banner, the instructions of the process itself (bench_probe profile: samples x period, kernel and user, the sampler's own work included; no idle time):\n\n"
	printf "| run | M instructions | of them user space |\n| --- | ---: | ---: |\n"
	for (i = 1; i <= nown; i++)
		printf "| %s | %.1f | %.1f |\n", owned[i], own[owned[i]], ownu[owned[i]]
}
