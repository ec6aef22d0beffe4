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

# run_bin ARGS...: runs the binary, leaves OUT, ERR (texts) and RC.
run_bin() {
	"$@" > "$TMP/out" 2> "$TMP/err"
	RC=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}
