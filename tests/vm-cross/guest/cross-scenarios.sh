#!/bin/sh
# Runs scenarios of the x86 harness's /guest/scenarios.sh (copied
# unchanged into this initramfs) on the mipsel, s390x and riscv64 user
# spaces: its definitions (everything before its first top-level call),
# then cross-extra.sh, then a core sequence (exact counts on each attach
# path the kernel has, -p, intervals, signals, kill -9 clean-up, ext3 and
# ext2, the generic read path, ext4slower, the memory --check shows) and
# its closing checks.
# /guest/cross-scenarios.list may name the scenario functions to run
# instead (the set-up first).
set -eu
# shellcheck source=SCRIPTDIR/../../vm/guest/lib.sh
. /guest/lib.sh

scenarios_first cross || exit 1
want=$(cat /guest/cross-scenarios.list 2>/dev/null || true)
# 32-bit MIPS: no kprobes, so no path but fsync's tracepoints.
case $(uname -m) in
mips*) core="setup_filesystems scenario_cross_object scenario_cross_attach
	scenario_appliance_memory" ;;
*) core="setup_filesystems scenario_cross_object
	scenario_cross_attach scenario_pid_filter scenario_interval
	scenario_cross_signals scenario_ext23 scenario_cross_generic_read
	scenario_slower_every_call scenario_cross_fentry
	scenario_appliance_memory" ;;
esac
[ -n "$want" ] || want=$core

{
	head -n $((SCENARIOS_FIRST - 1)) /guest/scenarios.sh
	echo ". /guest/cross-extra.sh"
	# shellcheck disable=SC2086 # a list of function names
	scenarios_named cross "$SCENARIOS_FIRST" $want
} > /tmp/cross-run.sh
out "cross: running $(echo $want | tr '\n' ' ')"
exec sh /tmp/cross-run.sh
