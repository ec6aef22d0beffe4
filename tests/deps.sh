#!/usr/bin/env bash
# make deps: what ext4dist's build, tests and demo need on a Debian 12
# x86_64 machine.  Quiet when all is there.
#
#   tests/deps.sh            install what is missing (as root, apt-get)
#   tests/deps.sh --update   the same after an apt-get update (.ci/run)
#
# 1. The main job's packages (the build, make check's host suites and the
#    x86_64 VM tests, make demo), amd64 packages of the machine's apt:
#    missing ones are fatal.
# 2. The arm suites' tools, amd64 packages too (cross compilers, their C
#    libraries, qemu-system-arm): optional, a warning when they cannot be
#    installed; those suites then skip.
#    And the same for mipsel, s390x and riscv64: their cross compilers,
#    qemu-user (make check's unit-cross) and their qemu-system packages
#    (tests/vm-cross).
# 3. The arm64, armhf, mipsel, s390x and riscv64 sysroots
#    (tools/sysroot.sh): libelf, zlib, liblzma and libzstd of those
#    architectures, downloaded and unpacked into the cache through private
#    apt lists, as any user.  Optional too.
# Nothing here adds a dpkg architecture or edits /etc/apt.  A failed
# apt-get update is retried, then tolerated when the packages to install
# still resolve (tools/apt.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=../tools/apt.sh
. tools/apt.sh

update=0
[ "${1:-}" != --update ] || update=1

packages=(
	make gcc libc6-dev pkg-config        # user space build
	clang llvm                           # the BPF object (build time only)
	libelf-dev zlib1g-dev linux-libc-dev # libelf (static), UAPI headers
	liblzma-dev libzstd-dev              # .ko.xz / .ko.zst module files
	valgrind util-linux                  # valgrind runs, setpriv
	libclang-rt-14-dev                   # libFuzzer and sanitizer runtimes
	cppcheck clang-tidy                  # make lint
	qemu-system-x86 busybox-static cpio  # the VM tests and demo
	e2fsprogs kmod xz-utils zstd gzip
	xfsprogs btrfs-progs f2fs-tools      # the family's images (tests/vm/guest/family.sh)
	strace                               # -v checked against strace (tests/host/test_kcalls.sh, the VM)
	chromium                             # the heatmaps rendered (tests/host/test_heatmap_render.sh)
	git tar                              # make dist, make release
)
arm_packages=(
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross     # make ARCH=arm64
	gcc-arm-linux-gnueabihf libc6-dev-armhf-cross   # make ARCH=arm
	qemu-system-arm                      # qemu-system-aarch64 and -arm
	gcc-mipsel-linux-gnu libc6-dev-mipsel-cross     # make ARCH=mipsel
	gcc-s390x-linux-gnu libc6-dev-s390x-cross       # make ARCH=s390x
	gcc-riscv64-linux-gnu libc6-dev-riscv64-cross   # make ARCH=riscv64
	qemu-user                            # unit-cross: qemu-s390x, qemu-mipsel
	qemu-system-mips qemu-system-misc    # tests/vm-cross: malta, s390x, riscv64
)

# missing NAME...: those not installed.
missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			echo "$p"
	done
}

mapfile -t main_missing < <(missing "${packages[@]}")
mapfile -t arm_missing < <(missing "${arm_packages[@]}")

if [ $((${#main_missing[@]} + ${#arm_missing[@]} + update)) -gt 0 ]; then
	if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null; then
		if [ ${#main_missing[@]} -gt 0 ]; then
			echo "deps: missing packages: ${main_missing[*]}" >&2
			echo "deps: install them as root: apt-get install ${main_missing[*]}" >&2
			exit 1
		fi
		[ ${#arm_missing[@]} -eq 0 ] ||
			echo "deps: WARNING: missing for the arm64, armhf, mipsel, s390x and riscv64 builds and suites: ${arm_missing[*]} (as root: apt-get install them)" >&2
	else
		export DEBIAN_FRONTEND=noninteractive
		if ! apt_update_retry apt-get update -qq; then
			apt_tolerate "the machine's apt lists" apt-cache -- \
				"${main_missing[@]}" "${arm_missing[@]}" ||
				echo "deps: going on: apt-get install says which cannot be had" >&2
		fi
		if [ ${#main_missing[@]} -gt 0 ]; then
			echo "deps: installing ${main_missing[*]}" >&2
			if ! apt-get install -y -qq --no-install-recommends "${main_missing[@]}" > /dev/null; then
				echo "deps: apt-get install ${main_missing[*]} failed: the build and make check need them" >&2
				exit 1
			fi
		fi
		if [ ${#arm_missing[@]} -gt 0 ]; then
			echo "deps: installing for the arm64, armhf, mipsel, s390x and riscv64 builds and suites: ${arm_missing[*]}" >&2
			apt-get install -y -qq --no-install-recommends "${arm_missing[@]}" > /dev/null ||
				echo "deps: WARNING: ${arm_missing[*]} not installed: the cross builds that need them fail and their suites are skipped" >&2
		fi
	fi
fi

# The sysroots, when their compiler is there (quiet when fetched already).
for arch in arm64 armhf mipsel s390x riscv64; do
	case $arch in
	arm64) cc=aarch64-linux-gnu-gcc ;;
	armhf) cc=arm-linux-gnueabihf-gcc ;;
	*) cc=$arch-linux-gnu-gcc ;;
	esac
	command -v "$cc" > /dev/null || continue
	[ ! -e "$(tools/sysroot.sh --path "$arch")/.packages" ] || continue
	tools/sysroot.sh "$arch" > /dev/null ||
		echo "deps: WARNING: no $arch sysroot (see above): the $arch build and VM suite will be skipped" >&2
done
exit 0
