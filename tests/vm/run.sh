#!/bin/bash
# VM tests: boots each kernel series once in qemu and runs all scenarios
# of guest/scenarios.sh there.  Prints the guest's
# "PASS <kernel> <name>" / "FAIL <kernel> <name>: <details>" lines (with
# indented context under a FAIL) plus FAIL lines of its own when a VM
# cannot be prepared or does not reach its end marker, and on stderr each
# boot's time and a closing line with all of them.
#
#   tests/vm/run.sh [SERIES...]      default: 5.10 6.1 6.12
#
# 5.10 is Debian bullseye's package, 6.1 and 6.12 Debian bookworm's
# (lib.sh): the kernels the Debian archive provides.  4.9 and 4.19 are
# booted only when asked for by name, from prebuilt vanilla images in
# EXT4DIST_OLD_KERNELS (everything built in); the suite emulates what
# they lacked on the Debian kernels instead (guest/oldkernels.sh).
# Exit status 1 when anything failed.  Prints "SKIP vm: <reason>" and exits
# 0 only when qemu is not installed, or (outside CI) when a kernel cannot
# be had; in CI (CI=true) a series asked for that cannot be had fails.
# See lib.sh for the environment variables.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "SKIP vm: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86): NO VM TESTS WERE RUN"
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

# Prepare every kernel first (downloads, initramfs, images), then boot up
# to EXT4DIST_VM_JOBS of them at once (default: one per CPU; each TCG
# guest keeps one busy), then judge them in the order asked.
jobs=${EXT4DIST_VM_JOBS:-$(nproc 2> /dev/null || echo 1)}
ready=()
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
	if ! vm_make_images "$out/images" ||
	   ! vm_make_family_images "$out/images"; then
		failed "$kver images: mkfs failed (see above)"
		continue
	fi
	ready+=("$kdir")
done

# boot_one KDIR: one guest, its exit status and time in $out/boot.rc.
boot_one() {
	local kdir=$1 kver out start rc=0
	kver=$(vm_kernel_version "$kdir")
	out=$VM_BUILD/$kver
	rm -f "$out/boot.rc"
	echo "vm: booting $kver ($([ "${EXT4DIST_VM_KVM:-0}" = 1 ] && echo kvm || echo tcg)), log in $out/console.log" >&2
	start=$(date +%s)
	vm_boot "$kdir" "$out/initramfs.cpio.gz" check "$out/console.log" \
		"$out/results.log" "$out/images/ext4.img" "$out/images/ext3.img" \
		"$out/images/ext2.img" "$out/images/bare.img" \
		"$out/images/odd.img" "$out/images/xfs.img" \
		"$out/images/btrfs.img" "$out/images/f2fs.img" || rc=$?
	echo "vm: $kver finished in $(( $(date +%s) - start )) s" >&2
	echo "$rc $(( $(date +%s) - start ))" > "$out/boot.rc"
}

running=0
for kdir in "${ready[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	boot_one "$kdir" &
	running=$((running + 1))
done
wait || true

times=""
for kdir in "${ready[@]}"; do
	kver=$(vm_kernel_version "$kdir")
	out=$VM_BUILD/$kver
	read -r rc secs < "$out/boot.rc" || { rc=1; secs=0; }
	times="$times${times:+, }$kver $secs s"
	results=$(vm_results "$out/results.log")
	# Result lines and the indented context under FAIL lines.
	vm_judge "$results" "$rc" "$kver" "$out/console.log" || status=1
done
echo "vm: boot times: ${times:-none}" >&2
exit "$status"
