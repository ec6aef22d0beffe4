#!/bin/bash
# armhf VM tests: the cross-built static 32-bit ARM ext4dist (make
# ARCH=arm) with a 32-bit ARM user space, on Debian's armmp kernels
# (qemu-system-arm -M virt -cpu cortex-a15) and on Debian's arm64 kernel
# (qemu-system-aarch64 -M virt -cpu cortex-a72), the eBPF JIT on or off,
# running the whole scenario sequence of tests/vm/guest/scenarios.sh
# (armhf versions where it knows x86 facts) plus the armhf scenarios.
# Prints "PASS armhf-<spec>-<kernel> <name>" / "FAIL ...".
#
#   tests/vm-armhf/run.sh [SPEC...]   default: 6.1-jit (make check)
#   tests/vm-armhf/run.sh all         6.1-jit 6.1-nojit 5.10-jit 5.10-nojit arm64-6.1-jit
#
# SPEC: 6.1, 5.10 (armmp) or arm64-6.1, with -jit or -nojit.  The binary
# is built with the armhf sysroot of tools/sysroot.sh (make deps fetches
# it).  What cannot be had (the cross compiler, qemu-system-arm, the
# sysroot, the busybox-static:armhf package) gives one loud "SKIP armhf:
# <reason>" line, which tests/run-all.sh counts as a skipped suite, and
# exit 0; a kernel that cannot be had skips its spec the same way.  Exit
# status 1 when anything failed.  See lib.sh for the environment.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

skip() {
	echo "SKIP armhf: $1: NO ARMHF VM TESTS WERE RUN"
	exit 0
}

[ $# -gt 0 ] || set -- 6.1-jit
[ "$*" != all ] || set -- 6.1-jit 6.1-nojit 5.10-jit 5.10-nojit arm64-6.1-jit
for spec in "$@"; do
	case $spec in
	6.1-jit|6.1-nojit|5.10-jit|5.10-nojit|arm64-6.1-jit|arm64-6.1-nojit) ;;
	*) echo "FAIL armhf-harness: unknown kernel spec '$spec' (6.1, 5.10 or arm64-6.1, with -jit or -nojit)"; exit 1 ;;
	esac
done

command -v qemu-system-arm > /dev/null ||
	skip "qemu-system-arm is not installed (apt-get install qemu-system-arm)"
command -v "$ARMHF_CC" > /dev/null ||
	skip "$ARMHF_CC is not installed (apt-get install gcc-arm-linux-gnueabihf libc6-dev-armhf-cross; make deps does)"

status=0
failed() { echo "FAIL $1"; status=1; }

if [ -z "${EXT4DIST_ARMHF_BIN:-}" ]; then
	sysroot=$("$VM_TOP/tools/sysroot.sh" armhf) ||
		skip "no armhf sysroot: tools/sysroot.sh armhf could not fetch libelf-dev zlib1g-dev liblzma-dev libzstd-dev of armhf (see above)"
	mkdir -p "$VM_BUILD"
	if ! make -s -C "$VM_TOP" ARCH=arm SYSROOT="$sysroot" WERROR=1 > "$VM_BUILD/make.log" 2>&1; then
		failed "armhf build: make ARCH=arm failed:"
		sed 's/^/    | /' "$VM_BUILD/make.log" | tail -n 30
		exit 1
	fi
fi
size=$(stat -c %s "$ARMHF_BIN")
if [ "$size" -lt 1572864 ]; then
	echo "PASS armhf-build binary-size: $size bytes, under 1.5 MB"
else
	failed "armhf-build binary-size: $size bytes, not under 1.5 MB (1572864)"
fi
if armhf_is_arm32 "$ARMHF_BIN"; then
	echo "PASS armhf-build static-eabi5-hard-float"
else
	failed "armhf-build static-eabi5-hard-float: $(file -b "$ARMHF_BIN" 2>/dev/null || readelf -h "$ARMHF_BIN")"
fi
if ! vm_build_tools; then
	failed "armhf build: cannot cross-compile tests/vm/workload.c (or runas.c) statically"
	exit 1
fi
busybox=$(vm_busybox_of armhf) ||
	skip "cannot download the busybox-static:armhf package"

for spec in "$@"; do
	if [ "$(armhf_kernel_arch "$spec")" = arm64 ] &&
	   ! command -v qemu-system-aarch64 > /dev/null; then
		echo "SKIP armhf: qemu-system-aarch64 is not installed: NO ARMHF VM TESTS ON $spec"
		continue
	fi
	if ! kdir=$(armhf_fetch_kernel "$spec"); then
		echo "SKIP armhf: cannot download the Debian kernel package of $spec: NO ARMHF VM TESTS ON $spec"
		continue
	fi
	foreign_boot "armhf-$spec" "$kdir" "$VM_BUILD/$spec" "$busybox" check \
		"$spec" || status=1
done
exit "$status"
