#!/bin/sh
# Runs the scenarios of the x86 harness's /guest/scenarios.sh (copied
# unchanged into this initramfs) on the armhf user space: its definitions
# (everything before its first top-level call), then armhf-extra.sh, then
# its own sequence with the scenarios that know x86 facts replaced by their
# armhf versions (f_op offset, ext4_file_operations without KALLSYMS_ALL,
# what the JIT does with the atomic twins), then the armhf-only ones and
# its closing checks.  /guest/armhf-scenarios.list may name the scenario
# functions to run instead (the set-up first).
set -eu
# shellcheck source=SCRIPTDIR/../../vm/guest/lib.sh
. /guest/lib.sh

extra=/guest/armhf-extra.sh
scenarios_first armhf || exit 1
want=$(cat /guest/armhf-scenarios.list 2>/dev/null || true)

{
	head -n $((SCENARIOS_FIRST - 1)) /guest/scenarios.sh
	echo ". $extra"
	if [ -z "$want" ]; then
		# The x86 sequence, armhf versions swapped in, armhf ones added
		# before the closing checks (the lines after the last call).
		tail -n +"$SCENARIOS_FIRST" /guest/scenarios.sh |
			sed -e 's/^run scenario_generic_read$/run scenario_armhf_generic_read/' \
			    -e 's/^run scenario_fops_sources$/run scenario_armhf_fops_sources/' \
			    -e 's/^run scenario_forced_fallbacks$/run scenario_armhf_forced_fallbacks/' |
			awk '/^echo "--- done at/ {
				print "run scenario_armhf_object"
				print "run scenario_armhf_jit"
			} { print }'
	else
		# shellcheck disable=SC2086 # a list of function names
		scenarios_named armhf "$SCENARIOS_FIRST" $want
	fi
} > /tmp/armhf-run.sh
out "armhf: running ${want:-the whole sequence}"
exec sh /tmp/armhf-run.sh
