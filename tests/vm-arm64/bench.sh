#!/bin/bash
# The arm64 start-up bench (issue 30 item 3): the static arm64 ext4dist on
# Debian's arm64 kernels (default: bookworm's 6.1), each booted once under
# qemu -icount shift=0,sleep=off: the guest clock counts guest
# instructions and jumps over idle time at once to the next timer, so that
# a boot's figures are the same from boot to boot.  In that boot (guest
# side: guest/arm64-bench.sh): the kernel's price of ext4dist's 8 probes by
# place, through the PMU and kprobe_events (floor8 --time); start-up, exec
# to banner, of floor8 (the same 8 probes without BPF: the kernel's floor)
# and of ext4dist, default and on each kprobe path, with each one's ratio
# to the floor of its path; the instructions each process runs to its
# banner (bench_probe profile: no idle time) and where the kernel spends
# them in the default run and in --check (every program loaded, none
# attached); the user-space functions of the default run (its samples'
# addresses named by the symbols of make's link again without -s).
#
#   tests/vm-arm64/bench.sh [SERIES...]    default: 6.1
#   BENCH_START_RUNS=N                     runs of each (default 5)
#
# Prints tables; "SKIP arm64 bench: <reason>" when the machine lacks what
# it needs.  The raw records stay in build/vm-arm64/bench-<series>/.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

foreign_bench_ready arm64 qemu-system-aarch64 arm64

# arm64_symbols: make's link of ext4dist again without -s, to name the
# user-space samples: the text symbols of the twin, "ADDR NAME" sorted,
# on stdout; nothing when its segments are not the stripped binary's.
arm64_symbols() {
	local v twin=$VM_BUILD/ext4dist.unstripped
	local -a m
	mapfile -t m < <(make -s -C "$VM_TOP" --no-print-directory ARCH=arm64 SYSROOT="$sysroot" \
		print-GC_LDFLAGS print-CFLAGS print-XCFLAGS print-XLDFLAGS print-MAIN_OBJ \
		print-ZSTD_STUB_OBJ print-ZLIB_STUB_OBJ print-COMPAT_OBJ print-BUILD \
		print-STATIC_LDLIBS print-BIN)
	[ "${#m[@]}" = 11 ] || return 0
	# shellcheck disable=SC2086 # the Makefile's lists of flags and objects
	(cd "$VM_TOP" && "$ARM64_CC" -static ${m[0]} ${m[1]} ${m[2]} ${m[3]} -o "$twin" \
		${m[4]} ${m[5]} ${m[6]} ${m[7]} "${m[8]}/libext4dist.a" ${m[9]}) || return 0
	v=$(readelf -lW "$VM_TOP/${m[10]}" | grep -E '^ +LOAD')
	[ "$v" = "$(readelf -lW "$twin" | grep -E '^ +LOAD')" ] || return 0
	nm "$twin" | awk '$2 ~ /^[tTwW]$/ && $3 !~ /^\$/ { print $1, $3 }' | sort
}

[ $# -gt 0 ] || set -- 6.1
status=0
for series in "$@"; do
	kdir=$(vm_fetch_kernel "$series") || { echo "SKIP arm64 bench: no kernel for $series"; continue; }
	kver=$(vm_kernel_version "$kdir")
	out=$VM_BUILD/bench-$series
	mkdir -p "$out"
	vm_build_initramfs "$kdir" "$out/initramfs.cpio.gz" "$busybox" &&
		vm_make_images "$out/images" || { echo "FAIL arm64 bench: $series set-up"; status=1; continue; }
	echo "arm64 bench: booting $kver under -icount shift=0,sleep=off, log in $out/console.log" >&2
	rc=0
	ARM64_QEMU_EXTRA="-icount shift=0,sleep=off" \
	ARM64_APPEND_EXTRA="ext4dist_runs=${BENCH_START_RUNS:-5}" \
	VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-2400} \
		vm_boot "$kdir" "$out/initramfs.cpio.gz" bench "$out/console.log" \
		"$out/results.log" "$out/images/ext4.img" "$out/images/ext3.img" \
		"$out/images/ext2.img" "$out/images/bare.img" "$out/images/odd.img" || rc=$?
	foreign_bench_records arm64 "$series" "$out" "$rc" || { status=1; continue; }
	arm64_symbols > "$out/user-symbols"
	awk -v kver="$kver" -v syms="$out/user-symbols" \
		-f "$ARM64_DIR/../vm-armhf/places.awk" \
		-f "$ARM64_DIR/bench.awk" "$out/records"
done
exit "$status"
