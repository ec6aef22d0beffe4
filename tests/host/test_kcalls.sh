#!/usr/bin/env bash
# -v narrates every kernel call on a BPF or perf object as strace sees it:
# strace records the bpf, perf_event_open, ioctl and close calls of
# `ext4dist -vv --check` on this host, and tests/lib/kcall_compare.awk
# requires each one in -v, in order, with the same values, each followed
# by its "# why" line.  (This host has no kprobes: the maps, the verifier
# loads, the kprobe_multi question and the closes; the VM does the rest.)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

if ! command -v strace > /dev/null; then
	fail "kernel calls against strace" "strace is missing (apt-get install strace; make deps)"
	exit 0
fi

# kcalls NAME ARGS...: one run under strace, compared.
kcalls() {
	local name=$1
	shift
	strace -f -o "$TMP/$name.strace" -v -s 256 \
		-e trace=bpf,perf_event_open,ioctl,close \
		"$BIN" -vv --check "$@" > /dev/null 2> "$TMP/$name.err"
	awk -v label="kcalls-$name" -f tests/lib/kcall_compare.awk \
		"$TMP/$name.strace" "$TMP/$name.err"
}

kcalls default
# The fallbacks: plain arrays and atomic twins, no names; a PID patched in.
kcalls fallbacks --pretend=no-percpu,no-names -p $$
# The generic read path's programs, with the f_op constants of --check.
kcalls generic --read-path=generic --ops read,fsync -m

# The calls that matter are there at all (not only what both agree on).
expect_eq "-v: the kprobe_multi question as the call it is" \
	"$(grep -c '^ext4dist: bpf(BPF_LINK_CREATE, {link_create={prog_fd=[0-9]*, target_fd=0, attach_type=BPF_TRACE_KPROBE_MULTI, flags=0, kprobe_multi={flags=0, cnt=1, syms=NULL, addrs=0x1, cookies=NULL}}}, [0-9]*) = ' "$TMP/default.err")" 1
expect_eq "-v: 8 programs loaded and each one's id asked" \
	"$(grep -c '^ext4dist: bpf(BPF_OBJ_GET_INFO_BY_FD, ' "$TMP/default.err")" 8
expect_eq "-v: every program load shows the kernel's id and tag" \
	"$(grep -c '^ext4dist: program k.* loaded: .*, kernel id [0-9][0-9]*, tag [0-9a-f]\{16\}$' "$TMP/default.err")" 8
expect_eq "-v: every map closed at the end, by name" \
	"$(grep -c '^ext4dist: # map [a-z_]*: the object is freed' "$TMP/default.err")" 5

# Steps 6-9 on this kernel: fsync through ext4's tracepoints, one
# interval under strace: the two perf events, their ioctls, the map
# reads of the interval and the teardown, each as -vv narrates it.
strace -f -o "$TMP/tp.strace" -v -s 256 \
	-e trace=bpf,perf_event_open,ioctl,close \
	"$BIN" -vv --attach=tracepoint --ops fsync 1 1 > "$TMP/tp.out" 2> "$TMP/tp.err"
expect_eq "tracepoint run under strace: exit status" "$?" 0
awk -v label="kcalls-tracepoint" -f tests/lib/kcall_compare.awk \
	"$TMP/tp.strace" "$TMP/tp.err"
expect_eq "-v: the two tracepoints opened as perf events" \
	"$(grep -c '^ext4dist: perf_event_open({type=PERF_TYPE_TRACEPOINT, config=[0-9]*, sample_period=1, wakeup_events=1, config1=0, config2=0}, -1, 0, -1, PERF_FLAG_FD_CLOEXEC) = [0-9]*$' "$TMP/tp.err")" 2
expect_eq "-v: each given its program and enabled" \
	"$(grep -c '^ext4dist: ioctl([0-9]*, PERF_EVENT_IOC_SET_BPF, [0-9]*) = 0$' "$TMP/tp.err") $(grep -c '^ext4dist: ioctl([0-9]*, PERF_EVENT_IOC_ENABLE, 0) = 0$' "$TMP/tp.err")" "2 2"
expect_eq "-v: tracepoint programs loaded" \
	"$(grep -c '^ext4dist: bpf(BPF_PROG_LOAD, {prog_type=BPF_PROG_TYPE_TRACEPOINT, ' "$TMP/tp.err")" 2
expect_eq "-v: the interval's map reads" \
	"$([ "$(grep -c '^ext4dist: bpf(BPF_MAP_LOOKUP_ELEM, ' "$TMP/tp.err")" -gt 0 ] && echo yes)" yes
expect_eq "-v: both perf events closed at the end" \
	"$(grep -c '^ext4dist: # tracepoint ext4_sync_file_e[nx][ti][et]r*: closing its perf event takes the program off' "$TMP/tp.err")" 2
