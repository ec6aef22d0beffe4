# shellcheck shell=dash disable=SC3043 # busybox ash has local
# The experiments of docs/learn.md, each run as a learner runs it and held
# to what the page says it shows.  exp_* FILE: one experiment, its output
# in FILE, its PASS/FAIL lines; docs.sh's runs of the same names give the
# page's output blocks.  Sourced by scenarios.sh; needs /mnt/ext4.

# 1. The fallbacks of old kernels on this one: no kprobe_multi, no kprobe
# PMU, no per-CPU maps, no names.
exp_pretend() {
	ext4dist --check --pretend=no-multi,no-pmu,no-percpu,no-names > "$1" 2>&1 || true
	check exp-pretend-multi "$(sed -n 's/^kprobe_multi  *//p' "$1")" \
		"no: no kprobe_multi links (--pretend=no-multi)" "$1"
	check exp-pretend-pmu "$(sed -n 's/^kprobe PMU  *//p' "$1")" \
		"no: no kprobe PMU (--pretend=no-pmu)" "$1"
	check exp-pretend-path "$(sed -n 's/^attach path  *//p' "$1" | head -n 1)" tracefs "$1"
	if [ "$(uname -m)" = armv7l ] && [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 1 ] &&
	   [ "${KERNEL%%.*}" -ge 6 ]; then
		# 32-bit ARM's JIT has no atomic add: the plain array's
		# programs are refused here (6.1), as the page says; 5.10
		# runs them in its interpreter instead.
		check exp-pretend-maps "$(grep -c "^bpf programs  *no: the kernel's BPF JIT cannot compile BPF program k[a-z]*probe/[a-z_0-9]*/atomic (error 524, ENOTSUPP: " "$1")" 1 "$1"
	else
		check exp-pretend-maps "$(grep -c '^bpf programs  *yes: .* (histograms in a array map, unnamed (--pretend=no-names)), atomic adds (no per-CPU maps)$' "$1")" 1 "$1"
	fi
}

# 2. kprobe_events while a tracefs run traces fsync: its two lines (the
# return probe, the entry probe), and none once it stopped.
exp_kprobe_events() {
	local name=exp-kprobe-events out=$WORK/exp-ke.out
	ensure_tracefs
	ext4dist --attach=tracefs --ops fsync > "$out" 2>&1 &
	EPID=$!
	if ! wait_banner "$EPID" "$out" 60; then
		fail "$name" "no banner from ext4dist --attach=tracefs --ops fsync" "$out"
		kill -9 "$EPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		return 0
	fi
	{
		echo "\$ cat /sys/kernel/tracing/kprobe_events"
		cat "$TRACEFS/kprobe_events"
	} > "$1"
	kill -INT "$EPID"
	wait_exit "$EPID" 30 || true
	check "$name-during" "$(grep -c "^[pr][0-9]*:kprobes/ext4dist_${EPID}_[0-9a-f]*_[pr]_ext4_sync_file " "$1")" 2 "$1" "$out" /proc/mounts
	check "$name-after" "$(our_events "${EPID}_" | wc -l)" 0
}

# 3. --dump-maps: each CPU's counts of the histogram buffer, whose sums
# are the histogram, bucket by bucket.
exp_dump_maps() {
	local name=exp-dump-maps dumped hist
	traced_run "$name" /mnt/ext4/exp-dm 1 0 2 4 --dump-maps --ops fsync || return 0
	cat "$OUT" "$ERR" > "$1"
	dumped=$(sed -n 's/^ext4dist:   slot [0-9]* (\([0-9]*\) -> \([0-9]*\) usecs): .* = \([0-9]*\)$/\1 \2 \3/p' "$ERR" |
		awk '{ n[$1 " " $2] += $3 } END { for (k in n) print k, n[k] }' | sort -n)
	hist=$(awk '$2 == "->" && $5 > 0 { print $1, $3, $5 }' "$OUT" | sort -n)
	check "$name-per-cpu" "$([ "$(grep -c '^ext4dist: map hist, key [0-9]* (fsync, buffer [01]): ' "$ERR")" -ge 1 ] && echo yes)" yes "$ERR"
	check "$name-sums-are-the-histogram" "$dumped" "$hist" "$OUT" "$ERR"
	check "$name-fsyncs" "$(echo "$hist" | awk '{ n += $3 } END { print n + 0 }')" 4 "$OUT"
}

# 4. The verifier refusing a program broken on purpose.
exp_refused() {
	local name=exp-refused rc=0
	ext4dist --dump-bpf=refused > "$1" 2>&1 || rc=$?
	check "$name-exit" "$rc" 0 "$1"
	check "$name-why" "$(grep -c '^invalid access to map value, value_size=8 off=8 size=8$' "$1")" 1 "$1"
	check "$name-said" "$(grep -c "^the kernel's verifier rejected BPF program kprobe/ext4_file_open/refused: Permission denied (verifier log follows)$" "$1")" 1 "$1"
}

scenario_experiments() {
	if has_kprobe_pmu; then
		exp_pretend "$WORK/exp-pretend.txt"
	else
		out "SKIP $KERNEL exp-pretend: no kprobe PMU to pretend away (before 4.17): its --check says the same without --pretend"
	fi
	exp_kprobe_events "$WORK/exp-kprobe-events.txt"
	exp_dump_maps "$WORK/exp-dump-maps.txt"
	exp_refused "$WORK/exp-refused.txt"
}
