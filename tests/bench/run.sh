#!/bin/bash
# make bench: boots a kernel of the VM suite (BENCH_SERIES: 5.10, 6.1
# (default) or 6.12, fetched by tests/vm/lib.sh; 4.9 or 4.19 from
# EXT4DIST_OLD_KERNELS where one has those images) in qemu twice
# (TCG with the guest's wall clock, then TCG with -icount, where guest time
# counts instructions; EXT4DIST_VM_KVM=1: one KVM boot instead) with
# tests/bench/guest_bench.sh as the guest program, then prints tables and
# JSON (also saved to build/bench/result.json).  See docs/performance.md.
#
#   tests/bench/run.sh               build, boot, measure, report
#   tests/bench/run.sh --report      tables again from the last boots' logs
#
# Environment (besides tests/vm/lib.sh's): BENCH_SERIES (6.1), BENCH_OPS_N
# (5000 calls per op and round), BENCH_OPS_REPS (3), BENCH_ROUNDS (3),
# BENCH_VAR_ITERS (5000 preads per variant and round), BENCH_VAR_ROUNDS (9),
# BENCH_START_RUNS (7), BENCH_ICOUNT (1; 0 skips the icount boot),
# BENCH_TCG (1; 0 skips the wall-clock boot), BENCH_SECTIONS (the guest's
# parts: "ops slower startup profile variants"), BENCH_STATS (1: per-program
# run time from kernel.bpf_stats_enabled, whose clock reads every program
# run then pays; 0 leaves it off, for the traced/untraced ratios alone).
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$BENCH_DIR/../.." && pwd)
OUT=$TOP/build/bench
# Our own build directory for lib.sh: other engineers' VM runs use build/vm.
export EXT4DIST_VM_BUILD=${EXT4DIST_VM_BUILD:-$OUT/vm}
export EXT4DIST_VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-1200}
# shellcheck source-path=SCRIPTDIR source=../vm/lib.sh
. "$TOP/tests/vm/lib.sh"

CC=${CC:-gcc}
CLANG=${CLANG:-clang}
BIN=${EXT4DIST_BIN:-$TOP/ext4dist}
mkdir -p "$OUT"

# collect: the records of every boot's results log, plus host facts.
collect() {
	local r
	for r in $runs; do
		echo "run name=$r"
		echo "env accel=$r host_kernel=$(uname -r)"
		vm_results "$OUT/$r-results.log" | sed -n 's/^BENCH //p'
	done
	echo "run name=host"
	# The binary as built, and a host-side syscall count with strace.
	echo "host binary_bytes=$(stat -c %s "$BIN") stripped_bytes=$(strip -o "$OUT/ext4dist.stripped" "$BIN" && stat -c %s "$OUT/ext4dist.stripped")"
	if command -v strace > /dev/null; then
		strace -f -c -o "$OUT/strace-check.txt" "$BIN" --check > /dev/null 2>&1 || true
		echo "host strace_check_calls=$(awk '$NF == "total" { print $4 }' "$OUT/strace-check.txt") host_kernel=$(uname -r)"
	fi
}
report() {
	awk -f "$BENCH_DIR/report.awk" -v json="$OUT/result.json" "$OUT/records.txt"
}
# --report: the tables again from the logs of the last boots.
if [ "${1:-}" = --report ]; then
	runs=$(for r in kvm tcg icount; do if [ -s "$OUT/$r-results.log" ]; then echo "$r"; fi; done)
	collect > "$OUT/records.txt"
	report
	exit 0
fi

if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "bench: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)" >&2
	exit 1
fi
[ -f "$BIN" ] || { echo "bench: $BIN missing (make ext4dist)" >&2; exit 1; }
[ -f "$TOP/build/libext4dist.a" ] || { echo "bench: build/libext4dist.a missing (make)" >&2; exit 1; }

# --- build the bench tools (static) and the variants object.
echo "bench: building tests/bench tools" >&2
# shellcheck source=lib.sh
. "$BENCH_DIR/lib.sh"
bench_build_tools "$OUT"
[ -f "$OUT/variants.bpf.o" ] || { echo "bench: no $CLANG for tests/bench/variants.bpf.c" >&2; exit 1; }

# --- the VM: lib.sh's initramfs plus a second archive that adds our tools
# and replaces /guest/demo.sh (the kernel unpacks concatenated archives in
# order; a later file overrides an earlier one).
vm_build_tools
KDIR=$(vm_fetch_kernel "${BENCH_SERIES:-6.1}") || {
	echo "bench: cannot get $(vm_series_source "${BENCH_SERIES:-6.1}")" >&2
	exit 1
}
kver=$(vm_kernel_version "$KDIR")
EXT4DIST_BIN=$BIN vm_build_initramfs "$KDIR" "$OUT/base.cpio.gz"
stage=$OUT/overlay
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/guest" "$stage/bench"
cp "$BENCH_DIR/guest_bench.sh" "$stage/guest/demo.sh"
cp "$OUT/opbench" "$OUT/bench_probe" "$OUT/bench_floor" "$stage/bin/"
cp "$OUT/variants.bpf.o" "$stage/bench/"
cat > "$stage/bench/params" <<EOF
OPS_N=${BENCH_OPS_N:-5000}
OPS_REPS=${BENCH_OPS_REPS:-3}
ROUNDS=${BENCH_ROUNDS:-3}
VAR_ITERS=${BENCH_VAR_ITERS:-5000}
VAR_ROUNDS=${BENCH_VAR_ROUNDS:-9}
START_RUNS=${BENCH_START_RUNS:-7}
SECTIONS="${BENCH_SECTIONS:-ops slower startup profile variants}"
STATS=${BENCH_STATS:-1}
HOLD_VARIANTS="${BENCH_HOLD_VARIANTS:-null}"
EOF
chmod 755 "$stage/guest/demo.sh" "$stage"/bin/*
(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$OUT/overlay.cpio.gz"
cat "$OUT/base.cpio.gz" "$OUT/overlay.cpio.gz" > "$OUT/initramfs.cpio.gz"
vm_make_images "$OUT/images"
# The peers' disk (tests/bench/peers.sh), unless BENCH_PEERS=0.
BENCH_DISKS=()
if [ "${BENCH_PEERS:-1}" = 1 ]; then
	# shellcheck source=peers.sh
	. "$BENCH_DIR/peers.sh"
	if bench_peers_image "$OUT"; then
		BENCH_DISKS=("$OUT/peers.img")
	else
		echo "bench: the peers' packages cannot be had: measured without them" >&2
	fi
fi

# Boot 1, "tcg": wall-clock time in the guest, as a user would see it
# (noisy when other VMs share the host).  Boot 2, "icount": qemu's -icount
# shift=0 makes the guest clock count instructions (1 ns = 1 guest
# instruction), so run_time_ns and ns/op become deterministic instruction
# counts, immune to host load (not modelled: caches, atomics' real cost).
if [ "${EXT4DIST_VM_KVM:-0}" = 1 ]; then
	bench_boot kvm "BENCH done" -accel kvm -cpu host
	runs="kvm"
else
	runs=
	if [ "${BENCH_TCG:-1}" = 1 ]; then
		bench_boot tcg "BENCH done" -accel tcg -cpu max
		runs="tcg"
	fi
	if [ "${BENCH_ICOUNT:-1}" = 1 ]; then
		bench_boot icount "BENCH done" -accel tcg -cpu max -icount shift=0,sleep=on
		runs="$runs icount"
	fi
fi

collect > "$OUT/records.txt"

report
