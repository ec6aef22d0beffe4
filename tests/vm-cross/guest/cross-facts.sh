#!/bin/sh
# shellcheck shell=dash
# ext4dist_mode=shell: what the kernel offers, printed for a person
# (tests/vm-cross/run.sh --facts SPEC): no test.
. /guest/lib.sh
load_modules /lib/modules/ext4.list
mkdir -p /mnt/ext4 && mount -t ext4 /dev/vda /mnt/ext4
ensure_tracefs
out "uname: $(uname -a)"
out "btf: $(ls /sys/kernel/btf 2>/dev/null | tr '\n' ' ')"
out "kallsyms ext4_file_operations: $(grep -c ' ext4_file_operations' /proc/kallsyms)"
out "kprobe pmu: $(cat /sys/bus/event_source/devices/kprobe/type 2>/dev/null)"
for p in 'p:kprobes/f0 ext4_file_read_iter' 'r:kprobes/f1 ext4_file_read_iter' 'p:kprobes/f2 ext4_file_read_iter+4'; do
	if echo "$p" >> "$TRACEFS/kprobe_events" 2>"$WORK/kp.err"; then
		out "kprobe_events '$p': ok"
	else
		out "kprobe_events '$p': $(cat "$WORK/kp.err")"
	fi
done
echo > "$TRACEFS/kprobe_events"
ext4dist --check > "$WORK/check.out" 2>&1
out_file "$WORK/check.out" "check: "
ext4dist -v 1 1 > "$WORK/v.out" 2> "$WORK/v.err"
out_file "$WORK/v.err" "v: "
out_file "$WORK/v.out" "out: "
