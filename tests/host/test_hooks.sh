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
run_bin "$BIN" --test-kallsyms=/x --test-sysfs-kprobe=/x --test-debugfs-dir=/x
expect_eq "shipped binary, every hook: message" "$ERR" "$USAGE
ext4dist: error: unrecognized arguments: --test-kallsyms=/x --test-sysfs-kprobe=/x --test-debugfs-dir=/x"
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
