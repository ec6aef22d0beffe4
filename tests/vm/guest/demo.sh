#!/bin/sh
# make demo, inside the VM: trace a mixed workload with plain `ext4dist`,
# then another with `ext4slower 1`, and send their output (as a user would
# see it) to the host between markers.
set -eu
# shellcheck source=lib.sh
. /guest/lib.sh

load_modules /lib/modules/ext4.list
mkdir -p /mnt/ext4
mount -t ext4 /dev/vda /mnt/ext4

ext4dist > "$WORK/demo.out" 2> "$WORK/demo.err" &
pid=$!
if ! wait_banner "$pid" "$WORK/demo.out" 60; then
	out "DEMO-FAILED: ext4dist did not start"
	out_file "$WORK/demo.err" "    | "
	exit 1
fi

# A few large files: 64 KiB writes, reads and fsyncs.
for i in 1 2 3; do
	workload -b 65536 "/mnt/ext4/big$i" 1 48 64 4 > /dev/null
done
# Many small files: open, small reads/writes, an fsync each.
for i in $(seq 1 40); do
	workload -b 512 "/mnt/ext4/small$i" 3 6 4 1 > /dev/null
done
# Ordinary tools, too.
cat /mnt/ext4/data /mnt/ext4/big1 > /dev/null
cp /mnt/ext4/data /mnt/ext4/data.copy
sync

kill -INT "$pid"
RC=0
wait_exit "$pid" 30 || true
out "DEMO-OUTPUT-BEGIN"
out_file "$WORK/demo.out" ""
if [ -s "$WORK/demo.err" ]; then
	out "(stderr:)"
	out_file "$WORK/demo.err" ""
fi
out "DEMO-OUTPUT-END rc=$RC"

# ext4slower: the same binary under its other name, each call over 1 ms.
ext4slower 1 > "$WORK/slower.out" 2> "$WORK/slower.err" &
pid=$!
i=0
while ! grep -q '^TIME ' "$WORK/slower.out" 2>/dev/null; do
	i=$((i + 1))
	if ! running "$pid" || [ "$i" -gt 1200 ]; then
		out "DEMO-FAILED: ext4slower did not start"
		out_file "$WORK/slower.err" "    | "
		exit 1
	fi
	sleep 0.05
done
for i in 1 2; do
	workload -b 65536 "/mnt/ext4/slow$i" 1 16 16 2 > /dev/null
done
workload -b 512 /mnt/ext4/small1 2 4 4 1 > /dev/null
kill -INT "$pid"
RC=0
wait_exit "$pid" 30 || true
out "SLOWER-OUTPUT-BEGIN"
out_file "$WORK/slower.out" ""
if [ -s "$WORK/slower.err" ]; then
	out "(stderr:)"
	out_file "$WORK/slower.err" ""
fi
out "SLOWER-OUTPUT-END rc=$RC"
