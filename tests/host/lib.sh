# Helpers for host tests of the ext4dist binary (bash).  Every check prints
# one "PASS name" or "FAIL name: details" line.
BIN=${EXT4DIST_BIN:-./ext4dist}
# The test build, with the --test-* fixture-path options.
TEST_BIN=${EXT4DIST_TEST_BIN:-build/ext4dist-test}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "got [$2], want [$3]"
	fi
}

# run_both NAME ARGS...: ARGS run, stdout then stderr in $TMP/NAME (kept
# apart while it runs: a line cut by the other stream's would differ).
run_both() {
	local name=$1
	shift
	"$@" > "$TMP/$name" 2> "$TMP/$name.err" < /dev/null
	RC=$?
	cat "$TMP/$name.err" >> "$TMP/$name"
}

# new_lines BASE FILE: the lines of FILE that BASE lacks, numbers, kernel
# addresses and tags masked in both (they differ from run to run), runs of
# spaces made one (a column padded after a PID past 0xffff is wider).
new_lines() {
	local mask='s/0x[0-9a-f]*/H/g; s/[0-9a-f]\{16\}/T/g; s/[0-9][0-9]*/N/g; s/  */ /g'

	sed -e "$mask" "$1" > "$TMP/new_lines.base"
	sed -e "$mask" "$2" | grep -vxFf "$TMP/new_lines.base"
}

# run_bin ARGS...: runs the binary, leaves OUT, ERR (texts) and RC.
run_bin() {
	"$@" > "$TMP/out" 2> "$TMP/err"
	RC=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}
