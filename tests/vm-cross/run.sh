#!/bin/bash
# VM tests of the static ext4dist of make ARCH=mipsel, s390x and riscv64
# on Debian's kernels of those architectures under qemu (TCG, one CPU):
# the core sequence of guest/cross-scenarios.sh.  Prints
# "PASS cross-<spec>-<kernel> <name>" / "FAIL ...".
#
#   tests/vm-cross/run.sh [SPEC...]      default: s390x-6.1
#   tests/vm-cross/run.sh all            every spec of CROSS_SPECS (lib.sh)
#   tests/vm-cross/run.sh --facts SPEC   what the kernel offers (no test)
#   tests/vm-cross/run.sh --kretprobe SPEC  the kernel's own entry, then
#                                        return probe under two readers
#                                        (guest/cross-kretprobe.sh; no test)
#
# SPEC: mipsel-6.1-jit, mipsel-6.1-nojit, s390x-6.1, riscv64-6.12-jit,
# riscv64-6.12-nojit.  Each binary is built with the sysroot of
# tools/sysroot.sh.  What cannot be had (a cross compiler, qemu, a
# sysroot, busybox-static or a kernel of the architecture) gives one loud
# "SKIP cross: <reason>" line and exit 0.  Exit status 1 when anything
# failed.  See lib.sh for the environment.
set -eu
# shellcheck source=SCRIPTDIR/lib.sh
. "$(dirname "$0")/lib.sh"

mode=check
case ${1:-} in
--facts) mode=shell; shift ;;
--kretprobe) mode=kretprobe; shift ;;
esac
[ $# -gt 0 ] || set -- s390x-6.1
# shellcheck disable=SC2086 # the list of specs
[ "$*" != all ] || set -- $CROSS_SPECS
for spec in "$@"; do
	case " $CROSS_SPECS " in
	*" $spec "*) ;;
	*) echo "FAIL cross-harness: unknown kernel spec '$spec' ($CROSS_SPECS)"; exit 1 ;;
	esac
done

status=0
failed() { echo "FAIL $1"; status=1; }
built=" "

for spec in "$@"; do
	arch=$(cross_arch "$spec")
	cross_setup "$arch"
	if ! command -v "$CROSS_QEMU" > /dev/null; then
		echo "SKIP cross: $CROSS_QEMU is not installed (apt-get install $CROSS_PACKAGE): NO VM TESTS ON $spec"
		continue
	fi
	if ! command -v "$CROSS_CC" > /dev/null; then
		echo "SKIP cross: $CROSS_CC is not installed (tests/deps.sh installs it): NO VM TESTS ON $spec"
		continue
	fi
	if [ -z "${!CROSS_BIN_VAR:-}" ] && [ "${built#* "$arch" }" = "$built" ]; then
		if ! sysroot=$("$VM_TOP/tools/sysroot.sh" "$arch"); then
			echo "SKIP cross: no $arch sysroot (tools/sysroot.sh $arch, see above): NO VM TESTS ON $spec"
			continue
		fi
		mkdir -p "$VM_BUILD"
		if ! make -s -C "$VM_TOP" -j2 ARCH="$arch" SYSROOT="$sysroot" WERROR=1 \
			"build-$arch/ext4dist" "build-$arch/ext4dist-test" > "$VM_BUILD/make-$arch.log" 2>&1; then
			failed "cross-$arch build: make ARCH=$arch failed:"
			tail -n 30 "$VM_BUILD/make-$arch.log" | sed 's/^/    | /'
			continue
		fi
		built="$built$arch "
	fi
	if ! vm_build_tools; then
		failed "cross-$arch build: cannot cross-compile tests/vm/workload.c (or runas.c) statically"
		continue
	fi
	if ! busybox=$(vm_busybox_of "$arch" "$CROSS_SUITE"); then
		echo "SKIP cross: cannot download the busybox-static:$arch package: NO VM TESTS ON $spec"
		continue
	fi
	if ! kdir=$(vm_fetch_kernel "$(cross_series "$spec")"); then
		echo "SKIP cross: cannot download the Debian $arch kernel package of $spec: NO VM TESTS ON $spec"
		continue
	fi
	foreign_boot "cross-$spec" "$kdir" "$VM_BUILD/$spec" "$busybox" "$mode" \
		"$spec" || status=1
done
exit "$status"
