#!/bin/sh
# Runs scenarios of the x86 harness's /guest/scenarios.sh (copied unchanged
# into this initramfs) on arm64: its definitions are everything before its
# first top-level call; then the scenario functions named in
# /guest/arm64-scenarios.list (default: the list below) or, for "all", its
# own sequence; then its closing checks (the lines after its calls).
# arm64-extra.sh adds arm64-only scenarios (scenario_arm64_*).
# The host (run.sh) prefixes the kernel of the result lines with "arm64-".
set -eu
# shellcheck source=SCRIPTDIR/../../vm/guest/lib.sh
. /guest/lib.sh

scenarios_first arm64 || exit 1
extra=/guest/arm64-extra.sh
want=$(cat /guest/arm64-scenarios.list 2>/dev/null || true)
[ -n "$want" ] || want="setup_filesystems scenario_pid_filter scenario_attach scenario_interval scenario_signals scenario_arm64_generic_read scenario_fentry scenario_lessons scenario_tracepoint"

{
	head -n $((SCENARIOS_FIRST - 1)) /guest/scenarios.sh
	echo ". $extra"
	if [ "$want" = all ]; then
		tail -n +"$SCENARIOS_FIRST" /guest/scenarios.sh
	else
		# shellcheck disable=SC2086 # a list of function names
		scenarios_named arm64 "$SCENARIOS_FIRST" $want
	fi
} > /tmp/arm64-run.sh
out "arm64: running $(echo "$want" | tr '\n' ' ')"
exec sh /tmp/arm64-run.sh
