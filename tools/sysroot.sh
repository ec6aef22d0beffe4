#!/usr/bin/env bash
# The libraries of a cross build, for `make ARCH=arm64`, `make ARCH=arm`,
# `make ARCH=mipsel`, `make ARCH=s390x` and `make ARCH=riscv64` on a
# Debian x86_64 machine, without touching its dpkg or /etc/apt.
#
#   tools/sysroot.sh ARCH...            fetch when missing; print each directory
#   tools/sysroot.sh --refresh ARCH...  fetch the archive's current versions again
#   tools/sysroot.sh --path ARCH...     print the directories, fetch nothing
#
# ARCH is a Debian architecture, arm64, armhf, mipsel, s390x or riscv64
# (make's ARCH=arm is armhf).
# The sysroot is <cache>/sysroot-ARCH (tools/apt.sh: /var/cache/ext4dist-vm,
# or ~/.cache/ext4dist-vm): usr/include and usr/lib/<triplet> of
# libelf-dev, zlib1g-dev, liblzma-dev and libzstd-dev for ARCH, taken from
# Debian's archive of this machine's suite (riscv64: sid's, see
# sysroot_suite) through a private apt
# configuration (apt-get download, then dpkg-deb -x: nothing is installed,
# and their versions need not match the machine's amd64 ones).  The static
# libraries and headers are all a static build takes from it; the C
# library comes with the cross compiler (libc6-dev-ARCH-cross).  A
# sysroot is fetched once and kept, so that builds (and release tarballs)
# stay the same until --refresh; .packages in it names what it holds.
# Exit status 1 when one cannot be had, with the reason on stderr.
set -u
TOOLS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=apt.sh
. "$TOOLS_DIR/apt.sh"

SYSROOT_PACKAGES="libelf-dev zlib1g-dev liblzma-dev libzstd-dev"

# sysroot_triplet ARCH: the GNU triplet of Debian's ARCH.
sysroot_triplet() {
	case $1 in
	arm64) echo aarch64-linux-gnu ;;
	armhf) echo arm-linux-gnueabihf ;;
	amd64) echo x86_64-linux-gnu ;;
	mipsel) echo mipsel-linux-gnu ;;
	s390x) echo s390x-linux-gnu ;;
	riscv64) echo riscv64-linux-gnu ;;
	*) return 1 ;;
	esac
}

# sysroot_suite ARCH: the Debian suite whose packages of ARCH fill it:
# this machine's; for riscv64, not in bookworm's archive, sid's: trixie's
# libelf.a (elfutils 0.192) calls eu_search_tree_init and _fini, which
# its archive lacks, so no static program links with it.  sid's libelf
# is built against a newer C library than bookworm's cross one, for one
# function (src/compat/glibc_c23.c).
sysroot_suite() {
	case $1 in
	riscv64) echo sid ;;
	*) apt_host_suite ;;
	esac
}

# sysroot_fetch ARCH DIR: downloads and unpacks SYSROOT_PACKAGES of ARCH
# into DIR (replaced only when all went well).
sysroot_fetch() {
	local arch=$1 dir=$2 triplet apt_dir tmp pkg ver deb
	local -a want=()
	triplet=$(sysroot_triplet "$arch")
	# shellcheck disable=SC2086 # a list of package names
	apt_dir=$(apt_private_ready "$(sysroot_suite "$arch")" "$arch" $SYSROOT_PACKAGES) || {
		echo "sysroot: no usable $arch package lists (see above)" >&2
		return 1
	}
	for pkg in $SYSROOT_PACKAGES; do
		ver=$(apt_candidate apt_private "$apt_dir" "$arch" apt-cache -- "$pkg")
		if [ -z "$ver" ]; then
			echo "sysroot: $pkg:$arch is not in the archive's lists ($apt_dir)" >&2
			return 1
		fi
		want+=("$pkg=$ver")
	done
	tmp=$(mktemp -d "$(dirname "$dir")/.sysroot.XXXXXX") || return 1
	if ! (cd "$tmp" && apt_private "$apt_dir" "$arch" apt-get download -q "${want[@]}" >&2); then
		echo "sysroot: apt-get download of ${want[*]} ($arch) failed" >&2
		rm -rf "$tmp"
		return 1
	fi
	for deb in "$tmp"/*.deb; do
		if ! dpkg-deb -x "$deb" "$tmp/root"; then
			echo "sysroot: dpkg-deb -x $deb failed" >&2
			rm -rf "$tmp"
			return 1
		fi
	done
	for pkg in libelf.a libz.a; do
		if [ ! -e "$tmp/root/usr/lib/$triplet/$pkg" ]; then
			echo "sysroot: the $arch packages hold no usr/lib/$triplet/$pkg" >&2
			rm -rf "$tmp"
			return 1
		fi
	done
	printf '%s\n' "${want[@]}" | tr '=' ' ' > "$tmp/root/.packages"
	rm -rf "$dir"
	mv "$tmp/root" "$dir" && rm -rf "$tmp"
}

mode=fetch
case ${1:-} in
--path) mode=path; shift ;;
--refresh) mode=refresh; shift ;;
esac
if [ $# -eq 0 ]; then
	echo "usage: tools/sysroot.sh [--path|--refresh] ARCH... (ARCH: arm64, armhf, mipsel, s390x, riscv64)" >&2
	exit 2
fi
root=$(ext4dist_cache_root) || exit 1
status=0
for arch in "$@"; do
	[ "$arch" != arm ] || arch=armhf
	if ! sysroot_triplet "$arch" > /dev/null; then
		echo "sysroot: unknown architecture '$arch' (arm64, armhf, mipsel, s390x, riscv64)" >&2
		exit 2
	fi
	dir=$root/sysroot-$arch
	if [ "$mode" = refresh ] || { [ "$mode" = fetch ] && [ ! -e "$dir/.packages" ]; }; then
		echo "sysroot: fetching $SYSROOT_PACKAGES for $arch into $dir" >&2
		if ! sysroot_fetch "$arch" "$dir"; then
			status=1
			continue
		fi
	fi
	echo "$dir"
done
exit "$status"
