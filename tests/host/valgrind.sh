#!/usr/bin/env bash
# The binary's host paths under valgrind (a dynamic twin of the static
# binary: valgrind cannot follow malloc in a static one): no errors, no
# leaks, no file descriptor left open at exit beyond those inherited.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh
BIN=build/ext4dist-dyn

# vg NAME WANT_RC ARGS...
vg() {
	local name=$1 want_rc=$2 log="$TMP/vg.log" leaked_fds
	shift 2
	# The children (own_mount.c's, which mount in a namespace of their
	# own and _exit) are not judged: their fds and memory go with them.
	valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 --track-fds=yes \
		--child-silent-after-fork=yes \
		--log-file="$log" "$BIN" "$@" > /dev/null 2>&1 < /dev/null
	RC=$?
	expect_eq "valgrind $name: exit status" "$RC" "$want_rc"
	# Open descriptors at exit that were not inherited from the shell.
	leaked_fds=$(awk '/Open (file|AF_UNIX socket) descriptor [0-9]+:/ { fd = $0; getline; if ($0 !~ /inherited from parent/) print fd }' "$log" |
		grep -v -E 'descriptor [012]:' | wc -l)
	expect_eq "valgrind $name: no fd left open" "$leaked_fds" 0
	if grep -q -E 'ERROR SUMMARY: [1-9]|definitely lost|indirectly lost|still reachable' "$log"; then
		fail "valgrind $name: clean" "$(head -c 2000 "$log")"
	else
		pass "valgrind $name: clean"
	fi
}

[ -x "$BIN" ] || { fail valgrind "$BIN not built (make $BIN)"; exit 1; }
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	vg "no kprobes" 1
	vg "no kprobes, tracefs forced" 1 --attach=tracefs -p 1 1 1
fi
vg "--check" $([ -e /sys/bus/event_source/devices/kprobe/type ] && echo 0 || echo 1) --check
vg "--dump-bpf" 0 --dump-bpf
vg "--dump-bpf --ops --prog" 0 --dump-bpf --ops fsync --prog 'kretprobe/*'
vg "--dump-bpf=refused" 0 --dump-bpf=refused
vg "--dump-bpf=jited" 0 --dump-bpf=jited --ops fsync
vg "--dump-bpf=xlated on the tracepoints" 0 --dump-bpf=xlated --attach=tracepoint --ops fsync
vg "--dump-bpf=elf" 0 --dump-bpf=elf
vg "--check --verifier-log=1" $([ -e /sys/bus/event_source/devices/kprobe/type ] && echo 0 || echo 1) --check --verifier-log=1 --ops open
vg "--prometheus refused" 1 --prometheus /dev/null
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	vg "--prometheus checked, -p checked" 1 --prometheus "$TMP/x.prom" -p $$ 1 1
fi
vg "bad pid" 2 -p abc
vg "interval 0" 1 0
vg "help" 0 -h
vg "version" 0 --version
vg "unknown option" 2 --bogus
