# shellcheck shell=bash
# Sourced by the hosts of the measuring guests (tests/budget/run.sh,
# tests/ab/run.sh) with TOP and OUT set: tests/vm/lib.sh with its build
# under OUT, this directory's lib.sh, gcc, no clang (bench_build_tools
# then builds no variants object), and measure_stage.
BENCH_DIR=$TOP/tests/bench
export EXT4DIST_VM_BUILD=${EXT4DIST_VM_BUILD:-$OUT/vm}
# shellcheck source-path=SCRIPTDIR source=../vm/lib.sh
. "$TOP/tests/vm/lib.sh"
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$BENCH_DIR/lib.sh"
CC=${CC:-gcc}
# shellcheck disable=SC2034 # read by bench_build_tools
CLANG=

# measure_stage GUEST DIR: stage=$OUT/overlay afresh, the second cpio
# archive of the boot: GUEST as /guest/demo.sh beside guest_records.sh
# (/guest/records.sh), OUT's opbench, bench_probe and bench_floor in
# /bin, and /DIR for the guest's parameters.
measure_stage() {
	stage=$OUT/overlay
	rm -rf "$stage"
	mkdir -p "$stage/bin" "$stage/guest" "$stage/$2"
	cp "$1" "$stage/guest/demo.sh"
	cp "$BENCH_DIR/guest_records.sh" "$stage/guest/records.sh"
	cp "$OUT/opbench" "$OUT/bench_probe" "$OUT/bench_floor" "$stage/bin/"
	chmod 755 "$stage/guest/demo.sh" "$stage"/bin/*
}
