#!/bin/sh
# make check's budget guard, inside the VM (busybox sh), booted under
# qemu -icount shift=0: every guest "ns" is a guest instruction.
# tests/budget/run.sh installs this file as /guest/demo.sh; every figure
# goes to the results port as "BUDGET <record> key=value ...", which
# tests/budget/judge.awk holds against tests/bench/budget.
set -eu
# shellcheck source-path=SCRIPTDIR source=../vm/guest/lib.sh
. /guest/lib.sh
# shellcheck disable=SC1091 # written by run.sh
. /budget/params		# RUNS OPS_N

REC=BUDGET
# shellcheck source-path=SCRIPTDIR source=../bench/guest_records.sh
. /guest/records.sh
records_setup

/bin/ext4dist --check > "$WORK/check" 2>&1 || true
paths="tracefs"
[ ! -e /sys/bus/event_source/devices/kprobe/type ] || paths="pmu $paths"
! grep -q '^kprobe_multi  *yes' "$WORK/check" || paths="$paths multi"
! grep -q '^fentry/fexit  *yes' "$WORK/check" || paths="$paths fentry"
default=$(sed -n 's/^attach path  *//p' "$WORK/check")
fns="ext4_file_read_iter ext4_file_write_iter ext4_file_open ext4_sync_file"
b "env kernel=$KERNEL paths=$(echo "$paths" | tr ' ' ,) default=$default"

# Start-up against the kernel's floor: bench_floor makes the same 8
# probes without BPF, through the PMU and through tracefs.  Steady RSS:
# smaps_rollup 300 ms after the banner; peak: the kernel's high-water
# mark at exit (ru_maxrss).
start() {
	bout bench_probe startup --runs "$RUNS" --settle 300 --touch /mnt/ext4/data "$@"
}
# shellcheck disable=SC2086 # a list of functions
start --tag floor-pmu -- /bin/bench_floor $fns
# shellcheck disable=SC2086
start --tag floor-tracefs -- /bin/bench_floor --tracefs $fns
start --tag default -- /bin/ext4dist
for p in $paths; do
	start --tag "$p" -- /bin/ext4dist --attach="$p"
done
start --tag slower --banner "Tracing ext4 operations slower than 10 ms" -- \
	/bin/ext4slower

# Where a run's memory is, 300 ms after the banner: each mapping's Rss
# (for the report; the budget holds the totals).
for p in default pmu; do
	rm -f "$WORK/e.out"
	if [ "$p" = default ]; then
		/bin/ext4dist > "$WORK/e.out" 2> "$WORK/e.err" &
	else
		/bin/ext4dist --attach="$p" > "$WORK/e.out" 2> "$WORK/e.err" &
	fi
	pid=$!
	if wait_banner "$pid" "$WORK/e.out" 120; then
		sleep 0.3
		awk -v m="$p" '
		/^[0-9a-f]+-[0-9a-f]+ / { name = $6 == "" ? "anon@" $1 : $6 }
		/^Rss:/ && $2 > 0 { printf "smaps mode=%s name=%s rss_kb=%d\n", m, name, $2 }' \
			"/proc/$pid/smaps" > "$WORK/smaps"
		while IFS= read -r line; do b "$line"; done < "$WORK/smaps"
	fi
	kill -INT "$pid" 2> /dev/null || true
	wait_exit "$pid" 60 || true
done

# The modes that end by themselves: peak RSS.
for mode in --check --dump-bpf --dump-bpf=elf --dump-bpf=xlated \
	    --dump-bpf=refused; do
	bout bench_probe maxrss --tag "${mode#--}" -- /bin/ext4dist "$mode"
done

# BPF instructions per traced pread on each path (bpf_stats: run time per
# run, instructions under icount, its own clock reads included), and the
# traced pread against an untraced one.
bout opbench /mnt/ext4 "$OPS_N" 1 untraced pread_4k
for p in $paths; do
	start_traced "mode=$p" /bin/ext4dist --attach="$p" || continue
	bout bench_probe around --pid "$PID" --tag "$p" -- \
		/bin/opbench /mnt/ext4 "$OPS_N" 1 "$p" pread_4k
	kill -INT "$PID"
	wait_exit "$PID" 60 || true
	[ "$RC" = 0 ] || b "error what=exit mode=$p rc=$RC"
done
b "done"
