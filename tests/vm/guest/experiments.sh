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

# kernel_at_least A B: the running kernel is A.B or later.
exp_kernel_at_least() {
	local v
	v=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
	[ "${v% *}" -gt "$1" ] || { [ "${v% *}" -eq "$1" ] && [ "${v#* }" -ge "$2" ]; }
}

# lesson_reason FILE NAME: the reason lines --dump-bpf=refused gave for
# lesson NAME; lesson_verdict FILE NAME: its verdict.
lesson_reason() {
	sed -n "/^lesson $2: /,/^--- end of the verifier log ---\$/p" "$1" |
		sed -n 's/^the verifier.s reason: //p; s/^                       \([^ ]\)/\1/p'
}
lesson_verdict() {
	sed -n "/^lesson $2: /,/^lesson /p" "$1" | sed -n 's/^verdict: //p' | head -n 1
}

# 4. The lessons: every program broken on purpose refused by this
# kernel's verifier for its own reason, but null_array from 6.14; the
# unbounded loop refused as an infinite one from 5.3 (as a back-edge
# before).
exp_lessons() {
	local name=exp-lessons rc=0 f=$1 loop
	ext4dist --dump-bpf=refused > "$f" 2>&1 || rc=$?
	check "$name-exit" "$rc" 0 "$f"
	check "$name-count" "$(grep -c '^lesson [a-z_]*: ' "$f")" 9 "$f"
	check "$name-past_end" "$(lesson_reason "$f" past_end)" \
		"invalid access to map value, value_size=8 off=8 size=8" "$f"
	check "$name-null_hash" "$(lesson_reason "$f" null_hash)" \
		"R0 invalid mem access 'map_value_or_null'" "$f"
	if exp_kernel_at_least 6 14; then
		check "$name-null_array-accepted" "$(lesson_verdict "$f" null_array)" \
			"accepted by this kernel: from 6.14 the verifier knows an array lookup with a constant key below max_entries cannot fail, and drops the NULL from the value's type" "$f"
	else
		check "$name-null_array-refused" "$(lesson_reason "$f" null_array)" \
			"R0 invalid mem access 'map_value_or_null'" "$f"
	fi
	check "$name-unchecked_index" "$(lesson_reason "$f" unchecked_index)" \
		"R0 unbounded memory access, make sure to bounds check any such access" "$f"
	check "$name-off_by_one" "$(lesson_reason "$f" off_by_one)" \
		"invalid access to map value, value_size=32 off=32 size=8
R0 max value is outside of the allowed memory range" "$f"
	loop="infinite loop detected at insn 1"
	exp_kernel_at_least 5 3 || loop="back-edge from insn 1 to 1"
	check "$name-endless_loop" "$(lesson_reason "$f" endless_loop)" "$loop" "$f"
	check "$name-no_return" "$(lesson_reason "$f" no_return)" "R0 !read_ok" "$f"
	check "$name-gpl_helper" "$(lesson_reason "$f" gpl_helper)" \
		"cannot call GPL-restricted function from non-GPL compatible program" "$f"
	check "$name-wrong_map" "$(lesson_reason "$f" wrong_map)" \
		"cannot pass map_type 2 into func bpf_perf_event_output#25" "$f"
}

# 5. kprobe_profile: the kernel's own count of each probe's hits and
# misses.  8 processes of 3 fsyncs on one return probe instance: the
# return probe's misses are the fsyncs ext4dist's warnings name, one for
# one (every fsync ended before the stop: none was still running).
exp_kprobe_profile() {
	local name=exp-kprobe-profile go=$WORK/go-kp i pids="" p miss nmiss
	ensure_tracefs
	rm -f "$go"
	i=1
	while [ "$i" -le 8 ]; do
		workload -g "$go" -b 65536 "/mnt/ext4/kp$i" 1 0 4 3 > /dev/null 2>&1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	ext4dist --attach=tracefs --maxactive 1 --ops fsync > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "$name" "no banner" "$OUT" "$ERR"
		touch "$go"
		for p in $pids; do wait "$p" 2>/dev/null || true; done
		kill -9 "$EPID" 2>/dev/null || true
		return 0
	fi
	touch "$go"
	for p in $pids; do wait "$p" || true; done
	{
		echo "\$ cat /sys/kernel/tracing/kprobe_profile"
		grep "ext4dist_${EPID}_" "$TRACEFS/kprobe_profile"
	} > "$1"
	kill -INT "$EPID"
	wait_exit "$EPID" 30 || true
	cp "$ERR" "$WORK/$name-warnings.txt"
	nmiss=$(awk '$1 ~ /_r_ext4_sync_file$/ { print $3 }' "$1")
	miss=$(sed -n -e 's/^ext4dist: warning: \(in this interval \)\{0,1\}\([0-9][0-9]*\) fsync calls* w[ae][rs]e* not timed: .*/\2/p' \
		-e 's/^ext4dist: warning: \([0-9][0-9]*\) fsync calls* had not returned when tracing stopped: .*/\1/p' "$ERR" |
		awk '{ s += $1 } END { print s + 0 }')
	check "$name-lines" "$(grep -c "^ *ext4dist_${EPID}_[0-9a-f]*_[pr]_ext4_sync_file  *[0-9][0-9]*  *[0-9][0-9]*$" "$1")" 2 "$1"
	check "$name-entry-hits" "$(awk '$1 ~ /_p_ext4_sync_file$/ { print $2, $3 }' "$1")" "24 0" "$1"
	check "$name-some-missed" "$([ "${nmiss:-0}" -gt 0 ] && echo yes)" yes "$1"
	check "$name-misses-are-the-warnings" "$miss" "$nmiss" "$1" "$ERR"
}

# 6. A BPF trampoline in ftrace's list of the functions it patches, on
# kernels where --check finds fentry/fexit (5.5+ with BTF; asked for, as
# the default path is kprobe_multi or kprobes).
exp_trampoline() {
	local name=exp-trampoline
	ensure_tracefs
	ext4dist --attach=fentry --ops fsync > "$WORK/$name.out" 2> "$WORK/$name.err" &
	EPID=$!
	if ! wait_banner "$EPID" "$WORK/$name.out" 60; then
		fail "$name" "no banner from --attach=fentry" "$WORK/$name.out" "$WORK/$name.err"
		kill -9 "$EPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		return 0
	fi
	{
		echo "\$ grep -A1 '^ext4_sync_file ' /sys/kernel/tracing/enabled_functions"
		grep -A1 '^ext4_sync_file ' "$TRACEFS/enabled_functions"
	} > "$1"
	kill -INT "$EPID"
	wait_exit "$EPID" 30 || true
	check "$name-function" "$(grep -c '^ext4_sync_file ' "$1")" 1 "$1"
	check "$name-direct" "$(grep -c 'direct-->' "$1")" 1 "$1"
	check "$name-gone" "$(grep -c '^ext4_sync_file ' "$TRACEFS/enabled_functions")" 0 "$TRACEFS/enabled_functions"
}

scenario_experiments() {
	if has_kprobe_pmu; then
		exp_pretend "$WORK/exp-pretend.txt"
	else
		out "SKIP $KERNEL exp-pretend: no kprobe PMU to pretend away (before 4.17): its --check says the same without --pretend"
	fi
	exp_kprobe_events "$WORK/exp-kprobe-events.txt"
	exp_dump_maps "$WORK/exp-dump-maps.txt"
	if has_maxactive; then
		exp_kprobe_profile "$WORK/exp-kprobe-profile.txt"
	else
		out "SKIP $KERNEL exp-kprobe-profile: kprobe_events takes no \"rN:\" here (before 4.12)"
	fi
	if ext4dist --check 2>/dev/null | grep -q '^fentry/fexit  *yes'; then
		exp_trampoline "$WORK/exp-trampoline.txt"
	else
		out "SKIP $KERNEL exp-trampoline: --check finds no fentry/fexit here"
	fi
}

# The lessons of docs/learn.md on this kernel (every VM suite runs it).
scenario_lessons() {
	exp_lessons "$WORK/exp-lessons.txt"
}
