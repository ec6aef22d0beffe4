#!/bin/sh
# tests/ab/run.sh's guest (busybox sh, qemu -icount shift=0): the floors
# and each binary of /ab/NAME/ext4dist on each mode, round after round.
set -eu
# shellcheck source-path=SCRIPTDIR source=../vm/guest/lib.sh
. /guest/lib.sh
# shellcheck disable=SC1091 # written by run.sh
. /ab/params		# NAMES MODES RUNS ROUNDS OPS_N

REC=AB
# shellcheck source-path=SCRIPTDIR source=../bench/guest_records.sh
. /guest/records.sh
records_setup
b "env kernel=$KERNEL"
fns="ext4_file_read_iter ext4_file_write_iter ext4_file_open ext4_sync_file"
start() {
	bout bench_probe startup --runs "$RUNS" --settle 0 --touch /mnt/ext4/data "$@"
}
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	# shellcheck disable=SC2086 # a list of functions
	start --tag floor-pmu -- /bin/bench_floor $fns
	# shellcheck disable=SC2086
	start --tag floor-tracefs -- /bin/bench_floor --tracefs $fns
	for n in $NAMES; do
		for m in $MODES; do
			if [ "$m" = default ]; then
				start --tag "$n/$m" -- "/ab/$n/ext4dist"
			else
				start --tag "$n/$m" -- "/ab/$n/ext4dist" --attach="$m"
			fi
		done
	done
	r=$((r + 1))
done
if [ "$OPS_N" -gt 0 ]; then
	for n in $NAMES; do
		for m in $MODES; do
			[ "$m" != default ] || continue
			start_traced "mode=$n/$m" "/ab/$n/ext4dist" \
				--attach="$m" || continue
			bout bench_probe around --pid "$PID" --tag "$n/$m" -- \
				/bin/opbench /mnt/ext4 "$OPS_N" 1 "$m" pread_4k
			kill -INT "$PID"
			wait_exit "$PID" 60 || true
		done
	done
fi
b "done"
