#!/bin/sh
# Runs scenarios of the x86 harness's /guest/scenarios.sh (copied
# unchanged into this initramfs) on the mipsel, s390x and riscv64 user
# spaces: its definitions (everything before its first top-level call),
# then cross-extra.sh, then a core sequence (exact counts on each attach
# path the kernel has, -p, intervals, signals, kill -9 clean-up, ext3 and
# ext2, the generic read path, ext4slower) and its closing checks.
# /guest/cross-scenarios.list may name the scenario functions to run
# instead (the set-up first).
set -eu
# shellcheck source=SCRIPTDIR/../../vm/guest/lib.sh
. /guest/lib.sh

src=/guest/scenarios.sh
run=/tmp/cross-run.sh
call_re='^(run )?(setup_filesystems|scenario_[a-z0-9_]+)$'
first=$(grep -nE "$call_re" "$src" | head -n 1 | cut -d: -f1)
if [ -z "$first" ]; then
	fail cross-harness "no top-level scenario call found in $src"
	exit 1
fi
want=$(cat /guest/cross-scenarios.list 2>/dev/null || true)
# 32-bit MIPS: no kprobes, so no path but fsync's tracepoints.
case $(uname -m) in
mips*) core="setup_filesystems scenario_cross_object scenario_cross_attach" ;;
*) core="setup_filesystems scenario_cross_object
	scenario_cross_attach scenario_pid_filter scenario_interval
	scenario_cross_signals scenario_ext23 scenario_cross_generic_read
	scenario_slower_every_call scenario_cross_fentry" ;;
esac
[ -n "$want" ] || want=$core

{
	head -n $((first - 1)) "$src"
	echo ". /guest/cross-extra.sh"
	for fn in $want; do
		if ! cat /guest/*.sh | grep -q "^$fn() {"; then
			echo "fail cross-harness \"$fn is not defined in /guest/*.sh\""
			echo "exit 1"
		fi
		echo "run $fn"
	done
	tail -n +"$first" "$src" | grep -vE "$call_re"
} > "$run"
out "cross: running $(echo $want | tr '\n' ' ')"
exec sh "$run"
