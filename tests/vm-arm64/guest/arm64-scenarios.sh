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

src=/guest/scenarios.sh
run=/tmp/arm64-run.sh
# A call: "scenario_x" or "run scenario_x" alone on a line.
call_re='^(run )?(setup_filesystems|scenario_[a-z0-9_]+)$'
first=$(grep -nE "$call_re" "$src" | head -n 1 | cut -d: -f1)
if [ -z "$first" ]; then
	fail arm64-harness "no top-level scenario call found in $src"
	exit 1
fi
extra=/guest/arm64-extra.sh
want=$(cat /guest/arm64-scenarios.list 2>/dev/null || true)
[ -n "$want" ] || want="setup_filesystems scenario_pid_filter scenario_attach scenario_interval scenario_signals scenario_arm64_generic_read scenario_fentry scenario_lessons scenario_tracepoint"

{
	head -n $((first - 1)) "$src"
	echo ". $extra"
	if [ "$want" = all ]; then
		tail -n +"$first" "$src"
	else
		runner=""
		head -n $((first - 1)) "$src" | grep -q '^run() {' && runner="run "
		for fn in $want; do
			# Defined in scenarios.sh, a file it sources, or ours.
			if ! cat /guest/*.sh | grep -q "^$fn() {"; then
				echo "fail arm64-harness \"$fn is not defined in /guest/*.sh\""
				echo "exit 1"
			fi
			echo "$runner$fn"
		done
		tail -n +"$first" "$src" | grep -vE "$call_re"
	fi
} > "$run"
out "arm64: running $(echo "$want" | tr '\n' ' ')"
exec sh "$run"
