#!/bin/sh
# shellcheck shell=dash
# ext4dist_mode=kretprobe (tests/vm-cross/run.sh --kretprobe SPEC): the
# kernel's own kprobes, without ext4dist and without BPF, under load: an
# entry probe, then a return probe, on ext4_file_read_iter through
# kprobe_events while two processes read ext4 (ext4dist_reads=N preads
# each); then the same load under the ext4dist of this initramfs with
# --attach=tracefs and --attach=pmu (kretprobes with BPF programs; an
# ext4dist that refuses them on 32-bit MIPS says so instead).  Each step's
# start is printed before it runs: a step that oopses the kernel is the
# last one on the results port.
. /guest/lib.sh
load_modules /lib/modules/ext4.list
mkdir -p /mnt/ext4 && mount -t ext4 /dev/vda /mnt/ext4
ensure_tracefs
n=$(sed -n 's/.*ext4dist_reads=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$n" ] || n=50000
# two_readers: the load, and the wait for it alone.
two_readers() {
	local a b
	workload /mnt/ext4/k1 1 "$n" 1 0 > /dev/null &
	a=$!
	workload /mnt/ext4/k2 1 "$n" 1 0 > /dev/null &
	b=$!
	wait "$a" "$b"
}

for step in p r; do
	echo "$step:kprobes/xk ext4_file_read_iter" >> "$TRACEFS/kprobe_events" ||
		{ out "kretprobe-test: $step: kprobe_events refused it"; continue; }
	echo 1 > "$TRACEFS/events/kprobes/xk/enable"
	out "kretprobe-test: $step: 2 readers x $n preads of ext4: start at $(cut -d' ' -f1 /proc/uptime) s"
	two_readers
	out "kretprobe-test: $step: survived at $(cut -d' ' -f1 /proc/uptime) s; kprobe_profile: $(grep xk "$TRACEFS/kprobe_profile")"
	echo 0 > "$TRACEFS/events/kprobes/xk/enable"
	echo > "$TRACEFS/trace"
	echo "-:kprobes/xk" >> "$TRACEFS/kprobe_events"
done

for mode in tracefs pmu; do
	rm -f "$WORK/k.out" "$WORK/k.err"
	ext4dist --attach=$mode > "$WORK/k.out" 2> "$WORK/k.err" &
	pid=$!
	if ! wait_banner "$pid" "$WORK/k.out" 60; then
		out "kretprobe-test: ext4dist --attach=$mode: no banner: $(head -n 1 "$WORK/k.err")"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		continue
	fi
	out "kretprobe-test: ext4dist --attach=$mode: 2 readers x $n preads of ext4: start at $(cut -d' ' -f1 /proc/uptime) s"
	two_readers
	kill -INT "$pid"
	wait "$pid"
	out "kretprobe-test: ext4dist --attach=$mode: survived at $(cut -d' ' -f1 /proc/uptime) s, exit $?, $(counts "$WORK/k.out")"
done
