# tests/vm-arm64/bench.sh's start-up tables, after tests/vm-armhf/places.awk
# in the same awk (its kv, least and med; its tables come first): from the
# "startup" records of bench_probe, exec to banner of floor8 and ext4dist,
# each ext4dist run against the floor of its path; from "profile" and
# "profile_sym", where the default run and --check spend their
# instructions; from "profile_uip" and syms (nm's "ADDR NAME" of the
# binary, sorted), the user-space functions of the default run.  kver:
# the kernel's release.
function hex(h,   i, n) {
	n = 0; h = tolower(h); sub(/^0x/, "", h)
	for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return n
}
BEGIN {
	while (syms != "" && (getline l < syms) > 0) {
		split(l, w, " "); sa[++ns] = hex(w[1]); sn[ns] = w[2]
	}
}
$1 == "profile" && kv("mode") == "ext4dist-user" && kv("phase") == "start" {
	uperiod = kv("period")
}
$1 == "profile_uip" && kv("mode") == "ext4dist-user" && kv("phase") == "start" {
	a = hex(kv("ip")); lo = 1; hi = ns; f = "?"
	if (ns && a >= sa[1]) {
		while (lo < hi) { mid = int((lo + hi + 1) / 2); if (sa[mid] <= a) lo = mid; else hi = mid - 1 }
		f = sn[lo]
	}
	if (!(f in ucount)) uname[++nu] = f
	ucount[f]++; utotal++
}
$1 == "startup" {
	m = kv("mode"); ban[m] = kv("banner_ms"); banmin[m] = kv("banner_ms_min")
	ex[m] = kv("exit_ms"); exmin[m] = kv("exit_ms_min")
}
$1 == "check_line" { chk[++nchk] = substr($0, 12) }
$1 == "profile_sym" && kv("phase") == "start" && kv("kind") == "self" &&
    (kv("mode") == "ext4dist-default" || kv("mode") == "ext4dist-check") {
	m = kv("mode"); if (++nsym[m] <= 12) sym[m, nsym[m]] = kv("sym") " " kv("pct")
}
END {
	printf "\narm64 start-up on Debian %s (qemu-system-aarch64 virt, -cpu max, -icount shift=0,sleep=off: 1 ns = 1 guest instruction; exec to banner, median (least) of the runs, M guest instructions):\n\n", kver
	printf "| run | exec to banner | / floor8 PMU by address | / floor8 tracefs by address | SIGINT to exit |\n"
	printf "| --- | ---: | ---: | ---: | ---: |\n"
	fp = ban["floor-pmu-addr"]; ft = ban["floor-tracefs-addr"]
	split("floor-pmu-addr floor-tracefs-addr floor-pmu-name floor-tracefs-name ext4dist-default ext4dist-pmu ext4dist-tracefs", rows, " ")
	for (i = 1; i <= 7; i++) {
		m = rows[i]
		if (!(m in ban)) { printf "| %s | (no record) | | | |\n", m; continue }
		printf "| %s | %.2f (%.2f) | %s | %s | %.1f (%.1f) |\n", m, ban[m], banmin[m],
			(fp > 0 && m != "ext4dist-tracefs" ? sprintf("%.3fx", ban[m] / fp) : ""),
			(ft > 0 && m != "ext4dist-pmu" ? sprintf("%.3fx", ban[m] / ft) : ""),
			ex[m], exmin[m]
	}
	for (k = 1; k <= 2; k++) {
		m = (k == 1 ? "ext4dist-default" : "ext4dist-check")
		printf "\nTop kernel functions (self) of %s, exec to banner (or to exit), %% of its samples:\n\n", m
		for (i = 1; i <= nsym[m] && i <= 12; i++) {
			split(sym[m, i], w, " "); printf "    %-40s %s%%\n", w[1], w[2]
		}
	}
	if (utotal) {
		printf "\nUser space of the default run, exec to banner (bench_probe profile --period %s --user-ips: %d samples, %.2f M), top functions:\n\n", uperiod, utotal, utotal * uperiod / 1e6
		for (k = 1; k <= 15; k++) {
			best = ""
			for (i = 1; i <= nu; i++)
				if (!(uname[i] in shown) && (best == "" || ucount[uname[i]] > ucount[best])) best = uname[i]
			if (best == "") break
			shown[best] = 1
			printf "    %-40s %5.1f%% %.2f M\n", best, 100 * ucount[best] / utotal, ucount[best] * uperiod / 1e6
		}
	}
	printf "\next4dist --check (the default's path):\n\n"
	for (i = 1; i <= nchk; i++) printf "    %s\n", chk[i]
}
