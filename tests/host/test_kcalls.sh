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
