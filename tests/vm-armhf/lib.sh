# shellcheck shell=bash
# Host side of the armhf VM tests (sourced by run.sh; bash).
#
# One static 32-bit ARM ext4dist (make ARCH=arm), a 32-bit ARM user space
# (busybox-static:armhf, the workload cross-compiled), booted on:
#   6.1        Debian bookworm's linux-image-6.1.0-N-armmp, qemu-system-arm
#              -M virt -cpu cortex-a15 (32-bit kernel, no BTF, no
#              CONFIG_KALLSYMS_ALL, ext4 a module)
#   5.10       Debian bullseye's linux-image-5.10.0-N-armmp, the same way
#   arm64-6.1  Debian bookworm's arm64 kernel under qemu-system-aarch64
#              -M virt -cpu cortex-a72: a 32-bit user space on a 64-bit
#              kernel, as Raspberry Pi OS's 32-bit images run
# each with the eBPF JIT on ("-jit") or off ("-nojit"), e.g. 6.1-jit.
# Every package comes through private apt lists in the cache (tools/apt.sh:
# the machine's dpkg and /etc/apt are never touched), the armhf build's
# libraries from the sysroot of tools/sysroot.sh.
#
# Reuses tests/vm/lib.sh (module order, module copies, results) and
# replaces what differs.  qemu's "virt" disks and results port are
# virtio-mmio devices here, which the kernel enumerates in reverse order
# of the command line: the images go in reversed and carry labels the
# guest checks.
#
# Environment (besides tests/vm/lib.sh's EXT4DIST_VM_CACHE/_TIMEOUT):
#   EXT4DIST_ARMHF_BIN        binary to test (default <top>/build-arm/ext4dist)
#   EXT4DIST_ARMHF_TEST_BIN   its test build (default <top>/build-arm/ext4dist-test)
#   EXT4DIST_ARMHF_BUILD      build products (default <top>/build/vm-armhf)
#   EXT4DIST_ARMHF_SCENARIOS  scenario functions to run (default: all of
#                             tests/vm/guest/scenarios.sh plus the armhf ones)
#   EXT4DIST_ARMHF_MEM        guest memory (default 128M: an appliance's)
#   EXT4DIST_ARMHF_CC         cross compiler (default arm-linux-gnueabihf-gcc)

ARMHF_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../vm/lib.sh
. "$ARMHF_DIR/../vm/lib.sh"
# shellcheck source=SCRIPTDIR/../vm/foreign.sh
. "$ARMHF_DIR/../vm/foreign.sh"

ARMHF_CACHE_ROOT=$VM_CACHE
VM_CACHE=$ARMHF_CACHE_ROOT/armhf
VM_BUILD=${EXT4DIST_ARMHF_BUILD:-$VM_TOP/build/vm-armhf}
VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-2400}
ARMHF_CC=${EXT4DIST_ARMHF_CC:-arm-linux-gnueabihf-gcc}
ARMHF_BIN=${EXT4DIST_ARMHF_BIN:-$VM_TOP/build-arm/ext4dist}
ARMHF_TEST_BIN=${EXT4DIST_ARMHF_TEST_BIN:-$VM_TOP/build-arm/ext4dist-test}
# tests/vm/foreign.sh's facts.
FOREIGN_CC=$ARMHF_CC
FOREIGN_TOOLS=$VM_BUILD
FOREIGN_IS=armhf_is_arm32
FOREIGN_ARCH=arm
FOREIGN_BIN=$ARMHF_BIN
FOREIGN_TEST_BIN=$ARMHF_TEST_BIN
# virtio_mmio carries the disks and the results port (virtio_console).
VM_EARLY_MODULES="virtio_mmio virtio_blk virtio_console"

# armhf_kernel_arch KERNEL_SPEC: the Debian architecture of its kernel.
armhf_kernel_arch() {
	case $1 in
	arm64-*) echo arm64 ;;
	*) echo armhf ;;
	esac
}

# armhf_series KERNEL_SPEC: 6.1-jit -> 6.1, arm64-6.1-nojit -> 6.1.
armhf_series() {
	local s=${1#arm64-}
	echo "${s%-*}"
}

# armhf_jit KERNEL_SPEC: 1 for -jit, 0 for -nojit.
armhf_jit() {
	case $1 in
	*-nojit) echo 0 ;;
	*) echo 1 ;;
	esac
}

# armhf_package_regex ARCH SERIES: the plain kernel package of a series.
armhf_package_regex() {
	local esc=${2//./\\.}
	if [ "$1" = arm64 ]; then
		echo "^linux-image-$esc\\.[0-9]+-[0-9]+-arm64-unsigned\$"
	else
		echo "^linux-image-$esc\\.[0-9]+-[0-9]+-armmp\$"
	fi
}

# armhf_fetch_kernel KERNEL_SPEC: prints the cache directory of the
# extracted kernel package (root/boot, root/lib/modules/<ver> with
# modules.dep), downloading it when not cached; else the newest cached
# one of the series.  arm64 kernels share tests/vm-arm64's cache.
armhf_fetch_kernel() {
	local arch series suite re pkg="" ver dir cache tmp kver apt_dir
	arch=$(armhf_kernel_arch "$1")
	series=$(armhf_series "$1")
	cache=$VM_CACHE
	[ "$arch" = armhf ] || cache=$ARMHF_CACHE_ROOT/$arch
	suite=$(apt_host_suite)
	[ "$series" != 5.10 ] || suite=bullseye
	re=$(armhf_package_regex "$arch" "$series")
	mkdir -p "$cache"
	if apt_dir=$(apt_private_ready "$suite" "$arch"); then
		pkg=$(apt_private "$apt_dir" "$arch" apt-cache pkgnames linux-image- 2>/dev/null |
			grep -E "$re" | sort -V | tail -n 1)
	else
		vm_log "no usable private $suite $arch lists: a cached kernel serves, if any"
	fi
	if [ -n "$pkg" ]; then
		ver=$(apt_private "$apt_dir" "$arch" apt-cache show --no-all-versions "$pkg" 2>/dev/null |
			sed -n 's/^Version: //p' | head -n 1)
		dir=$cache/${pkg}_$ver
		if [ -n "$ver" ] && [ ! -e "$dir/.complete" ]; then
			vm_log "fetching $pkg $ver into $cache"
			tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
			if (cd "$tmp" && apt_private "$apt_dir" "$arch" apt-get download -q "$pkg=$ver" >&2) &&
			   dpkg-deb -x "$tmp"/*.deb "$tmp/root" &&
			   kver=$(ls "$tmp/root/lib/modules") &&
			   depmod -b "$tmp/root" "$kver"; then
				rm -f "$tmp"/*.deb
				touch "$tmp/.complete"
				rm -rf "$dir"
				mv "$tmp" "$dir"
			else
				rm -rf "$tmp"
				vm_log "download or extraction of $pkg $ver failed"
			fi
		fi
	fi
	for dir in $(ls -d "$cache"/linux-image-*/.complete 2>/dev/null | sort -V -r); do
		dir=$(dirname "$dir")
		basename "$dir" | sed 's/_.*//' | grep -qE "$re" || continue
		echo "$dir"
		return 0
	done
	return 1
}

# armhf_is_arm32 FILE: a static 32-bit ARM EABI5 hard-float executable.
armhf_is_arm32() {
	readelf -h "$1" 2>/dev/null | grep -q 'Machine:.*ARM$' &&
		readelf -h "$1" | grep -q 'Class:.*ELF32' &&
		readelf -h "$1" | grep -q 'Flags:.*Version5 EABI, hard-float' &&
		vm_is_static "$1"
}

# vm_build_initramfs KDIR OUT BUSYBOX: the user space of foreign_stage
# for any of the kernels, make bench's tools when bench.sh built them, and
# the offset of f_op the guest checks.
vm_build_initramfs() {
	local kdir=$1 out=$2 busybox=$3 stage tool
	stage=$VM_BUILD/initramfs-$(vm_kernel_version "$kdir")
	foreign_stage "$kdir" "$stage" "$busybox" "$ARMHF_DIR" armhf \
		"${EXT4DIST_ARMHF_SCENARIOS:-}" || return 1
	mkdir -p "$stage/boot"
	# Debian's strace:armhf for the scenario that holds -v against it
	# (without it that scenario fails, naming it).
	vm_foreign_strace "$stage" armhf arm-linux-gnueabihf || true
	for tool in floor8 bench_probe; do
		[ ! -e "$VM_BUILD/$tool" ] ||
			install -m 755 "$VM_BUILD/$tool" "$stage/bin/$tool"
	done
	vm_fops_offset "$kdir" > "$stage/guest/fops-offset"
	vm_pack_initramfs "$stage" "$out"
}

# vm_boot KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG KERNEL_SPEC IMAGE...:
# qemu-system-arm (armmp) or qemu-system-aarch64 (arm64), TCG, one CPU.
# The disks are virtio-mmio, given in reverse so that the first IMAGE
# becomes vda.
vm_boot() {
	local kdir=$1 initrd=$2 mode=$3 console=$4 results=$5 spec=$6 img i n
	local letters=abcdefgh disks="" jit
	local -a qemu drives=() rev=()
	shift 6
	jit=$(armhf_jit "$spec")
	for img in "$@"; do rev=("$img" "${rev[@]}"); done
	n=$#
	for ((i = 0; i < n; i++)); do
		disks=$disks${disks:+,}vd${letters:i:1}
		drives+=(-drive "if=none,id=d$i,file=${rev[i]},format=raw"
			 -device "virtio-blk-device,drive=d$i")
	done
	if [ "$(armhf_kernel_arch "$spec")" = arm64 ]; then
		qemu=(qemu-system-aarch64 -machine virt -cpu cortex-a72)
	else
		qemu=(qemu-system-arm -machine virt -cpu cortex-a15)
	fi
	rm -f "$results"
	# shellcheck disable=SC2086 # ARMHF_QEMU_EXTRA: options (bench: -icount)
	timeout --kill-after=10 "$VM_TIMEOUT" \
		"${qemu[@]}" -accel tcg ${ARMHF_QEMU_EXTRA:-} -m "${EXT4DIST_ARMHF_MEM:-128M}" -smp 1 \
		-display none -no-reboot -monitor none \
		-serial stdio \
		-device virtio-serial-device \
		-chardev "file,id=results,path=$results" \
		-device virtconsole,chardev=results \
		-kernel "$(vm_kernel_image "$kdir")" -initrd "$initrd" \
		-append "console=ttyAMA0 panic=-1 loglevel=4 ext4dist_mode=$mode ext4dist_disks=$disks ext4dist_jit=$jit ext4dist_spec=$spec${ARMHF_APPEND_EXTRA:+ $ARMHF_APPEND_EXTRA}" \
		"${drives[@]}" < /dev/null > "$console" 2>&1
}
