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

VM_CACHE=$VM_CACHE/arm64
VM_BUILD=${EXT4DIST_ARM64_BUILD:-$VM_TOP/build/vm-arm64}
VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-480}
ARM64_CC=${EXT4DIST_ARM64_CC:-aarch64-linux-gnu-gcc}
ARM64_BIN=${EXT4DIST_ARM64_BIN:-$VM_TOP/build-arm64/ext4dist}
ARM64_TEST_BIN=${EXT4DIST_ARM64_TEST_BIN:-$VM_TOP/build-arm64/ext4dist-test}
# virtio_console carries the results port (/dev/hvc0).
VM_EARLY_MODULES="virtio_pci virtio_blk virtio_console"
# Debian's arm64 packages (vm_series_regex, the private apt lists).
VM_APT_ARCH=arm64
# The series run.sh boots by default: Debian's 6.1 (bookworm) and 5.10
# (bullseye); only Debian packages: the vanilla kernels are x86_64 images.
# shellcheck disable=SC2034 # read by run.sh
VM_DEFAULT_SERIES="6.1 5.10"

# arm64_is_aarch64 FILE: an AArch64 ELF executable.
arm64_is_aarch64() {
	readelf -h "$1" 2>/dev/null | grep -q 'Machine:.*AArch64'
}

# vm_build_tools: the x86 harness's guest helper programs (workload,
# runas when present), static, for arm64.
vm_build_tools() {
	local src out
	mkdir -p "$VM_BUILD"
	for src in "$VM_DIR/workload.c" "$VM_DIR/runas.c"; do
		[ -e "$src" ] || continue
		out=$VM_BUILD/$(basename "$src" .c)
		if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
			"$ARM64_CC" -static -pthread -O2 -Wall -Wextra -o "$out" "$src" ||
				return 1
		fi
	done
}

# vm_build_initramfs KDIR OUT BUSYBOX: initramfs for KDIR with the arm64
# BUSYBOX (its applet links are made by /init at boot: the arm64 binary
# cannot list them on this host), the x86 guest helpers and scenarios, and
# the arm64 /init and scenario runner.
vm_build_initramfs() {
	local kdir=$1 out=$2 busybox=$3 stage
	stage=$VM_BUILD/initramfs-$(vm_kernel_version "$kdir")
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,guest,lib/modules}
	if ! arm64_is_aarch64 "$busybox" || ! vm_is_static "$busybox"; then
		vm_log "$busybox is not a static arm64 executable"
		return 1
	fi
	cp "$busybox" "$stage/bin/busybox"
	if [ ! -f "$ARM64_BIN" ]; then
		vm_log "$ARM64_BIN does not exist (make ARCH=arm64)"
		return 1
	fi
	if ! arm64_is_aarch64 "$ARM64_BIN" || ! vm_is_static "$ARM64_BIN"; then
		vm_log "$ARM64_BIN is not a static arm64 executable"
		return 1
	fi
	cp "$ARM64_BIN" "$stage/bin/ext4dist"
	# ext4slower: the same binary under the name make install links.
	ln -s ext4dist "$stage/bin/ext4slower"
	# The scenarios that need fixture paths run the test build (make
	# ARCH=arm64 builds both).
	[ ! -f "$ARM64_TEST_BIN" ] || cp "$ARM64_TEST_BIN" "$stage/bin/ext4dist-test"
	cp "$VM_BUILD/workload" "$stage/bin/workload"
	[ ! -e "$VM_BUILD/runas" ] || cp "$VM_BUILD/runas" "$stage/bin/runas"
	chmod 755 "$stage"/bin/*

	# The x86 harness's guest scripts, unchanged, then the arm64 ones.
	cp "$VM_DIR"/guest/*.sh "$stage/guest/"
	cp "$ARM64_DIR/guest/init" "$stage/init"
	cp "$ARM64_DIR"/guest/arm64-*.sh "$stage/guest/"
	echo "${EXT4DIST_ARM64_SCENARIOS:-}" > "$stage/guest/arm64-scenarios.list"
	chmod 755 "$stage/init" "$stage"/guest/*.sh

	# shellcheck disable=SC2086 # lists of module names
	vm_copy_modules "$kdir" "$stage/lib/modules" early.list $VM_EARLY_MODULES &&
	vm_copy_modules "$kdir" "$stage/lib/modules" ext4.list $VM_EXT4_MODULES ||
		return 1
	vm_copy_boot "$kdir" "$stage" || return 1
	# Debian's arm64 kernel has no CONFIG_KALLSYMS_ALL: the generic read
	# path finds ext4_file_operations in the module file, at its usual
	# place (a hard link: stored once in the cpio).
	mkdir -p "$stage/lib/modules/$(vm_kernel_version "$kdir")/kernel/fs/ext4"
	ln "$stage/lib/modules/ext4.ko" \
		"$stage/lib/modules/$(vm_kernel_version "$kdir")/kernel/fs/ext4/ext4.ko"

	(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out"
}

# vm_boot KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG IMAGE...: as in
# tests/vm/lib.sh, on qemu-system-aarch64 -machine virt (TCG, -cpu max).
# The console is the PL011 (ttyAMA0); the results port a virtio console.
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
	timeout --kill-after=10 "$VM_TIMEOUT" \
		qemu-system-aarch64 -machine virt -cpu max -accel tcg -m 512M -smp 1 \
		-display none -no-reboot -monitor none \
		-serial stdio \
		-device virtio-serial-pci \
		-chardev "file,id=results,path=$results" \
		-device virtconsole,chardev=results \
		-kernel "$(vm_kernel_image "$kdir")" -initrd "$initrd" \
		-append "console=ttyAMA0 panic=-1 loglevel=4 ext4dist_mode=$mode ext4dist_disks=$disks" \
		"${drives[@]}" < /dev/null > "$console" 2>&1
}

# vm_fetch_vanilla SERIES: the prebuilt vanilla kernels are x86_64 images:
# none for arm64.
vm_fetch_vanilla() {
	vm_log "no arm64 kernel for series $1: the prebuilt vanilla kernels are x86_64 images"
	return 1
}
