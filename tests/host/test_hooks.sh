#!/usr/bin/env bash
# The --test-* options point system paths at fixtures, so only the test
# build has them (build/ext4dist-test): the shipped binary treats them as
# any unknown option, also by prefix, and does not even carry their names.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

USAGE="usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]"

# rejected NAME ARGS...: exit status 2 and argparse's message, exactly as
# for an option no build has.
rejected() {
	local name=$1 want
	shift
	run_bin "$BIN" --no-such-option /x
	want=$ERR
	run_bin "$BIN" "$@"
	expect_eq "shipped binary, $name: exit status" "$RC" 2
	expect_eq "shipped binary, $name: as an unknown option" "$ERR" "$want"
}

rejected "--test-tracing-dir /x" --test-tracing-dir /x
rejected "--test-t /x" --test-t /x
run_bin "$BIN" --test-tracing-dir=/x
expect_eq "shipped binary, --test-tracing-dir=/x: message" "$ERR" "$USAGE
ext4dist: error: unrecognized arguments: --test-tracing-dir=/x"
run_bin "$BIN" --test-kallsyms=/x --test-sysfs-kprobe=/x --test-debugfs-dir=/x --test-meminfo=/x
expect_eq "shipped binary, every hook: message" "$ERR" "$USAGE
ext4dist: error: unrecognized arguments: --test-kallsyms=/x --test-sysfs-kprobe=/x --test-debugfs-dir=/x --test-meminfo=/x"
expect_eq "shipped binary carries no hook name" \
	"$(grep -c -a -e --test- -e test-tracing-dir "$BIN")" 0

[ -x "$TEST_BIN" ] || { fail "test build" "$TEST_BIN not built (make test-binary)"; exit 1; }
run_bin "$TEST_BIN" --test-tracing-dir /x --test-t /x --dump-bpf
expect_eq "test build: --test-tracing-dir and --test-t accepted" "$RC" 0

# --check through fixtures: a kprobe PMU, a tracing dir and kallsyms that
# the host does not have.
fx=$TMP/fx
mkdir -p "$fx/kprobe/format" "$fx/tracing" "$fx/debug"
echo 6 > "$fx/kprobe/type"
echo config:0 > "$fx/kprobe/format/retprobe"
: > "$fx/tracing/available_events"
: > "$fx/tracing/kprobe_events"
run_bin "$TEST_BIN" --test-sysfs-kprobe "$fx/kprobe" --test-tracing-dir "$fx/tracing" \
	--test-debugfs-dir "$fx/debug" \
	--test-kallsyms "$PWD/tests/unit/fixtures/kallsyms_core.txt" --check
expect_eq "test build --check: PMU from the fixture" \
	"$(grep '^kprobe PMU ' "$TMP/out")" "kprobe PMU             yes (perf type 6)"
expect_eq "test build --check: tracing dir from the fixture" \
	"$(grep '^tracing dir ' "$TMP/out")" "tracing dir            $fx/tracing"
expect_eq "test build --check: kprobe_events in the fixture" \
	"$(grep '^kprobe_events ' "$TMP/out")" "kprobe_events          yes"
# The fixture's kprobe_events is a plain file: the "r1:" trial "works"
# but no event directory appears, as on a kernel before 4.12.
expect_eq "test build --check: maxactive tried in the fixture" \
	"$(grep '^maxactive ' "$TMP/out")" \
	"maxactive              no: kprobe_events ignores \"rN:\" (kernel before 4.12)"

# --ring-pages against the machine's memory (--test-meminfo: a machine of
# 128 MiB) and its online CPUs (this host's): the rings, one per CPU, and
# the reader's copy of one, within a sixteenth of it.
ncpu=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }' /sys/devices/system/cpu/online)
page=$(getconf PAGESIZE)
printf 'MemTotal:         131072 kB\nMemFree:           65536 kB\n' > "$fx/meminfo"
most=1
while [ $(( (ncpu + 1) * most * 2 * page )) -le $((131072 * 1024 / 16)) ]; do most=$((most * 2)); done
over=$((most * 2))
run_bin "$TEST_BIN" --slower 0 --ring-pages "$over" --test-meminfo "$fx/meminfo"
expect_eq "--ring-pages over a sixteenth of 128 MiB: exit status" "$RC" 1
expect_eq "--ring-pages over a sixteenth of 128 MiB: message" "$ERR" \
	"ext4dist: --ring-pages $over: $ncpu event rings of that many pages (one per online CPU) and the reader's copy of one would take $(( (ncpu + 1) * over * page >> 20 )) MiB, more than a sixteenth of this machine's memory (128 MiB, MemTotal in $fx/meminfo); --ring-pages $most at most here"
run_bin "$TEST_BIN" --slower 0 --ring-pages "$most" --test-meminfo "$fx/meminfo" --check
expect_eq "--ring-pages at the most that fits: no refusal of its own" \
	"$(grep -c -e '--ring-pages' "$TMP/out" "$TMP/err" | cut -d: -f2 | tr '\n' ' ')" "0 0 "
printf 'MemTotal:             64 kB\n' > "$fx/meminfo"
run_bin "$TEST_BIN" --slower 0 --test-meminfo "$fx/meminfo" --check
expect_eq "not even one page (64 KiB machine): message, before --check" "$ERR" \
	"ext4dist: --ring-pages 64: not even rings of one page fit this machine: $ncpu (one per online CPU) and the reader's copy of one would take $(( (ncpu + 1) * page >> 10 )) KiB, more than a sixteenth of its memory (64 KiB, MemTotal in $fx/meminfo)"
expect_eq "not even one page: exit status" "$RC" 1
# The start records sized by MemTotal (--test-meminfo): one per 16 KiB,
# a power of two from 4096 to 32768; --start-slots says; a meminfo
# without MemTotal gets the most, and says why.
printf 'MemTotal:         119808 kB\n' > "$fx/meminfo"
run_bin "$TEST_BIN" --check --test-meminfo "$fx/meminfo"
expect_eq "start records of a 128 MB device (117 MiB)" \
	"$(grep '^start records ' "$TMP/out")" \
	"start records          4096 slots of 32 bytes: one per 16 KiB of MemTotal (117 MiB)"
start_kib=$(sed -n 's/^kernel memory  *[0-9]* KiB (memlock in \/proc\/self\/fdinfo): 5 maps [0-9]* KiB (the start records \([0-9]*\) KiB), [0-9]* programs [0-9]* KiB$/\1/p' "$TMP/out")
expect_eq "kernel memory of the 4096 records: 128 KiB and what the kernel adds" \
	"$([ "${start_kib:-0}" -ge 128 ] && [ "$start_kib" -le 160 ] && echo yes)" yes
expect_eq "--check: peak RSS" \
	"$(grep -c '^peak RSS               [0-9]* kB so far (VmHWM in /proc/self/status)$' "$TMP/out")" 1
printf 'MemTotal:         262144 kB\n' > "$fx/meminfo"
run_bin "$TEST_BIN" --check --test-meminfo "$fx/meminfo"
expect_eq "start records of 256 MiB" "$(grep '^start records ' "$TMP/out")" \
	"start records          16384 slots of 32 bytes: one per 16 KiB of MemTotal (256 MiB)"
run_bin "$TEST_BIN" -v --check --start-slots 4096 --test-meminfo "$fx/meminfo"
expect_eq "--start-slots over the rule" "$(grep '^start records ' "$TMP/out")" \
	"start records          4096 slots of 32 bytes: --start-slots"
expect_eq "-v: the start records" "$(grep '^ext4dist: start records' "$TMP/err")" \
	"ext4dist: start records: 4096 slots (--start-slots), 32 bytes each"
# One value of every slot: 4096 x 32 bytes (BCC's four operations).
expect_eq "-v: the start array made that size" \
	"$(grep -c 'value_size=131072, max_entries=1, map_flags=0, map_name="start"' "$TMP/err")" 1
# Every operation: 40 bytes a slot; one: 8.
run_bin "$TEST_BIN" -v --check --start-slots 4096 --ops read,write,open,fsync,getattr --test-meminfo "$fx/meminfo"
expect_eq "--ops of all five: 40 bytes a slot" "$(grep '^ext4dist: start records' "$TMP/err")" \
	"ext4dist: start records: 4096 slots (--start-slots), 40 bytes each"
expect_eq "--ops of all five: the start array made that size" \
	"$(grep -c 'value_size=163840, max_entries=1, map_flags=0, map_name="start"' "$TMP/err")" 1
run_bin "$TEST_BIN" -v --check --start-slots 4096 --attach=tracepoint --ops fsync --test-meminfo "$fx/meminfo"
expect_eq "--ops fsync: 8 bytes a slot" "$(grep '^start records ' "$TMP/out")" \
	"start records          4096 slots of 8 bytes: --start-slots"
expect_eq "--ops fsync: the start array made that size" \
	"$(grep -c 'value_size=32768, max_entries=1, map_flags=0, map_name="start"' "$TMP/err")" 1
printf 'MemFree:           65536 kB\n' > "$fx/meminfo"
run_bin "$TEST_BIN" --check --test-meminfo "$fx/meminfo"
expect_eq "no MemTotal: the most, said" "$(grep '^start records ' "$TMP/out")" \
	"start records          32768 slots of 32 bytes: the most: $fx/meminfo not read: Invalid argument"
run_bin "$BIN" --start-slots 2048
expect_eq "--start-slots under the least: exit status" "$RC" 2
expect_eq "--start-slots under the least: message" "$ERR" \
	"usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]
ext4dist: error: argument --start-slots: value out of range: '2048' (expected 4096 to 32768)"
run_bin "$BIN" --start-slots 6144
expect_eq "--start-slots not a power of two: message" "$ERR" \
	"usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]
ext4dist: error: argument --start-slots: not a power of two: '6144'"

# The shipped binary on this machine: 65536 pages refused unless a
# sixteenth of its memory holds them.
mem=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024))
most=1
while [ $(( (ncpu + 1) * most * 2 * page )) -le $((mem / 16)) ]; do most=$((most * 2)); done
run_bin "$BIN" --slower 0 --ring-pages 65536
if [ "$most" -lt 65536 ]; then
	expect_eq "--ring-pages 65536 on this machine: refused" "$ERR" \
		"ext4dist: --ring-pages 65536: $ncpu event rings of that many pages (one per online CPU) and the reader's copy of one would take $(( (ncpu + 1) * 65536 * page >> 20 )) MiB, more than a sixteenth of this machine's memory ($((mem >> 20)) MiB, MemTotal in /proc/meminfo); --ring-pages $most at most here"
else
	expect_eq "--ring-pages 65536 on this machine: a sixteenth of $((mem >> 20)) MiB holds them" \
		"$(echo "$ERR" | grep -c -e '--ring-pages')" 0
fi
