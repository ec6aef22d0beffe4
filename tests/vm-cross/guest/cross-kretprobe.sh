#!/bin/sh
# shellcheck shell=dash
# ext4dist_mode=kretprobe (tests/vm-cross/run.sh --kretprobe SPEC): the
# kernel's own kprobes, without ext4dist and without BPF, under load: an
# entry probe, then a return probe, on ext4_file_read_iter through
# kprobe_events while two processes read ext4 (ext4dist_reads=N preads
# each).  Each step's start is printed before it runs: a step that oopses
# the kernel is the last one on the results port.
. /guest/lib.sh
load_modules /lib/modules/ext4.list
mkdir -p /mnt/ext4 && mount -t ext4 /dev/vda /mnt/ext4
ensure_tracefs
n=$(sed -n 's/.*ext4dist_reads=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$n" ] || n=50000
for step in p r; do
	echo "$step:kprobes/xk ext4_file_read_iter" >> "$TRACEFS/kprobe_events" ||
		{ out "kretprobe-test: $step: kprobe_events refused it"; continue; }
	echo 1 > "$TRACEFS/events/kprobes/xk/enable"
	out "kretprobe-test: $step: 2 readers x $n preads of ext4: start at $(cut -d' ' -f1 /proc/uptime) s"
	workload /mnt/ext4/k1 1 "$n" 1 0 > /dev/null &
	workload /mnt/ext4/k2 1 "$n" 1 0 > /dev/null &
	wait
	out "kretprobe-test: $step: survived at $(cut -d' ' -f1 /proc/uptime) s; kprobe_profile: $(grep xk "$TRACEFS/kprobe_profile")"
	echo 0 > "$TRACEFS/events/kprobes/xk/enable"
	echo > "$TRACEFS/trace"
	echo "-:kprobes/xk" >> "$TRACEFS/kprobe_events"
done
