#!/bin/bash
# VM tests: boots each kernel series once in qemu and runs all scenarios
# of guest/scenarios.sh there.  Prints the guest's
# "PASS <kernel> <name>" / "FAIL <kernel> <name>: <details>" lines (with
# indented context under a FAIL) plus FAIL lines of its own when a VM
# cannot be prepared or does not reach its end marker, and on stderr each
# boot's time and a closing line with all of them.
#
#   tests/vm/run.sh [SERIES...]      default: 4.9 4.19 5.10 6.1 6.12
#
# 4.9 and 4.19 are prebuilt vanilla kernels (everything built in), 5.10
# Debian bullseye's package, 6.1 and 6.12 Debian bookworm's (lib.sh).
# Exit status 1 when anything failed.  Prints "SKIP vm: <reason>" and exits
# 0 only when qemu is not installed, or (outside CI) when a kernel cannot
# be had.  See lib.sh for the environment variables.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "SKIP vm: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
	echo "SKIP vm: NO VM TESTS WERE RUN"
	exit 0
fi

status=0
failed() { echo "FAIL $1"; status=1; }

if ! vm_build_tools; then
	failed "vm build: cannot compile tests/vm/workload.c statically"
	exit 1
fi

# shellcheck disable=SC2086 # a list of series
[ $# -gt 0 ] || set -- $VM_DEFAULT_SERIES
times=""
for series in "$@"; do
	if ! kdir=$(vm_fetch_kernel "$series"); then
		if [ "${CI:-}" = true ]; then
			failed "$series kernel-package: cannot get $(vm_series_source "$series")"
		else
			echo "SKIP vm: cannot get $(vm_series_source "$series"): NO VM TESTS FOR $series"
		fi
		continue
	fi
	kver=$(vm_kernel_version "$kdir")
	out=$VM_BUILD/$kver
	mkdir -p "$out"
	if ! vm_build_initramfs "$kdir" "$out/initramfs.cpio.gz"; then
		failed "$kver initramfs: cannot build the initramfs (see above)"
		continue
	fi
	if ! vm_make_images "$out/images"; then
		failed "$kver images: mkfs failed (see above)"
		continue
	fi
	echo "vm: booting $kver ($([ "${EXT4DIST_VM_KVM:-0}" = 1 ] && echo kvm || echo tcg)), log in $out/console.log" >&2
	start=$(date +%s)
	rc=0
	vm_boot "$kdir" "$out/initramfs.cpio.gz" check "$out/console.log" \
		"$out/results.log" "$out/images/ext4.img" "$out/images/ext3.img" \
		"$out/images/ext2.img" "$out/images/bare.img" \
		"$out/images/odd.img" || rc=$?
	echo "vm: $kver finished in $(( $(date +%s) - start )) s" >&2
	times="$times${times:+, }$kver $(( $(date +%s) - start )) s"

	results=$(vm_results "$out/results.log")
	# Result lines and the indented context under FAIL lines.
	vm_judge "$results" "$rc" "$kver" "$out/console.log" || status=1
done
echo "vm: boot times: ${times:-none}" >&2
exit "$status"
