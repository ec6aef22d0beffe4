# shellcheck shell=dash disable=SC3043 # busybox ash has local
# --attach=tracepoint: fsync through ext4's own tracepoints
# (ext4:ext4_sync_file_enter, ext4:ext4_sync_file_exit), the path of
# kernels without kprobes, on a kernel with them: exact counts with -p
# while other processes fsync too, nothing defined in kprobe_events, the
# other operations refused with the reason, --check's row and verdict.
# Sourced by scenarios.sh; needs /mnt/ext4.

scenario_tracepoint() {
	local name=tracepoint rc before
	ensure_tracefs
	before=$(cat "$TRACEFS/kprobe_events")
	ext4dist --check --attach=tracepoint --ops fsync > "$WORK/$name.check" 2>&1 || true
	check "$name-check-row" "$(grep -c '^tracepoints  *yes (ext4:ext4_sync_file_enter id [0-9]* and ext4:ext4_sync_file_exit id [0-9]*, ret at offset [0-9]* of its record (its format file); fsync alone: --attach=tracepoint --ops fsync)$' "$WORK/$name.check")" 1 "$WORK/$name.check"
	check "$name-check-path" "$(sed -n 's/^attach path  *//p' "$WORK/$name.check" | head -n 1)" tracepoint "$WORK/$name.check"
	check "$name-check-verdict" "$(sed -n 's/^verdict  *//p' "$WORK/$name.check")" "ext4dist can trace here" "$WORK/$name.check"

	# The workload's fsyncs, exactly, its other calls not at all.
	TRACED_HOOK=tp_hook
	traced_run "$name-counts" /mnt/ext4/tp1 $O $R $W $F \
		-v --attach=tracepoint --ops fsync -p @PID@ || { TRACED_HOOK=""; return 0; }
	TRACED_HOOK=""
	expect_counts "$name-counts" "open=0 read=0 write=0 fsync=$F"
	check "$name-perf-events" "$(grep -c '^ext4dist: perf_event_open({type=PERF_TYPE_TRACEPOINT, config=[0-9]*, ' "$ERR")" 2 "$ERR"
	check "$name-programs" "$(grep -c '^ext4dist: bpf(BPF_PROG_LOAD, {prog_type=BPF_PROG_TYPE_TRACEPOINT, ' "$ERR")" 2 "$ERR"
	check "$name-no-kprobe-defined" "$TP_EVENTS" "$before"
	check "$name-kprobe-events-after" "$(cat "$TRACEFS/kprobe_events")" "$before"

	# ext4dist --attach=tracepoint --ops fsync 1 1, as the docs run it:
	# the workload released once the probes are in, within the second.
	OUT=$WORK/$name-1-1.out
	rm -f "$OUT"
	workload_start "$name-1-1" /mnt/ext4/tp2 1 0 1 4
	ext4dist --attach=tracepoint --ops fsync -p "$WPID" 1 1 > "$OUT" 2>&1 &
	EPID=$!
	wait_banner "$EPID" "$OUT" 60 || true
	touch "$WORK/go"
	wait "$WPID" || true
	rc=0
	wait "$EPID" || rc=$?
	check "$name-interval-exit" "$rc" 0 "$OUT"
	check "$name-interval-counts" "$(counts "$OUT")" "open=0 read=0 write=0 fsync=4" "$OUT"

	# The other operations: refused, with the reason and what to do.
	rc=0
	ext4dist --attach=tracepoint > "$WORK/$name-ops.out" 2>&1 || rc=$?
	check "$name-other-ops" "$rc $(cat "$WORK/$name-ops.out")" \
		"1 ext4dist: --attach=tracepoint traces fsync alone, through ext4:ext4_sync_file_enter and ext4:ext4_sync_file_exit: ext4 fires no such pair around its reads, writes, opens or getattr; use --ops fsync"
}

# TRACED_HOOK: kprobe_events while the tracepoint run traces.
tp_hook() {
	TP_EVENTS=$(cat "$TRACEFS/kprobe_events")
}
