#!/usr/bin/env bash
# make dist and make release: tarballs whose bytes depend only on the
# commit (and the toolchain and libraries they are built with), not on the
# folder, the time or the user.
#
#   tools/release.sh dist DIR      DIR/ext4dist-VERSION.tar.gz: the files git
#                                  tracks, as they are in the work tree, and
#                                  .tarball-version naming the commit
#   tools/release.sh release DIR   DIR/ext4dist-VERSION-ARCH.tar.gz for each
#                                  of RELEASE_ARCHES (x86_64 arm64 armhf) and
#                                  DIR/SHA256SUMS
#
# Each release tarball holds ext4dist-VERSION-ARCH/ with sbin/ext4dist
# (static, stripped, the BPF objects of bpf/prebuilt embedded: no clang
# is used), its links (ext4slower, xfsdist...), share/man/man8/ and
# share/doc/ext4dist/ (README.md and docs/, COPYING, BUILDINFO: the
# compiler and library versions it was built with), so that
# `tar -xzf ... -C /usr/local --strip-components=1` installs it.
# Reproducible: every file's time is the commit's (SOURCE_DATE_EPOCH),
# owner 0:0, modes normalised, names sorted, gzip -n; the binaries carry
# no path of the build folder (-ffile-prefix-map, stripped).  arm64 and
# armhf are built with the sysroots of tools/sysroot.sh; x86_64 needs an
# x86_64 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
MAKE=${MAKE:-make}

die() { echo "release: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: tools/release.sh dist|release DIR"
what=$1
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(sed -n 's/^VERSION *:= *//p' Makefile)
commit=$($MAKE -s --no-print-directory print-COMMIT)
epoch=$($MAKE -s --no-print-directory print-SOURCE_DATE_EPOCH)
[ -n "$epoch" ] || die "no SOURCE_DATE_EPOCH: neither a git checkout nor a dist tarball (.tarball-version); set SOURCE_DATE_EPOCH and COMMIT"
[ "$commit" != unknown ] || die "the commit is unknown: neither a git checkout nor a dist tarball (.tarball-version); set COMMIT"
case $commit in
*-dirty) echo "release: the work tree differs from commit ${commit%-dirty}: the tarballs hold it as it is and say $commit" >&2 ;;
esac

# pack STAGE NAME TARBALL: STAGE/NAME as a reproducible tar.gz.
pack() {
	tar --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
		--mtime="@$epoch" --mode=u+rw,go-w,go+rX \
		-C "$1" -cf - "$2" | gzip -9n > "$3.tmp"
	mv "$3.tmp" "$3"
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

if [ "$what" = dist ]; then
	[ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] ||
		die "make dist packs the files git tracks: run it in a git checkout (an unpacked dist tarball builds and releases as it is)"
	name=ext4dist-$version
	mkdir -p "$stage/$name"
	git ls-files -z | while IFS= read -r -d '' f; do
		if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
	done | xargs -0 cp -P --parents -t "$stage/$name"
	echo "$commit $epoch" > "$stage/$name/.tarball-version"
	pack "$stage" "$name" "$out/$name.tar.gz"
	echo "$out/$name.tar.gz"
	exit 0
fi
[ "$what" = release ] || die "usage: tools/release.sh dist|release DIR"

# buildinfo ARCH SYSROOT CC: what the binary of ARCH was built with.
buildinfo() {
	local arch=$1 sysroot=$2 cc=$3 pkgs
	echo "ext4dist $version (commit $commit) for $arch"
	echo "SOURCE_DATE_EPOCH=$epoch"
	echo "compiler: $($cc --version | head -n 1)"
	if [ -n "$sysroot" ]; then
		pkgs="libc6-dev-$arch-cross"
		echo "static libraries ($arch, tools/sysroot.sh):"
		sed 's/^/  /' "$sysroot/.packages"
	else
		pkgs="libc6-dev libelf-dev zlib1g-dev liblzma-dev libzstd-dev"
	fi
	echo "C library and host packages:"
	# shellcheck disable=SC2086 # a list of package names
	dpkg-query -W -f '  ${Package} ${Version}\n' $pkgs 2>/dev/null || echo "  (dpkg-query cannot say)"
	echo "BPF objects: bpf/prebuilt ($(sed -n 's/^clang: //p' bpf/prebuilt/SOURCES))"
}

sums=()
for arch in ${RELEASE_ARCHES:-x86_64 arm64 armhf}; do
	sysroot=""
	case $arch in
	x86_64)
		[ "$(uname -m)" = x86_64 ] || die "the x86_64 binary is built natively: run make release on an x86_64 machine, or RELEASE_ARCHES without x86_64"
		cc=cc
		args=(ARCH=x86_64)
		;;
	arm64|armhf)
		sysroot=$(tools/sysroot.sh "$arch") ||
			die "no $arch sysroot (see above): tools/sysroot.sh $arch fetches it"
		if [ "$arch" = arm64 ]; then
			cc=aarch64-linux-gnu-gcc
			args=(ARCH=arm64 "SYSROOT=$sysroot")
		else
			cc=arm-linux-gnueabihf-gcc
			args=(ARCH=arm "SYSROOT=$sysroot")
		fi
		;;
	*) die "unknown architecture '$arch' (x86_64, arm64, armhf)" ;;
	esac
	obj=$out/build-$arch
	name=ext4dist-$version-$arch
	# The flags are pinned: a CFLAGS in the environment must not change
	# the release.  No clang: the shipped objects of bpf/prebuilt.
	args+=("CC=$cc" CLANG= "CFLAGS=-O2 -g" CPPFLAGS= LDFLAGS= "BUILD=$obj" "BIN=$obj/ext4dist")
	echo "release: building $name" >&2
	env -u PKG_CONFIG "$MAKE" -s --no-print-directory "${args[@]}" "$obj/ext4dist" >&2 ||
		die "the $arch build failed"
	env -u PKG_CONFIG "$MAKE" -s --no-print-directory "${args[@]}" \
		DESTDIR="$stage/$name" PREFIX= install >&2 ||
		die "make install of the $arch build failed"
	install -d "$stage/$name/share/doc/ext4dist"
	install -m 0644 README.md COPYING "$stage/$name/share/doc/ext4dist/"
	# README.md's links lead into docs/, whose pages link each other.
	install -d "$stage/$name/share/doc/ext4dist/docs"
	install -m 0644 docs/* "$stage/$name/share/doc/ext4dist/docs/"
	buildinfo "$arch" "$sysroot" "$cc" > "$stage/$name/share/doc/ext4dist/BUILDINFO"
	pack "$stage" "$name" "$out/$name.tar.gz"
	sums+=("$name.tar.gz")
	echo "$out/$name.tar.gz"
done
(cd "$out" && sha256sum "${sums[@]}") > "$out/SHA256SUMS"
echo "$out/SHA256SUMS"
