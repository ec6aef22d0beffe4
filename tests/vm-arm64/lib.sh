# shellcheck shell=bash
# Host side of the arm64 VM tests (sourced by run.sh; bash).
#
# Reuses tests/vm/lib.sh (kernel download and cache, the private bullseye
# apt list for 5.10, modules.dep order, module copies, ext4 images, result
# parsing) and replaces only what differs on arm64: the kernel packages'
# architecture (VM_APT_ARCH: linux-image-*-arm64-unsigned, through private
# apt lists: no dpkg architecture is added), the cache and build
# directories, busybox-static:arm64 (vm_busybox_of: downloaded and
# extracted, never installed), the cross-compiled workload, the guest
# /init and qemu-system-aarch64.
# qemu's "virt" machine has a single UART, so the results channel that the
# guest scripts write to /dev/ttyS1 is a virtio console (hvc0) here.
#
# Environment (besides tests/vm/lib.sh's EXT4DIST_VM_CACHE/_TIMEOUT):
#   EXT4DIST_ARM64_BIN        binary to test (default <top>/build-arm64/ext4dist)
#   EXT4DIST_ARM64_TEST_BIN   its test build, /bin/ext4dist-test in the guest
#                             (default <top>/build-arm64/ext4dist-test)
#   EXT4DIST_ARM64_BUILD      build products (default <top>/build/vm-arm64)
#   EXT4DIST_ARM64_SCENARIOS  scenario functions of tests/vm/guest/scenarios.sh
#                             to run (default: 1-4, see run.sh; "all" = every one)
#   EXT4DIST_ARM64_CC         cross compiler (default aarch64-linux-gnu-gcc)

ARM64_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../vm/lib.sh
. "$ARM64_DIR/../vm/lib.sh"
# shellcheck source=SCRIPTDIR/../vm/foreign.sh
. "$ARM64_DIR/../vm/foreign.sh"

VM_CACHE=$VM_CACHE/arm64
VM_BUILD=${EXT4DIST_ARM64_BUILD:-$VM_TOP/build/vm-arm64}
VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-480}
ARM64_CC=${EXT4DIST_ARM64_CC:-aarch64-linux-gnu-gcc}
ARM64_BIN=${EXT4DIST_ARM64_BIN:-$VM_TOP/build-arm64/ext4dist}
ARM64_TEST_BIN=${EXT4DIST_ARM64_TEST_BIN:-$VM_TOP/build-arm64/ext4dist-test}
# tests/vm/foreign.sh's facts.
FOREIGN_CC=$ARM64_CC
FOREIGN_TOOLS=$VM_BUILD
FOREIGN_IS=arm64_is_aarch64
FOREIGN_ARCH=arm64
FOREIGN_BIN=$ARM64_BIN
FOREIGN_TEST_BIN=$ARM64_TEST_BIN
# virtio_console carries the results port (/dev/hvc0).
VM_EARLY_MODULES="virtio_pci virtio_blk virtio_console"
# Debian's arm64 packages (vm_series_regex, the private apt lists).
VM_APT_ARCH=arm64
# The series run.sh boots by default: Debian's 6.1 (bookworm) and 5.10
# (bullseye); only Debian packages: the vanilla kernels are x86_64 images.
# shellcheck disable=SC2034 # read by run.sh
VM_DEFAULT_SERIES="6.1 5.10"

# arm64_is_aarch64 FILE: a static AArch64 ELF executable.
arm64_is_aarch64() {
	readelf -h "$1" 2>/dev/null | grep -q 'Machine:.*AArch64' &&
		vm_is_static "$1"
}

# vm_build_initramfs KDIR OUT BUSYBOX: the user space of foreign_stage,
# /boot, ext4.ko where a distribution installs it, and make bench's tools
# with the armhf bench's guest part when bench.sh built them.
vm_build_initramfs() {
	local kdir=$1 out=$2 busybox=$3 kver stage tool
	kver=$(vm_kernel_version "$kdir")
	stage=$VM_BUILD/initramfs-$kver
	foreign_stage "$kdir" "$stage" "$busybox" "$ARM64_DIR" arm64 \
		"${EXT4DIST_ARM64_SCENARIOS:-}" || return 1
	vm_copy_boot "$kdir" "$stage" || return 1
	# Debian's arm64 kernel has no CONFIG_KALLSYMS_ALL: the generic read
	# path finds ext4_file_operations in the module file, at its usual
	# place (a hard link: stored once in the cpio).
	mkdir -p "$stage/lib/modules/$kver/kernel/fs/ext4"
	ln "$stage/lib/modules/ext4.ko" "$stage/lib/modules/$kver/kernel/fs/ext4/ext4.ko"
	for tool in floor8 bench_probe; do
		[ ! -e "$VM_BUILD/$tool" ] ||
			install -m 755 "$VM_BUILD/$tool" "$stage/bin/$tool"
	done
	cp "$ARM64_DIR/../vm-armhf/guest/armhf-places.sh" "$stage/guest/"
	vm_pack_initramfs "$stage" "$out"
}

# vm_boot KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG IMAGE...: as in
# tests/vm/lib.sh, on qemu-system-aarch64 -machine virt (TCG, -cpu max).
# The console is the PL011 (ttyAMA0); the results port a virtio console.
# ARM64_QEMU_EXTRA: more options (bench.sh: -icount); ARM64_APPEND_EXTRA:
# more of the kernel's command line.
vm_boot() {
	local kdir=$1 initrd=$2 mode=$3 console=$4 results=$5 img letters disks
	local -a drives
	shift 5
	letters=abcdefgh
	disks=""
	drives=()
	for img in "$@"; do
		disks=$disks${disks:+,}vd${letters:${#drives[@]}/2:1}
		drives+=(-drive "file=$img,format=raw,if=virtio")
	done
	rm -f "$results"
	# shellcheck disable=SC2086 # ARM64_QEMU_EXTRA: options
	timeout --kill-after=10 "$VM_TIMEOUT" \
		qemu-system-aarch64 -machine virt -cpu max -accel tcg ${ARM64_QEMU_EXTRA:-} -m 512M -smp 1 \
		-display none -no-reboot -monitor none \
		-serial stdio \
		-device virtio-serial-pci \
		-chardev "file,id=results,path=$results" \
		-device virtconsole,chardev=results \
		-kernel "$(vm_kernel_image "$kdir")" -initrd "$initrd" \
		-append "console=ttyAMA0 panic=-1 loglevel=4 ext4dist_mode=$mode ext4dist_disks=$disks${ARM64_APPEND_EXTRA:+ $ARM64_APPEND_EXTRA}" \
		"${drives[@]}" < /dev/null > "$console" 2>&1
}

# vm_fetch_vanilla SERIES: the prebuilt vanilla kernels are x86_64 images:
# none for arm64.
vm_fetch_vanilla() {
	vm_log "no arm64 kernel for series $1: the prebuilt vanilla kernels are x86_64 images"
	return 1
}
