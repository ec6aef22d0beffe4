#!/usr/bin/env bash
# What a learner runs on this host (a kernel without kprobes, with
# tracefs and ext4's tracepoints): the lessons refused, each for its own
# reason; the dumps kept to --ops and --prog; the verifier log's levels;
# the JIT's bytes; and fsync traced through the tracepoints, steps 6-9 of
# docs/internals.md on this very kernel, counted exactly.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

kver=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
# at_least A B: this kernel is A.B or later.
at_least() {
	[ "${kver% *}" -gt "$1" ] || { [ "${kver% *}" -eq "$1" ] && [ "${kver#* }" -ge "$2" ]; }
}

# --- The lessons: every one refused with its reason, but null_array
# where the kernel is 6.14 or later, which accepts it.
run_bin "$BIN" --dump-bpf=refused
expect_eq "lessons: exit status" "$RC" 0
expect_eq "lessons: all nine listed" "$(grep -c '^lesson [a-z_]*: ' "$TMP/out")" 9
reason() {
	sed -n "/^lesson $1: /,/^--- end of the verifier log ---\$/p" "$TMP/out" |
		sed -n 's/^the verifier.s reason: //p; s/^                       \([^ ]\)/\1/p'
}
verdict() {
	sed -n "/^lesson $1: /,/^lesson /p" "$TMP/out" | sed -n 's/^verdict: //p' | head -n 1
}
expect_eq "lesson past_end" "$(reason past_end)" \
	"invalid access to map value, value_size=8 off=8 size=8"
expect_eq "lesson null_hash" "$(reason null_hash)" \
	"R0 invalid mem access 'map_value_or_null'"
if at_least 6 14; then
	expect_eq "lesson null_array: accepted from 6.14" "$(verdict null_array)" \
		"accepted by this kernel: from 6.14 the verifier knows an array lookup with a constant key below max_entries cannot fail, and drops the NULL from the value's type"
else
	expect_eq "lesson null_array: refused before 6.14" "$(reason null_array)" \
		"R0 invalid mem access 'map_value_or_null'"
fi
expect_eq "lesson unchecked_index" "$(reason unchecked_index)" \
	"R0 unbounded memory access, make sure to bounds check any such access"
expect_eq "lesson off_by_one" "$(reason off_by_one)" \
	"invalid access to map value, value_size=32 off=32 size=8
R0 max value is outside of the allowed memory range"
expect_eq "lesson endless_loop" "$(reason endless_loop)" \
	"infinite loop detected at insn 1"
expect_eq "lesson no_return" "$(reason no_return)" "R0 !read_ok"
expect_eq "lesson gpl_helper" "$(reason gpl_helper)" \
	"cannot call GPL-restricted function from non-GPL compatible program"
expect_eq "lesson gpl_helper: under another licence" \
	"$(grep -c '^loaded under the licence "Proprietary" instead of the object.s "GPL"$' "$TMP/out")" 1
expect_eq "lesson wrong_map" "$(reason wrong_map)" \
	"cannot pass map_type 2 into func bpf_perf_event_output#25"
expect_eq "lessons: each refusal with its log" \
	"$(grep -c '^--- verifier log of kprobe/lesson/[a-z_]* (refused, log_level 1) ---$' "$TMP/out")" \
	"$(at_least 6 14 && echo 8 || echo 9)"
expect_eq "lessons: the store's C line above it" \
	"$(grep -A1 '^; bpf/ext4dist.bpf.c:[0-9]*: v\[1\] = 1;' "$TMP/out" | tail -n 1 | sed 's/^ *[0-9]*: //')" \
	"*(u64 *)(r0 + 8) = r1"

# One lesson, at the log level asked; a glob of none refused.
run_bin "$BIN" --dump-bpf=refused --prog past_end --verifier-log=2
expect_eq "--prog past_end: one lesson" "$(grep -c '^lesson ' "$TMP/out")" 1
expect_eq "--prog past_end --verifier-log=2: its log at level 2" \
	"$(grep -c '^--- verifier log of kprobe/lesson/past_end (refused, log_level 2) ---$' "$TMP/out")" 1
run_bin "$BIN" --dump-bpf=refused --prog 'no_such*'
expect_eq "--prog of no lesson: exit status" "$RC" 1
expect_eq "--prog of no lesson: message" "$ERR" \
	"ext4dist: --dump-bpf=refused: no lesson matches --prog no_such*"

# --- The verifier log: its level, and --prog picks the programs.
run_bin "$BIN" --check --verifier-log=4 --ops fsync
expect_eq "--verifier-log=4: statistics, no instruction" \
	"$(grep -c '^[0-9]*: (' "$TMP/err")" 0
expect_eq "--verifier-log=4: the verifier's count, and its time" \
	"$(grep -c '^processed [0-9]* insns' "$TMP/err") $(grep -c '^verification time [0-9]* usec$' "$TMP/err")" "2 2"
run_bin "$BIN" --check --verifier-log=1 --ops fsync --prog 'kretprobe/*'
expect_eq "--verifier-log=1 --prog: the return program's log alone" \
	"$(grep '^--- verifier log of ' "$TMP/err" | sed 's/ (.*//')" \
	"--- verifier log of kretprobe/fsync"
expect_eq "--verifier-log=1: the path walked, not every state" \
	"$([ "$(wc -l < "$TMP/err")" -lt 400 ] && echo short)" short

# --- The dumps kept to --ops and --prog.
run_bin "$BIN" --dump-bpf=xlated --ops fsync --prog 'kprobe/*'
expect_eq "xlated --prog: fsync's entry program alone" \
	"$(grep '^program ' "$TMP/out" | sed 's/:.*//')" "program kprobe/fsync"
run_bin "$BIN" --dump-bpf=jited --ops fsync
expect_eq "jited: exit status" "$RC" 0
jit=$(sed -n 's/^  JIT: \([0-9]*\) bytes of machine code$/\1/p' "$TMP/out")
expect_eq "jited: both programs' code" "$(echo "$jit" | wc -w)" 2
bytes=$(awk '/^program / { p = 1 } /^  [0-9a-f][0-9a-f]( |$)/ && p { gsub(/ /, ""); n += length($0) / 2 } END { print n + 0 }' "$TMP/out")
expect_eq "jited: every byte the kernel made, in hex" "$bytes" \
	"$(echo "$jit" | awk '{ n += $1 } END { print n + 0 }')"
expect_eq "jited: how to read them" \
	"$(grep -c '^[0-9]* bytes of machine code; to read them: objdump -D -b binary -m i386:x86-64 on the bytes (xxd -r -p)$' "$TMP/out")" \
	"$([ "$(uname -m)" = x86_64 ] && echo 1 || echo 0)"

# --dump-bpf=elf makes the maps a run makes, with a run's fds.
run_bin "$BIN" --dump-bpf=elf
expect_eq "elf: the maps a histogram run creates" \
	"$(grep '^maps created, ' "$TMP/out")" \
	"maps created, as a histogram run creates them: start fd 3, calls fd 4, ctl fd 5, hist fd 6, open_scan fd 7; the others are slow mode's and the lessons' (fd -1 below)"
expect_eq "elf: a lesson's map not created" \
	"$(grep -A2 'R_BPF_64_64 lesson_hash: ' "$TMP/out" | grep -c 'imm 0 -> fd -1: not created)$')" 3

# --- fsync through ext4's tracepoints, on this kernel without kprobes.
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	run_bin "$BIN" --check
	expect_eq "--check: the tracepoints row" \
		"$(grep '^tracepoints ' "$TMP/out" | sed 's/id [0-9]*/id N/g; s/offset [0-9]*/offset N/')" \
		"tracepoints            yes (ext4:ext4_sync_file_enter id N and ext4:ext4_sync_file_exit id N, ret at offset N of its record (its format file); fsync alone: --attach=tracepoint --ops fsync)"
	expect_eq "--check: what can be done here" "$(tail -n 1 "$TMP/out")" \
		"                       fsync alone can be traced here, through the file system's tracepoints: ext4dist --attach=tracepoint --ops fsync"
	run_bin "$BIN" --check --attach=tracepoint --ops fsync
	expect_eq "--check --attach=tracepoint: exit status" "$RC" 0
	expect_eq "--check --attach=tracepoint: the path" \
		"$(grep -A1 '^attach path ' "$TMP/out")" \
		"attach path            tracepoint
                       forced by --attach=tracepoint: the file system's own tracepoints around fsync, no kprobes needed"
	expect_eq "--check --attach=tracepoint: two programs verified" \
		"$(grep -c '^bpf programs           yes: 2 programs patched as a run patches them and verified: ' "$TMP/out")" 1
fi
run_bin "$BIN" --attach=tracepoint
expect_eq "--attach=tracepoint with read: exit status" "$RC" 1
expect_eq "--attach=tracepoint with read: message" "$ERR" \
	"ext4dist: --attach=tracepoint traces fsync alone, through ext4:ext4_sync_file_enter and ext4:ext4_sync_file_exit: ext4 fires no such pair around its reads, writes, opens or getattr; use --ops fsync"
run_bin "$BIN" --attach=tracepoint --ops fsync --slower 1
expect_eq "--attach=tracepoint in slow mode: message" "$ERR" \
	"ext4dist: --attach=tracepoint has no slow mode: an event names the call's file, and the tracepoints' records hold only its device and inode number"
run_bin "$BIN" --attach=tracepoint --ops fsync --pretend=no-percpu
expect_eq "--attach=tracepoint on plain arrays: message" "$ERR" \
	"ext4dist: --attach=tracepoint: the counters are plain arrays (no per-CPU maps): the tracepoint programs have no atomic twins"
run_bin "$BIN" -t xfs --attach=tracepoint --ops fsync
expect_eq "--attach=tracepoint of xfs: message" "$ERR" \
	"ext4dist: --attach=tracepoint: ext4dist knows no tracepoints of xfs (only ext4's, around fsync)"

# A workload on this host's ext4, its fsyncs counted by PID, exactly.
if cc -O2 -pthread -o "$TMP/workload" tests/vm/workload.c 2> "$TMP/cc.err" &&
   [ "$(stat -f -c %T "$TMP")" = ext2/ext3 ]; then
	# tp_run NAME FSYNCS ARGS...: the workload's FSYNCS fsyncs under
	# ext4dist ARGS (-p the workload's PID appended), stopped by SIGINT.
	tp_run() {
		local name=$1 n=$2 i
		shift 2
		rm -f "$TMP/go"
		"$TMP/workload" -g "$TMP/go" "$TMP/$name.file" 1 0 2 "$n" > "$TMP/$name.wl" 2>&1 &
		wpid=$!
		"$BIN" "$@" -p "$wpid" > "$TMP/$name.out" 2> "$TMP/$name.err" &
		epid=$!
		for i in $(seq 100); do
			grep -q '^Tracing ' "$TMP/$name.out" 2> /dev/null && break
			sleep 0.1
		done
		touch "$TMP/go"
		wait "$wpid"
		kill -INT "$epid"
		wait "$epid"
		rc=$?
	}
	tp_run tp 7 --attach=tracepoint --ops fsync
	expect_eq "tracepoint run: exit status" "$rc" 0
	expect_eq "tracepoint run: the 7 fsyncs of the workload, exactly" \
		"$(awk '/^operation = / { op = $3 } / -> / && op == "\x27fsync\x27" { n += $5 } END { print n + 0 }' "$TMP/tp.out")" 7
	expect_eq "tracepoint run: nothing else" "$(grep -c '^operation = ' "$TMP/tp.out")" 1
	expect_eq "tracepoint run: no warning" "$(cat "$TMP/tp.err")" ""
	tp_run tpj 3 -j --attach=tracepoint --ops fsync
	expect_eq "tracepoint run, JSON: every call entered, timed" \
		"$(sed -n 's/.*"fsync":{"buckets":\[.*\],"count":\([0-9]*\),.*"calls":\([0-9]*\),.*/count \1, calls \2/p' "$TMP/tpj.out")" \
		"count 3, calls 3"
	# --dump-maps on the tracepoint path: each CPU's counts of every
	# non-empty slot, whose sums are the histogram's buckets.
	tp_run tpm 5 --dump-maps --attach=tracepoint --ops fsync
	expect_eq "tracepoint run, --dump-maps: the buffers read" \
		"$([ "$(grep -c '^ext4dist: map hist, key [0-9]* (fsync, buffer [01]): [0-9]* per-CPU values*$' "$TMP/tpm.err")" -ge 1 ] && echo yes)" yes
	expect_eq "tracepoint run, --dump-maps: the slots' sums are the histogram" \
		"$(sed -n 's/^ext4dist:   slot [0-9]* (\([0-9]*\) -> \([0-9]*\) usecs): .* = \([0-9]*\)$/\1 \2 \3/p' "$TMP/tpm.err" |
			awk '{ n[$1 " " $2] += $3 } END { for (k in n) print k, n[k] }' | sort -n)" \
		"$(awk '$2 == "->" && $5 > 0 { print $1, $3, $5 }' "$TMP/tpm.out" | sort -n)"
	expect_eq "tracepoint run, --dump-maps: the 5 fsyncs" \
		"$(awk '$2 == "->" { n += $5 } END { print n + 0 }' "$TMP/tpm.out")" 5
	# ext4dist --attach=tracepoint --ops fsync 1 1, as the docs run it.
	"$TMP/workload" -g "$TMP/go1" "$TMP/tp1.file" 1 0 1 4 > "$TMP/tp1.wl" 2>&1 &
	wpid=$!
	( sleep 0.5; touch "$TMP/go1" ) &
	"$BIN" --attach=tracepoint --ops fsync -p "$wpid" 1 1 > "$TMP/tp1.out" 2> "$TMP/tp1.err"
	expect_eq "--attach=tracepoint --ops fsync 1 1: exit status" "$?" 0
	wait
	expect_eq "--attach=tracepoint --ops fsync 1 1: its 4 fsyncs in the one output" \
		"$(awk '/ -> / { n += $5 } END { print n + 0 }' "$TMP/tp1.out")" 4
else
	fail "tracepoint run" "no workload built, or $TMP is not on ext4: $(cat "$TMP/cc.err")"
fi
