#!/bin/bash
# arm64 VM tests: the cross-built static ext4dist (make ARCH=arm64) in a
# Debian arm64 kernel under qemu-system-aarch64 (-machine virt, TCG), with
# the x86 harness's guest scenarios 1-4 (exact counts with -p, both attach
# back-ends, interval/-T/-m, SIGINT/SIGTERM/kill -9).  Prints
# "PASS arm64-<kernel> <name>" / "FAIL arm64-<kernel> <name>: <details>".
#
#   tests/vm-arm64/run.sh [SERIES...]      default: 6.1 5.10
#
# 6.1 is Debian bookworm's arm64 kernel, 5.10 bullseye's (fetched through
# tests/vm/lib.sh's private apt list, as for x86_64).
#
# The binary is built with the arm64 sysroot of tools/sysroot.sh (libelf,
# zlib, liblzma and libzstd of arm64, unpacked into the cache through
# private apt lists; make deps fetches it).  What cannot be had (the
# cross compiler, qemu-system-aarch64, the sysroot, the busybox-static
# or kernel package of arm64) gives one loud "SKIP arm64: <reason>" line,
# which tests/run-all.sh counts as a skipped suite, and exit 0.  Exit
# status 1 when anything failed.  See lib.sh for the environment
# variables.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

skip() {
	echo "SKIP arm64: $1: NO ARM64 VM TESTS WERE RUN"
	exit 0
}

command -v qemu-system-aarch64 > /dev/null ||
	skip "qemu-system-aarch64 is not installed (apt-get install qemu-system-arm)"
command -v "$ARM64_CC" > /dev/null ||
	skip "$ARM64_CC is not installed (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross; make deps does)"

status=0
failed() { echo "FAIL $1"; status=1; }

# The binary: built here unless one is given.
if [ -z "${EXT4DIST_ARM64_BIN:-}" ]; then
	sysroot=$("$VM_TOP/tools/sysroot.sh" arm64) ||
		skip "no arm64 sysroot: tools/sysroot.sh arm64 could not fetch libelf-dev zlib1g-dev liblzma-dev libzstd-dev of arm64 (see above)"
	mkdir -p "$VM_BUILD"
	if ! make -s -C "$VM_TOP" ARCH=arm64 SYSROOT="$sysroot" > "$VM_BUILD/make.log" 2>&1; then
		failed "arm64 build: make ARCH=arm64 failed:"
		sed 's/^/    | /' "$VM_BUILD/make.log" | tail -n 30
		exit 1
	fi
fi
if ! vm_build_tools; then
	failed "arm64 build: cannot cross-compile tests/vm/workload.c (or runas.c) statically"
	exit 1
fi
busybox=$(vm_busybox_of arm64) ||
	skip "cannot download the busybox-static:arm64 package"

# shellcheck disable=SC2086 # a list of series
[ $# -gt 0 ] || set -- $VM_DEFAULT_SERIES
times=""
for series in "$@"; do
	if ! kdir=$(vm_fetch_kernel "$series"); then
		echo "SKIP arm64: cannot get $(vm_series_source "$series") for arm64: NO ARM64 VM TESTS FOR $series"
		continue
	fi
	kver=$(vm_kernel_version "$kdir")
	# The guest's lines name the kernel (uname -r); "arm64-" in front.
	foreign_boot arm64 "$kdir" "$VM_BUILD/$kver" "$busybox" check || status=1
	times="$times${times:+, }$kver $FOREIGN_SECS s"
done
echo "vm-arm64: boot times: ${times:-none}" >&2
exit "$status"
