#!/usr/bin/env bash
# Installs the Debian 12 packages ext4dist's build, tests and demo need,
# when they are missing (as root, with apt-get).  Quiet when all are there.
set -euo pipefail

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
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
# The arm64 suite (tests/vm-arm64) needs a foreign architecture: only a
# warning when it cannot be had, and that suite then skips loudly.
arm64_packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
	libelf-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64 libzstd-dev:arm64)
arm64_missing=()
for p in "${arm64_packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		arm64_missing+=("$p")
done
if [ ${#arm64_missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
	echo "deps: installing for the arm64 suite: ${arm64_missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	apt-get update -qq || true
	apt-get install -y -qq --no-install-recommends "${arm64_missing[@]}" > /dev/null ||
		echo "deps: WARNING: arm64 packages not installed: the arm64 VM tests will be skipped" >&2
fi

# The armhf build and suite (make ARCH=arm, tests/vm-armhf) likewise:
# a cross compiler and armhf libraries through the armhf foreign
# architecture.  Said loudly when they cannot be had.
armhf_packages=(gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-system-arm
	libelf-dev:armhf zlib1g-dev:armhf liblzma-dev:armhf libzstd-dev:armhf)
armhf_missing=()
for p in "${armhf_packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		armhf_missing+=("$p")
done
if [ ${#armhf_missing[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
		echo "deps: installing for the armhf build and suite: ${armhf_missing[*]}" >&2
		export DEBIAN_FRONTEND=noninteractive
		dpkg --print-foreign-architectures | grep -qx armhf || dpkg --add-architecture armhf
		apt-get update -qq || true
		apt-get install -y -qq --no-install-recommends "${armhf_missing[@]}" > /dev/null ||
			echo "deps: WARNING: armhf packages not installed: make ARCH=arm fails and the armhf VM tests are skipped" >&2
	else
		echo "deps: WARNING: missing for make ARCH=arm and the armhf VM tests: ${armhf_missing[*]} (as root: dpkg --add-architecture armhf; apt-get update; apt-get install them)" >&2
	fi
fi

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: install them as root: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
