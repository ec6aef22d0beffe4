#!/bin/bash
# The budget guard of make check (suite "budget" of tests/run-all.sh):
# boots one kernel of the VM suite (BUDGET_SERIES, default Debian's 6.12,
# where all four attach paths exist) once under qemu -icount shift=0, so
# that every figure is a count of guest instructions, the same from run
# to run and immune to the host's load; measures ext4dist's start-up
# against the kernel's floor, its peak and steady RSS in every mode, the
# BPF instructions per traced pread on each attach path, and the size of
# the binaries; and holds each figure against tests/bench/budget
# (tests/budget/judge.awk): "PASS budget NAME" or "FAIL budget NAME".
# make bench stays the full report (docs/performance.md).
#
#   tests/budget/run.sh            build the tools, boot, judge
#   tests/budget/run.sh --judge    judge the last boot's records again
#
# Environment (besides tests/vm/lib.sh's): BUDGET_SERIES (6.12),
# BUDGET_RUNS (start-up runs per mode; 5), BUDGET_OPS_N (preads
# per path; 2000).
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/budget
# shellcheck source-path=SCRIPTDIR source=../bench/measure.sh
. "$TOP/tests/bench/measure.sh"
BIN=$TOP/ext4dist
series=${BUDGET_SERIES:-6.12}

judge() {
	{
		echo "binary arch=x86_64 bytes=$(stat -c %s "$BIN")"
		if [ -n "$armhf_skip" ]; then
			echo "skip binary.armhf $armhf_skip"
		else
			echo "binary arch=armhf bytes=$(stat -c %s "$TOP/build-arm/ext4dist")"
		fi
		vm_results "$OUT/budget-results.log" | sed -n 's/^BUDGET //p'
	} > "$OUT/records.txt"
	awk -f "$TOP/tests/budget/judge.awk" -v series="$series" \
		"$TOP/tests/bench/budget" "$OUT/records.txt"
}

mkdir -p "$OUT"
# The armhf binary's size, built as make ARCH=arm builds it where the
# cross compiler and the sysroot are (tests/vm-armhf builds it the same).
armhf_skip=""
if ! command -v arm-linux-gnueabihf-gcc > /dev/null; then
	armhf_skip="no arm-linux-gnueabihf-gcc (make deps)"
elif ! sysroot=$("$TOP/tools/sysroot.sh" --path armhf 2> /dev/null) || [ ! -d "$sysroot" ]; then
	armhf_skip="no armhf sysroot (tools/sysroot.sh armhf)"
elif ! make -s -C "$TOP" ARCH=arm SYSROOT="$sysroot" build-arm/ext4dist > "$OUT/armhf-build.log" 2>&1; then
	cat "$OUT/armhf-build.log"
	echo "FAIL budget: make ARCH=arm"
	armhf_skip="its build failed"
fi

mkdir -p "$OUT"
if [ "${1:-}" = --judge ]; then
	judge
	exit
fi
if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "SKIP budget: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86): NO BUDGET GUARD WAS RUN"
	exit 0
fi
for f in "$BIN" "$TOP/build/libext4dist.a"; do
	[ -f "$f" ] || { echo "FAIL budget: $f not built (make)"; exit 1; }
done
if ! bench_build_tools "$OUT" > "$OUT/tools.log" 2>&1 || ! vm_build_tools; then
	cat "$OUT/tools.log"
	echo "FAIL budget: cannot build the guest's tools (tests/bench)"
	exit 1
fi
# shellcheck disable=SC2034 # bench_overlay_boot boots KDIR
if ! KDIR=$(vm_fetch_kernel "$series"); then
	if [ "${CI:-}" = true ]; then
		echo "FAIL budget: cannot get $(vm_series_source "$series")"
		exit 1
	fi
	echo "SKIP budget: cannot get $(vm_series_source "$series"): NO BUDGET GUARD WAS RUN"
	exit 0
fi
# lib.sh's initramfs plus a second archive: the tools, the parameters,
# guest.sh as /guest/demo.sh (a later file of the concatenation wins).
measure_stage "$TOP/tests/budget/guest.sh" budget
printf 'RUNS=%s\nOPS_N=%s\n' "${BUDGET_RUNS:-5}" "${BUDGET_OPS_N:-2000}" \
	> "$stage/budget/params"
bench_overlay_boot budget "$stage" "BUDGET done" || exit 1
judge
