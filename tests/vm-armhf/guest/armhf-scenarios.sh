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

src=/guest/scenarios.sh
run=/tmp/armhf-run.sh
extra=/guest/armhf-extra.sh
call_re='^(run )?(setup_filesystems|scenario_[a-z0-9_]+)$'
first=$(grep -nE "$call_re" "$src" | head -n 1 | cut -d: -f1)
if [ -z "$first" ]; then
	fail armhf-harness "no top-level scenario call found in $src"
	exit 1
fi
want=$(cat /guest/armhf-scenarios.list 2>/dev/null || true)

{
	head -n $((first - 1)) "$src"
	echo ". $extra"
	if [ -z "$want" ]; then
		# The x86 sequence, armhf versions swapped in, armhf ones added
		# before the closing checks (the lines after the last call).
		tail -n +"$first" "$src" |
			sed -e 's/^run scenario_generic_read$/run scenario_armhf_generic_read/' \
			    -e 's/^run scenario_fops_sources$/run scenario_armhf_fops_sources/' \
			    -e 's/^run scenario_forced_fallbacks$/run scenario_armhf_forced_fallbacks/' |
			awk '/^echo "--- done at/ {
				print "run scenario_armhf_object"
				print "run scenario_armhf_jit"
			} { print }'
	else
		for fn in $want; do
			if ! cat /guest/*.sh | grep -q "^$fn() {"; then
				echo "fail armhf-harness \"$fn is not defined in /guest/*.sh\""
				echo "exit 1"
			fi
			echo "run $fn"
		done
		tail -n +"$first" "$src" | grep -vE "$call_re"
	fi
} > "$run"
out "armhf: running ${want:-the whole sequence}"
exec sh "$run"
