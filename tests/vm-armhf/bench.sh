#!/bin/bash
# make bench's armhf part: the static 32-bit ARM ext4dist on Debian's armmp
# 6.1 (and, with arguments, other kernel specs of run.sh), booted once
# under qemu -icount shift=0, where the guest clock counts guest
# instructions: deterministic on a shared host.  In that one boot, for the
# eBPF JIT on and off: start-up (exec to banner, SIGINT to exit) of
# ext4dist beside floor8, the same 8 kprobes through the PMU without BPF
# (the kernel's own floor), and the guest instructions ext4dist's entry
# and return programs take per traced call (bpf_stats).  Before them, the
# kernel's price of those 8 probes made by name, by MOD:SYM and by
# address, through the PMU and kprobe_events (floor8 --time), and the
# instructions floor8 and ext4dist themselves run to the banner (their
# profiles: under -icount the elapsed figures count idle time too, which
# jumps to the next tick, so that two runs of the same work may differ
# by a tick or more).
#
#   tests/vm-armhf/bench.sh [SPEC...]      default: 6.1
#   BENCH_START_RUNS=N                     start-up runs (default 5)
#
# Prints a table; "SKIP armhf bench: <reason>" when the machine lacks
# what it needs.  The raw records stay in build/vm-armhf/bench-<spec>/.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

foreign_bench_ready armhf qemu-system-arm armhf

[ $# -gt 0 ] || set -- 6.1
status=0
for spec in "$@"; do
	kdir=$(armhf_fetch_kernel "$spec-jit") || { echo "SKIP armhf bench: no kernel for $spec"; continue; }
	kver=$(vm_kernel_version "$kdir")
	out=$VM_BUILD/bench-$spec
	mkdir -p "$out"
	EXT4DIST_ARMHF_SCENARIOS="" vm_build_initramfs "$kdir" "$out/initramfs.cpio.gz" "$busybox" &&
		vm_make_images "$out/images" || { echo "FAIL armhf bench: $spec set-up"; status=1; continue; }
	echo "armhf bench: booting $kver under -icount shift=0, log in $out/console.log" >&2
	rc=0
	ARMHF_QEMU_EXTRA="-icount shift=0" \
	ARMHF_APPEND_EXTRA="ext4dist_runs=${BENCH_START_RUNS:-5}" \
		vm_boot "$kdir" "$out/initramfs.cpio.gz" bench "$out/console.log" \
		"$out/results.log" "$spec-jit" "$out/images/ext4.img" \
		"$out/images/ext3.img" "$out/images/ext2.img" \
		"$out/images/bare.img" "$out/images/odd.img" || rc=$?
	foreign_bench_records armhf "$spec" "$out" "$rc" || { status=1; continue; }
	awk -v spec="$spec" -v kver="$kver" '
	function kv(k,   i, p) {
		for (i = 1; i <= NF; i++) {
			p = index($i, "=")
			if (substr($i, 1, p - 1) == k) return substr($i, p + 1)
		}
		return ""
	}
	$1 == "kmem" { kmem = substr($0, 6) }
	$1 == "startup" {
		banner[kv("mode")] = kv("banner_ms"); exitt[kv("mode")] = kv("exit_ms")
		own[kv("mode")] = kv("own_ms"); ownmin[kv("mode")] = kv("own_ms_min")
		if (kv("mode") ~ /^rss-/) {
			r = kv("rss_kb") + 0; if (kv("maxrss_kb") + 0 > r) r = kv("maxrss_kb") + 0
			rss[++nrss] = substr(kv("mode"), 5) " " r
		}
	}
	$1 == "maxrss" { rss[++nrss] = substr(kv("mode"), 5) " " kv("maxrss_kb") }
	$1 == "prog" && kv("run_cnt") > 0 {
		m = kv("mode"); n = kv("name")
		if (n ~ /^entry_/) { ecnt[m] += kv("run_cnt"); ens[m] += kv("run_time_ns"); einsn[m] = kv("xlated_insns"); ejit[m] = kv("jited_bytes") }
		if (n ~ /^return_/) { rcnt[m] += kv("run_cnt"); rns[m] += kv("run_time_ns"); rinsn[m] = kv("xlated_insns"); rjit[m] = kv("jited_bytes") }
	}
	$1 == "counted" { counted[kv("jit")] = $0 }
	END {
		printf "\narmhf kernel memory of a default run (--check, memlock in fdinfo): %s\n", kmem
		printf "\narmhf start-up on Debian %s (qemu-system-arm virt, cortex-a15, -icount shift=0: 1 ns = 1 guest instruction; medians)\n\n", kver
		printf "| JIT | floor8: 8 kprobes, no BPF (exec to banner) | ext4dist (exec to banner) | ext4dist / floor | ext4dist SIGINT to exit | floor8 SIGINT to exit |\n"
		printf "| --- | ---: | ---: | ---: | ---: | ---: |\n"
		for (j = 1; j >= 0; j--) {
			f = banner["floor8-jit" j]; e = banner["ext4dist-jit" j]
			printf "| %s | %.1f M | %.1f M | %.2fx | %.1f M | %.1f M |\n", (j ? "on" : "off"),
				f, e, (f > 0 ? e / f : 0),
				exitt["ext4dist-jit" j], exitt["floor8-jit" j]
		}
		printf "\nExec to banner, each kprobe path (JIT on), the instructions of the process itself: its run time in /proc/PID/schedstat at the banner, without idle time or other tasks; M, medians (the least in brackets):\n\n"
		printf "| path | floor8, by name | floor8, by address | ext4dist | / floor by name | / floor by address |\n"
		printf "| --- | ---: | ---: | ---: | ---: | ---: |\n"
		split("pmu tracefs", paths, " ")
		for (k = 1; k <= 2; k++) {
			p = paths[k]; fn = own["path-floor8-" p "-name"]; fa = own["path-floor8-" p "-addr"]
			e = own["path-ext4dist-" p]
			printf "| %s | %.2f (%.2f) | %.2f (%.2f) | %.2f (%.2f) | %.3fx | %.3fx |\n", p,
				fn, ownmin["path-floor8-" p "-name"], fa, ownmin["path-floor8-" p "-addr"],
				e, ownmin["path-ext4dist-" p], (fn > 0 ? e / fn : 0), (fa > 0 ? e / fa : 0)
		}
		printf "\nPer traced call (entry + return program), guest instructions, bpf_stats run_time_ns / run_cnt:\n\n"
		printf "| JIT | entry | return | per call | BPF insns entry / return | JIT bytes entry / return |\n"
		printf "| --- | ---: | ---: | ---: | ---: | ---: |\n"
		for (j = 1; j >= 0; j--) {
			m = "jit" j
			e = (ecnt[m] ? ens[m] / ecnt[m] : 0); r = (rcnt[m] ? rns[m] / rcnt[m] : 0)
			printf "| %s | %.0f | %.0f | %.0f | %s / %s | %s / %s |\n", (j ? "on" : "off"),
				e, r, e + r, einsn[m], rinsn[m], ejit[m], rjit[m]
		}
		printf "\nPeak RSS (JIT on; the runs: the largest of ru_maxrss, VmHWM and smaps_rollup 300 ms after the banner):\n\n"
		printf "| mode | peak RSS |\n| --- | ---: |\n"
		for (i = 1; i <= nrss; i++) {
			split(rss[i], w, " ")
			printf "| %s | %d KiB |\n", w[1], w[2]
		}
		printf "\n"
	}' "$out/records"
	awk -f "$ARMHF_DIR/places.awk" "$out/records"
done
exit "$status"
