# shellcheck shell=bash
# Host side of the VM tests of the architectures beyond x86 and ARM
# (sourced by run.sh; bash): one static ext4dist cross-built for each
# (make ARCH=mipsel, s390x, riscv64), that architecture's busybox-static
# as user space, booted on Debian's kernel of it under its own qemu:
#   mipsel-6.1   bookworm's linux-image-6.1.0-N-4kc-malta,
#                qemu-system-mipsel -M malta -cpu 34Kf: 32-bit, little
#                endian, no BTF, no CONFIG_KALLSYMS_ALL
#   s390x-6.1    bookworm's linux-image-6.1.0-N-s390x, qemu-system-s390x
#                -M s390-ccw-virtio: 64-bit, big endian, no BPF JIT
#   riscv64-6.12 trixie's linux-image-6.12.N+deb13-riscv64,
#                qemu-system-riscv64 -M virt -bios default: BTF, no
#                kprobe on a function's first instruction
# mipsel and riscv64 with the eBPF JIT on ("-jit") or off ("-nojit").
# Every package comes through private apt lists in the cache (tools/apt.sh),
# the build's libraries from the sysroot of tools/sysroot.sh.
#
# Reuses tests/vm/lib.sh (kernel download and cache, module order and
# copies, images, results) and replaces what differs: the kernel
# packages' names and suite, the cache, busybox, the cross-compiled
# helpers, the initramfs and qemu.  The results port is a virtio console
# (hvc0) on all three; the disks carry labels the guest checks (s390x's
# virtio-ccw may probe them in any order).
#
# Environment (besides tests/vm/lib.sh's EXT4DIST_VM_CACHE/_TIMEOUT):
#   EXT4DIST_CROSS_BUILD      build products (default <top>/build/vm-cross)
#   EXT4DIST_CROSS_SCENARIOS  scenario functions to run (default: the
#                             sequence of guest/cross-scenarios.sh)
#   EXT4DIST_CROSS_MEM        guest memory (default: 128M on mipsel, 256M
#                             elsewhere)
#   EXT4DIST_<ARCH>_BIN, EXT4DIST_<ARCH>_TEST_BIN  the binaries (default
#                             <top>/build-<arch>/ext4dist, ext4dist-test)

CROSS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=SCRIPTDIR/../vm/lib.sh
. "$CROSS_DIR/../vm/lib.sh"
# shellcheck source=SCRIPTDIR/../vm/foreign.sh
. "$CROSS_DIR/../vm/foreign.sh"

CROSS_CACHE_ROOT=$VM_CACHE
VM_BUILD=${EXT4DIST_CROSS_BUILD:-$VM_TOP/build/vm-cross}
VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-1800}
# The kernel specs run.sh knows, and those make check boots.
CROSS_SPECS="mipsel-6.1-jit mipsel-6.1-nojit s390x-6.1 riscv64-6.12-jit riscv64-6.12-nojit"

# cross_arch SPEC: mipsel-6.1-jit -> mipsel.
cross_arch() { echo "${1%%-*}"; }

# cross_series SPEC: mipsel-6.1-jit -> 6.1.
cross_series() {
	local s=${1#*-}
	echo "${s%%-*}"
}

# cross_jit SPEC: 1 for -jit, 0 for -nojit, "" where the kernel has no
# JIT (s390x 6.1).
cross_jit() {
	case $1 in
	*-nojit) echo 0 ;;
	*-jit) echo 1 ;;
	esac
}

# cross_setup ARCH: the facts of ARCH for the functions below.
cross_setup() {
	CROSS_ARCH=$1
	VM_APT_ARCH=$1
	VM_CACHE=$CROSS_CACHE_ROOT/$1
	CROSS_SUITE=$(apt_host_suite)
	CROSS_MEM=${EXT4DIST_CROSS_MEM:-256M}
	case $1 in
	mipsel)
		CROSS_FLAVOR=4kc-malta
		CROSS_CC=mipsel-linux-gnu-gcc
		CROSS_QEMU=qemu-system-mipsel
		CROSS_PACKAGE=qemu-system-mips
		CROSS_MEM=${EXT4DIST_CROSS_MEM:-128M}
		# The results port (virtio console) is a PCI device.
		VM_EARLY_MODULES="virtio_pci virtio_blk virtio_console"
		;;
	s390x)
		CROSS_FLAVOR=s390x
		CROSS_CC=s390x-linux-gnu-gcc
		CROSS_QEMU=qemu-system-s390x
		CROSS_PACKAGE=qemu-system-misc
		# virtio-ccw is built in.
		VM_EARLY_MODULES="virtio_blk virtio_console"
		;;
	riscv64)
		CROSS_FLAVOR=riscv64
		CROSS_CC=riscv64-linux-gnu-gcc
		CROSS_QEMU=qemu-system-riscv64
		CROSS_PACKAGE=qemu-system-misc
		# Not in bookworm's archive: trixie's kernel and busybox.
		CROSS_SUITE=trixie
		# virtio-pci and the console are built in.
		VM_EARLY_MODULES="virtio_blk"
		;;
	*)
		vm_log "unknown architecture $1 (mipsel, s390x, riscv64)"
		return 1 ;;
	esac
	CROSS_BIN_VAR=EXT4DIST_$(echo "$1" | tr '[:lower:]' '[:upper:]')_BIN
	CROSS_BIN=${!CROSS_BIN_VAR:-$VM_TOP/build-$1/ext4dist}
	CROSS_TEST_BIN_VAR=EXT4DIST_$(echo "$1" | tr '[:lower:]' '[:upper:]')_TEST_BIN
	CROSS_TEST_BIN=${!CROSS_TEST_BIN_VAR:-$VM_TOP/build-$1/ext4dist-test}
	# tests/vm/foreign.sh's facts.
	FOREIGN_CC=$CROSS_CC
	FOREIGN_TOOLS=$VM_BUILD/$1
	FOREIGN_IS=cross_machine_is
	FOREIGN_ARCH=$1
	FOREIGN_BIN=$CROSS_BIN
	FOREIGN_TEST_BIN=$CROSS_TEST_BIN
}

# The plain kernel of a series for CROSS_FLAVOR (no -dbg, no metapackage).
vm_series_regex() {
	local esc=${1//./\\.}
	echo "^linux-image-$esc\\.[0-9]+(-[0-9]+|\\+deb[0-9]+)-$CROSS_FLAVOR\$"
}

# Every kernel comes through the private lists of CROSS_SUITE.
vm_apt_suite() {
	case $1 in
	apt) echo "$CROSS_SUITE" ;;
	*) echo "$1" ;;
	esac
}

# cross_machine_is FILE: a static executable of CROSS_ARCH (readelf's
# class, byte order and machine).
cross_machine_is() {
	local h class data machine
	case $CROSS_ARCH in
	mipsel) class=ELF32 data="little endian" machine="MIPS R3000" ;;
	s390x) class=ELF64 data="big endian" machine="IBM S/390" ;;
	riscv64) class=ELF64 data="little endian" machine="RISC-V" ;;
	esac
	h=$(readelf -h "$1" 2>/dev/null) || return 1
	grep -q "Class: *$class" <<< "$h" && grep -q "Data:.*$data" <<< "$h" &&
		grep -q "Machine: *$machine" <<< "$h" && vm_is_static "$1"
}

# vm_build_initramfs KDIR OUT BUSYBOX: the user space of foreign_stage
# for CROSS_ARCH, kcall_compare.awk, /boot (vm_copy_boot) and the offset
# of f_op the guest checks.
vm_build_initramfs() {
	local kdir=$1 out=$2 busybox=$3 stage
	stage=$VM_BUILD/$CROSS_ARCH/initramfs-$(vm_kernel_version "$kdir")
	foreign_stage "$kdir" "$stage" "$busybox" "$CROSS_DIR" cross \
		"${EXT4DIST_CROSS_SCENARIOS:-}" || return 1
	cp "$VM_TOP/tests/lib/kcall_compare.awk" "$stage/guest/"
	vm_copy_boot "$kdir" "$stage" || return 1
	vm_fops_offset "$kdir" > "$stage/guest/fops-offset"
	vm_pack_initramfs "$stage" "$out"
}

# vm_boot KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG SPEC IMAGE...: one
# guest of CROSS_ARCH, TCG, one CPU (malta's clock runs unevenly with
# two).  The first IMAGE is meant to be vda; the guest checks the labels.
vm_boot() {
	local kdir=$1 initrd=$2 mode=$3 console=$4 results=$5 spec=$6 i=0 img
	local letters=abcdefgh disks="" jit blk serial append
	local -a qemu drives=()
	shift 6
	jit=$(cross_jit "$spec")
	case $CROSS_ARCH in
	mipsel)
		qemu=(qemu-system-mipsel -M malta -cpu 34Kf -vga none)
		blk=virtio-blk-pci serial=virtio-serial-pci append="console=ttyS0" ;;
	s390x)
		qemu=(qemu-system-s390x -M s390-ccw-virtio)
		blk=virtio-blk-ccw serial=virtio-serial-ccw append="console=ttysclp0" ;;
	riscv64)
		qemu=(qemu-system-riscv64 -M virt -bios default)
		blk=virtio-blk-pci serial=virtio-serial-pci append="console=ttyS0" ;;
	esac
	for img in "$@"; do
		disks=$disks${disks:+,}vd${letters:i:1}
		drives+=(-drive "if=none,id=d$i,file=$img,format=raw")
		# Malta routes the interrupts of four PCI slots only (18 to
		# 21; beyond them a disk's probe fails with EINVAL): the
		# disks are the functions of slot 18 (no VGA card there),
		# the results port in slot 19.
		if [ "$CROSS_ARCH" = mipsel ]; then
			drives+=(-device "$blk,drive=d$i,addr=0x12.$i$([ "$i" != 0 ] || echo ,multifunction=on)")
		else
			drives+=(-device "$blk,drive=d$i")
		fi
		i=$((i + 1))
	done
	[ "$CROSS_ARCH" != mipsel ] || serial=$serial,addr=0x13
	rm -f "$results"
	# shellcheck disable=SC2086 # CROSS_QEMU_EXTRA: options (bench: -icount)
	timeout --kill-after=10 "$VM_TIMEOUT" \
		"${qemu[@]}" -accel tcg ${CROSS_QEMU_EXTRA:-} -m "$CROSS_MEM" -smp 1 \
		-display none -no-reboot -monitor none \
		-serial stdio \
		-device "$serial" \
		-chardev "file,id=results,path=$results" \
		-device virtconsole,chardev=results \
		-kernel "$(vm_kernel_image "$kdir")" -initrd "$initrd" \
		-append "$append panic=-1 loglevel=4 ext4dist_mode=$mode ext4dist_disks=$disks ext4dist_jit=$jit ext4dist_spec=$spec${EXT4DIST_VM_ONLY:+ ext4dist_only=$EXT4DIST_VM_ONLY}${CROSS_APPEND_EXTRA:+ $CROSS_APPEND_EXTRA}" \
		"${drives[@]}" < /dev/null > "$console" 2>&1
}
