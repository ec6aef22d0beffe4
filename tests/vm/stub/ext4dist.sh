#!/bin/sh
# Stand-in for ext4dist, to test the VM harness itself:
#   EXT4DIST_BIN=tests/vm/stub/ext4dist.sh tests/vm/run.sh
# Counts calls with tracefs kprobe events (filtered on common_pid) and prints
# them in BCC's format, all in the 0 -> 1 bucket.  It mimics the interface
# the scenarios assert on: banner, -p, -m, -T, interval/count, --attach,
# "modprobe ext4" error, stale event removal, events named ext4dist_<pid>_*.
set -eu

# A script cannot trap a signal ignored on entry: re-exec with SIGINT reset.
if [ -z "${EXT4DIST_STUB_REEXEC:-}" ]; then
	EXT4DIST_STUB_REEXEC=1 exec sigdfl /bin/sh "$0" "$@"
fi

T=/sys/kernel/tracing
pid=""
unit=usecs
stamp=1
interval=""
count=99999999
for arg in "$@"; do
	if [ "${want_pid:-}" = 1 ]; then pid=$arg; want_pid=0; continue; fi
	case "$arg" in
	-p) want_pid=1 ;;
	-m) unit=msecs ;;
	-T) stamp=0 ;;
	--attach=*) ;;
	-*) echo "ext4dist: unknown option $arg" >&2; exit 2 ;;
	*) if [ -z "$interval" ]; then interval=$arg; else count=$arg; fi ;;
	esac
done

if ! grep -q '^ext4 ' /proc/modules; then
	echo "ext4dist: ext4 is not loaded (run: modprobe ext4)" >&2
	exit 1
fi
[ -e "$T/kprobe_events" ] || mount -t tracefs nodev "$T"

stale=0
# shellcheck disable=SC2013 # event names have no blanks
for ev in $(sed -n 's/^p:kprobes\/\(ext4dist_[0-9]*_[a-z]*\) .*/\1/p' "$T/kprobe_events"); do
	owner=${ev#ext4dist_}
	owner=${owner%%_*}
	[ -d "/proc/$owner" ] && continue
	echo 0 > "$T/events/kprobes/$ev/enable"
	echo "-:kprobes/$ev" >> "$T/kprobe_events"
	stale=$((stale + 1))
done
[ "$stale" = 0 ] || echo "ext4dist: removed $stale stale kprobe events" >&2

ops="open read write fsync"
for op in $ops; do
	case $op in
	open) fn=ext4_file_open ;;
	read) fn=ext4_file_read_iter ;;
	write) fn=ext4_file_write_iter ;;
	fsync) fn=ext4_sync_file ;;
	esac
	echo "p:kprobes/ext4dist_$$_$op $fn" >> "$T/kprobe_events"
	[ -z "$pid" ] || echo "common_pid == $pid" > "$T/events/kprobes/ext4dist_$$_$op/filter"
done
echo > "$T/trace"
for op in $ops; do echo 1 > "$T/events/kprobes/ext4dist_$$_$op/enable"; done
echo "Tracing ext4 operation latency... Hit Ctrl-C to end."

print_hist() {
	for op in $ops; do
		n=$(grep -c " ext4dist_$$_$op:" "$T/trace" || true)
		[ "$n" = 0 ] && continue
		echo
		echo "operation = '$op'"
		printf '     %-19s : count     distribution\n' "$unit"
		printf '%10d -> %-10d : %-8d |%-40s|\n' 0 1 "$n" \
			'****************************************'
	done
	echo > "$T/trace"
}

cleanup() {
	for op in $ops; do echo 0 > "$T/events/kprobes/ext4dist_$$_$op/enable"; done
	for op in $ops; do echo "-:kprobes/ext4dist_$$_$op" >> "$T/kprobe_events"; done
}

stop=0
trap 'stop=1' INT TERM
if [ -n "$interval" ]; then
	i=0
	while [ "$stop" = 0 ] && [ "$i" -lt "$count" ]; do
		sleep "$interval" & wait $! || true
		echo
		[ "$stamp" = 0 ] || date +%H:%M:%S:
		print_hist
		i=$((i + 1))
	done
else
	while [ "$stop" = 0 ]; do sleep 1 & wait $! || true; done
	echo
	print_hist
fi
cleanup
exit 0
