# shellcheck shell=bash
# Host side of the VM tests (sourced by run.sh and demo.sh; bash).
#
# Fetches the kernels (cached outside git), builds an initramfs
# (busybox-static, the needed modules, the kernel's System.map and config
# in /boot, ext4dist, the workload program and the guest scripts), makes
# small ext4/ext3/ext2 images and boots them in qemu.
#
# Kernel series (vm_fetch_kernel): "5.10" is Debian bullseye's package,
# fetched through private apt lists in the cache (tools/apt.sh: the
# machine's apt configuration is never touched); the others (6.1, 6.12)
# are packages of the machine's own apt sources, or of private lists of
# its suite for a foreign architecture (arm64, armhf: no dpkg architecture
# is added).  "4.9" and "4.19", asked for by name only, are prebuilt
# vanilla kernels with everything built in (no modules), copied from
# EXT4DIST_OLD_KERNELS: the suite's own images of them are withdrawn, and
# guest/oldkernels.sh emulates their paths.
# Environment:
#   EXT4DIST_VM_CACHE    kernel cache (default /var/cache/ext4dist-vm, or
#                        ~/.cache/ext4dist-vm when that is not writable)
#   EXT4DIST_OLD_KERNELS directory of the vanilla-<ver>.bzImage images
#                        (default <top>/../shared/kernels, else
#                        /work/shared/kernels)
#   EXT4DIST_VM_BUILD    build products (default <top>/build/vm)
#   EXT4DIST_VM_TIMEOUT  hard limit for one boot in seconds (default 900)
#   EXT4DIST_VM_KVM=1    use KVM instead of TCG
#   EXT4DIST_VM_JOBS     guests booted at once by run.sh (default: nproc)
#   EXT4DIST_BIN         binary to test (default <top>/ext4dist)
#   EXT4DIST_TEST_BIN    its test build, /bin/ext4dist-test in the guest
#                        (default <top>/build/ext4dist-test)
#   EXT4DIST_VM_ONLY     run only these scenarios (comma-separated names
#                        without "scenario_", e.g. stress,faults)

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_TOP=$(cd "$VM_DIR/../.." && pwd)
# shellcheck source=../../tools/apt.sh
. "$VM_TOP/tools/apt.sh"
# The kernel cache lives outside the tree; without write access to
# /var/cache (not root), under the user's cache directory.
VM_CACHE=$(ext4dist_cache_root)
VM_BUILD=${EXT4DIST_VM_BUILD:-$VM_TOP/build/vm}
VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-900}
# The guest's memory: its initramfs (Prometheus's 50 MB binary among
# it) unpacked into RAM, then Prometheus running beside the scenarios.
VM_MEM=1536M

# The kernel series run.sh boots by default, oldest first: those the
# Debian archive provides.
# shellcheck disable=SC2034 # read by run.sh
VM_DEFAULT_SERIES="5.10 6.1 6.12"
# The architecture of the kernel packages (tests/vm-arm64/lib.sh: arm64).
VM_APT_ARCH=amd64

# Modules the guest loads, by name; their dependencies come from
# modules.dep, built-in ones (modules.builtin) are skipped.  A kernel
# without any module (the vanilla ones) must have them all built in.
VM_EARLY_MODULES="virtio_pci virtio_blk"
# crc32c_generic is only a soft dependency of ext4 (modules.softdep), but
# mounting fails without a crc32c implementation.
VM_EXT4_MODULES="crc32c_generic ext4"
# The family's file systems (guest/family.sh), each with its dependencies
# (xfs: libcrc32c; btrfs: xor, raid6_pq, zstd...), in a list of its own:
# a kernel without one of them (the vanilla ones) has an empty list, and
# the family's scenarios say they did not run there.
VM_FAMILY_MODULES="xfs btrfs f2fs"

vm_log() { echo "vm: $*" >&2; }

# vm_series_kind SERIES: where the kernel of a series comes from: vanilla
# (a prebuilt image of the shared directory), bullseye (Debian 11's
# package, through a private apt list) or apt (the machine's apt sources).
vm_series_kind() {
	case $1 in
	4.9|4.19) echo vanilla ;;
	5.10) echo bullseye ;;
	*) echo apt ;;
	esac
}

# vm_series_source SERIES: the same in words, for SKIP and FAIL lines.
vm_series_source() {
	case $(vm_series_kind "$1") in
	vanilla)
		if [ -n "${EXT4DIST_OLD_KERNELS:-}" ]; then
			echo "the prebuilt vanilla-$1.N.bzImage (none in EXT4DIST_OLD_KERNELS=$EXT4DIST_OLD_KERNELS)"
		else
			echo "the prebuilt vanilla-$1.N.bzImage (none in $VM_TOP/../shared/kernels or /work/shared/kernels; EXT4DIST_OLD_KERNELS names another directory)"
		fi ;;
	bullseye) echo "the Debian bullseye $1 kernel package" ;;
	*) echo "the Debian $1 kernel package" ;;
	esac
}

# vm_series_regex SERIES: the Debian package name of the plain kernel of a
# series for VM_APT_ARCH, e.g. linux-image-6.1.0-57-amd64-unsigned,
# linux-image-5.10.0-46-amd64-unsigned or
# linux-image-6.12.118+deb12-amd64-unsigned (not -rt, not -cloud).
vm_series_regex() {
	local esc=${1//./\\.}
	echo "^linux-image-$esc\\.[0-9]+(-[0-9]+|\\+deb[0-9]+)-$VM_APT_ARCH-unsigned\$"
}

# vm_apt_suite KIND: the suite of the private apt lists a series of KIND
# (vm_series_kind) comes from: bullseye's for bullseye; for apt, this
# machine's suite when VM_APT_ARCH is a foreign architecture (its packages
# come through private lists, never through dpkg); nothing: the machine's
# own configuration.
vm_apt_suite() {
	case $1 in
	apt) [ "$VM_APT_ARCH" = "$(apt_host_arch)" ] || apt_host_suite ;;
	*) echo "$1" ;;
	esac
}

# vm_apt KIND CMD ARG...: runs apt-get or apt-cache (CMD) for a series of
# KIND: with the machine's configuration, or with the private lists of
# vm_apt_suite for VM_APT_ARCH (tools/apt.sh: apt_private).  As root,
# apt-get would drop to _apt, which cannot write into the cache: it stays
# root.
vm_apt() {
	local kind=$1 cmd=$2 suite
	shift 2
	suite=$(vm_apt_suite "$kind")
	if [ -n "$suite" ]; then
		apt_private "$(apt_private_dir "$suite" "$VM_APT_ARCH")" "$VM_APT_ARCH" "$cmd" "$@"
	elif [ "$cmd" = apt-get ] && [ "$(id -u)" = 0 ]; then
		"$cmd" -o APT::Sandbox::User=root "$@"
	else
		"$cmd" "$@"
	fi
}

# vm_resolve_packages SERIES: the package names of SERIES known to apt,
# newest first.  Private lists are updated first when stale (a failed
# index tolerated when the others came, tools/apt.sh).
vm_resolve_packages() {
	local kind re pkgs suite
	kind=$(vm_series_kind "$1")
	re=$(vm_series_regex "$1")
	suite=$(vm_apt_suite "$kind")
	if [ -n "$suite" ] && ! apt_private_ready "$suite" "$VM_APT_ARCH" > /dev/null; then
		vm_log "no usable private $suite $VM_APT_ARCH lists"
	fi
	pkgs=$(vm_apt "$kind" apt-cache pkgnames linux-image- 2>/dev/null |
		grep -E "$re" | sort -rV)
	if [ -z "$pkgs" ] && [ -z "$suite" ] && [ "$(id -u)" = 0 ]; then
		vm_log "no $1 kernel in the apt lists: running apt-get update"
		apt_update_retry apt-get update -qq || true
		pkgs=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$re" | sort -rV)
	fi
	[ -n "$pkgs" ] && echo "$pkgs"
}

# vm_old_kernels_dir: the directory of the prebuilt vanilla kernels:
# $EXT4DIST_OLD_KERNELS when set, else <top>/../shared/kernels, else
# /work/shared/kernels, whichever exists first.
vm_old_kernels_dir() {
	local d
	if [ -n "${EXT4DIST_OLD_KERNELS:-}" ]; then
		echo "$EXT4DIST_OLD_KERNELS"
		return 0
	fi
	for d in "$VM_TOP/../shared/kernels" /work/shared/kernels; do
		if [ -d "$d" ]; then
			(cd "$d" && pwd)
			return 0
		fi
	done
	return 1
}

# vm_bzimage_release IMAGE: the kernel release (uname -r) of a bzImage,
# from the version string its setup header points to (hdr.kernel_version
# at 0x20e, an offset from 0x200; the header's magic "HdrS" at 0x202).
vm_bzimage_release() {
	local off
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 1
	off=$(od -An -tu2 -j 526 -N 2 "$1" | tr -d ' ')
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 1
	dd if="$1" bs=1 skip=$((off + 512)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

# vm_image_version_code IMAGE: LINUX_VERSION_CODE as built into a bzImage
# (0x%06x), from the "Linux" ELF note of the vDSO inside its compressed
# vmlinux (xz or gzip).  Not always the release clamped to 255: the
# 4.4-4.19 stable branches hard-code 255 as its sublevel (4.19.222:
# 0x0413ff).  The guest's check-kern-version compares ext4dist with it
# where uname -v names no distribution version.
vm_image_version_code() {
	local img=$1 off pos tmp code=""
	tmp=$(mktemp)
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$img" | head -n 1 | cut -d: -f1)
	if [ -n "$off" ]; then
		tail -c +"$((off + 1))" "$img" | xz -dc --single-stream > "$tmp" 2>/dev/null
	else
		off=$(LC_ALL=C grep -obUaP '\x1f\x8b\x08' "$img" | head -n 1 | cut -d: -f1)
		[ -z "$off" ] || tail -c +"$((off + 1))" "$img" | gzip -dc > "$tmp" 2>/dev/null
	fi
	# namesz 6, descsz 4, type 0, "Linux" padded to 8, then the code.
	pos=$(LC_ALL=C grep -obUaP '\x06\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00Linux\x00\x00\x00' "$tmp" |
		head -n 1 | cut -d: -f1)
	[ -z "$pos" ] || code=$(od -An -tu4 -j "$((pos + 20))" -N 4 "$tmp" | tr -d ' ')
	rm -f "$tmp"
	[ -n "$code" ] || return 1
	printf '0x%06x\n' "$code"
}

# vm_fetch_vanilla SERIES: copies the newest vanilla-SERIES.N.bzImage, its
# System.map and config from vm_old_kernels_dir into the cache as
# $VM_CACHE/vanilla-<release>/root/boot/{vmlinuz,System.map,config}-<release>
# (an extracted package's layout, without lib/modules: everything is built
# in), with its LINUX_VERSION_CODE in version-code beside root, and prints
# that directory.  Copies again when the originals changed.
vm_fetch_vanilla() {
	local series=$1 src img="" f rel dir tmp
	if ! src=$(vm_old_kernels_dir); then
		vm_log "no directory of prebuilt kernels (\$EXT4DIST_OLD_KERNELS, $VM_TOP/../shared/kernels, /work/shared/kernels)"
		return 1
	fi
	img=$(for f in "$src"/vanilla-*.bzImage; do
		basename "$f"
	done | grep -E "^vanilla-${series//./\\.}\\.[0-9]+\\.bzImage\$" | sort -V | tail -n 1)
	if [ -z "$img" ]; then
		vm_log "no vanilla-$series.N.bzImage in $src"
		return 1
	fi
	img=$src/$img
	for f in System.map config; do
		if [ ! -r "${img%.bzImage}.$f" ]; then
			vm_log "${img%.bzImage}.$f is missing"
			return 1
		fi
	done
	if ! rel=$(vm_bzimage_release "$img") || [ -z "$rel" ]; then
		vm_log "$img: no kernel release in its bzImage header"
		return 1
	fi
	dir=$VM_CACHE/vanilla-$rel
	if [ -e "$dir/.complete" ] && [ -s "$dir/version-code" ] &&
	   cmp -s "$img" "$dir/root/boot/vmlinuz-$rel" &&
	   cmp -s "${img%.bzImage}.System.map" "$dir/root/boot/System.map-$rel" &&
	   cmp -s "${img%.bzImage}.config" "$dir/root/boot/config-$rel"; then
		echo "$dir"
		return 0
	fi
	vm_log "copying $img (release $rel) into $VM_CACHE"
	mkdir -p "$VM_CACHE"
	tmp=$(mktemp -d "$VM_CACHE/.fetch.XXXXXX")
	mkdir -p "$tmp/root/boot"
	if cp "$img" "$tmp/root/boot/vmlinuz-$rel" &&
	   cp "${img%.bzImage}.System.map" "$tmp/root/boot/System.map-$rel" &&
	   cp "${img%.bzImage}.config" "$tmp/root/boot/config-$rel" &&
	   vm_image_version_code "$img" > "$tmp/version-code"; then
		chmod 644 "$tmp"/root/boot/*
		touch "$tmp/.complete"
		rm -rf "$dir"
		mv "$tmp" "$dir"
		echo "$dir"
		return 0
	fi
	rm -rf "$tmp"
	vm_log "copying $img or reading its LINUX_VERSION_CODE failed"
	return 1
}

# vm_merged_usr_modules ROOT: trixie's packages put the modules in
# usr/lib/modules (merged /usr): moved to lib/modules, where the rest of
# the harness looks.
vm_merged_usr_modules() {
	if [ -d "$1/usr/lib/modules" ] && [ ! -e "$1/lib/modules" ]; then
		mkdir -p "$1/lib" && mv "$1/usr/lib/modules" "$1/lib/modules"
	fi
}

# vm_fetch_kernel SERIES: prints the cache directory holding the extracted
# kernel (root/boot/vmlinuz-*, System.map-*, config-*; for a package also
# root/lib/modules/<ver> with modules.dep).  Vanilla series come from
# vm_fetch_vanilla.  Packages are downloaded and extracted only when not
# cached: the newest that the mirror serves (one it lists but cannot
# deliver is said on stderr, and the next older one tried); the newest
# cached kernel of SERIES when apt can provide none.
vm_fetch_kernel() {
	local series=$1 kind pkg ver dir tmp deb kver old
	kind=$(vm_series_kind "$series")
	if [ "$kind" = vanilla ]; then
		vm_fetch_vanilla "$series"
		return
	fi
	mkdir -p "$VM_CACHE"
	for pkg in $(vm_resolve_packages "$series" || true); do
		ver=$(vm_apt "$kind" apt-cache show --no-all-versions "$pkg" 2>/dev/null |
			sed -n 's/^Version: //p' | head -n 1)
		[ -n "$ver" ] || continue
		dir=$VM_CACHE/${pkg}_$ver
		if [ -e "$dir/.complete" ]; then
			echo "$dir"
			return 0
		fi
		vm_log "fetching $pkg $ver into $VM_CACHE"
		tmp=$(mktemp -d "$VM_CACHE/.fetch.XXXXXX")
		if (cd "$tmp" && vm_apt "$kind" apt-get download -q "$pkg=$ver" >&2) &&
		   deb=$(ls "$tmp"/*.deb) &&
		   dpkg-deb -x "$deb" "$tmp/root" &&
		   vm_merged_usr_modules "$tmp/root" &&
		   kver=$(ls "$tmp/root/lib/modules") &&
		   depmod -b "$tmp/root" "$kver"; then
			rm -f "$deb"
			touch "$tmp/.complete"
			rm -rf "$dir"
			mv "$tmp" "$dir"
			# Drop older kernels of the same series.
			for old in "$VM_CACHE"/linux-image-*; do
				[ "$old" != "$dir" ] || continue
				basename "$old" | sed 's/_.*//' |
					grep -qE "$(vm_series_regex "$series")" || continue
				rm -rf "$old"
			done
			echo "$dir"
			return 0
		fi
		rm -rf "$tmp"
		vm_log "download or extraction of $pkg $ver failed: trying an older $series package"
	done
	dir=$(for old in "$VM_CACHE"/linux-image-*/.complete; do
		[ -e "$old" ] || continue
		old=$(dirname "$old")
		basename "$old" | sed 's/_.*//' |
			grep -qE "$(vm_series_regex "$series")" && echo "$old"
	done | sort -V | tail -n 1)
	if [ -n "$dir" ]; then
		vm_log "using cached $(basename "$dir") (apt could not provide a newer one)"
		echo "$dir"
		return 0
	fi
	return 1
}

# vm_kernel_version KDIR: the release of an extracted kernel, from its
# boot/vmlinuz-<release> (packages and vanilla images alike), or
# boot/vmlinux-<release> (riscv64's uncompressed Image).
vm_kernel_version() {
	local f
	for f in "$1"/root/boot/vmlinuz-* "$1"/root/boot/vmlinux-*; do
		[ -e "$f" ] || continue
		f=${f##*/vmlinu?-}
		echo "$f"
		return 0
	done
	return 1
}

# vm_cache_deb PKG ARCH VERSION FILE DOWNLOAD...: prints the path of FILE
# (relative to the package's root, e.g. bin/busybox) in package PKG:ARCH
# VERSION, extracted into the cache once: DOWNLOAD (a command and its
# arguments, run in a scratch directory) leaves that package's .deb
# there.  Older versions of the cache are removed; with VERSION empty (apt
# cannot say), or when the download fails, the cached copy serves.
# Returns 1 when there is none.  Nothing is installed.
vm_cache_deb() {
	local pkg=$1 arch=$2 ver=$3 file=$4 dir tmp
	shift 4
	mkdir -p "$VM_CACHE"
	if [ -n "$ver" ]; then
		dir=$VM_CACHE/$pkg-${arch}_${ver//:/%3a}
		if [ ! -e "$dir/.complete" ]; then
			vm_log "fetching $pkg:$arch $ver into $VM_CACHE"
			tmp=$(mktemp -d "$VM_CACHE/.fetch.XXXXXX")
			# trixie's package installs it in /usr/bin.
			if (cd "$tmp" && "$@" >&2) &&
			   dpkg-deb -x "$tmp"/*.deb "$tmp/root" &&
			   { [ -x "$tmp/root/$file" ] ||
			     { [ -x "$tmp/root/usr/$file" ] &&
			       mkdir -p "$(dirname "$tmp/root/$file")" &&
			       mv "$tmp/root/usr/$file" "$tmp/root/$file"; }; }; then
				rm -f "$tmp"/*.deb
				touch "$tmp/.complete"
				rm -rf "$VM_CACHE/$pkg-${arch}_"*
				mv "$tmp" "$dir"
			else
				rm -rf "$tmp"
				vm_log "download or extraction of $pkg:$arch $ver failed"
			fi
		fi
	fi
	for dir in "$VM_CACHE/$pkg-${arch}_"*/.complete; do
		[ -e "$dir" ] || return 1
		echo "$(dirname "$dir")/root/$file"
		return 0
	done
}

# vm_cache_busybox ARCH VERSION DOWNLOAD...: the static busybox of ARCH,
# from busybox-static:ARCH VERSION (vm_cache_deb).
vm_cache_busybox() {
	local arch=$1 ver=$2
	shift 2
	vm_cache_deb busybox-static "$arch" "$ver" bin/busybox "$@"
}

# The real Prometheus components of the exporter's scenarios
# (guest/fleet.sh), Debian's builds, run from their unpacked packages:
# each PACKAGE:BINARY, in the guest as /bin/BINARY.
VM_PROM_PACKAGES="prometheus:prometheus prometheus-node-exporter:node_exporter"

# vm_fetch_prom_tools STAGE: each of VM_PROM_PACKAGES fetched into the
# cache (apt-get download of the machine's apt sources, newest version)
# and copied into STAGE/bin with the shared libraries it loads.  A
# package that cannot be had is said, and its binary left out: the
# scenarios that need it fail, naming it.
vm_fetch_prom_tools() {
	local stage=$1 spec pkg bin ver path
	for spec in $VM_PROM_PACKAGES; do
		pkg=${spec%%:*} bin=${spec#*:}
		ver=$(apt_candidate vm_apt apt apt-cache -- "$pkg")
		if ! path=$(vm_cache_deb "$pkg" "$VM_APT_ARCH" "$ver" "usr/bin/$pkg" \
				vm_apt apt apt-get download -q "$pkg=$ver"); then
			vm_log "no $pkg package: the scenarios that run $bin will fail"
			continue
		fi
		vm_copy_dynamic "$stage" "$path" "/bin/$bin"
	done
}

# vm_busybox_of ARCH [SUITE]: the path of the static busybox of Debian's
# ARCH (arm64, armhf...), busybox-static of ARCH downloaded through the
# private lists of SUITE (default: this machine's) and kept in the cache
# by vm_cache_busybox (the cached copy when apt cannot provide one).
vm_busybox_of() {
	local arch=$1 suite=${2:-$(apt_host_suite)} apt_dir ver=""
	if apt_dir=$(apt_private_ready "$suite" "$arch" busybox-static); then
		ver=$(apt_candidate apt_private "$apt_dir" "$arch" apt-cache -- busybox-static)
	fi
	vm_cache_busybox "$arch" "$ver" \
		apt_private "$apt_dir" "$arch" apt-get download -q "busybox-static=$ver"
}

# vm_kernel_image KDIR: the file for qemu's -kernel.  x86's bzImage, arm64
# 6.1's Image and armmp's zImage boot as they are; a gzip'ed Image (arm64
# in other releases) is decompressed once into KDIR.
vm_kernel_image() {
	local vmlinuz image
	vmlinuz=$1/root/boot/vmlinuz-$(vm_kernel_version "$1")
	[ -e "$vmlinuz" ] || vmlinuz=$1/root/boot/vmlinux-$(vm_kernel_version "$1")
	if ! gzip -t "$vmlinuz" 2>/dev/null; then
		echo "$vmlinuz"
		return 0
	fi
	image=$1/Image
	if [ ! -s "$image" ] || [ "$vmlinuz" -nt "$image" ]; then
		gzip -dc "$vmlinuz" > "$image.tmp" && mv "$image.tmp" "$image"
	fi
	echo "$image"
}

# vm_builtin_check KDIR NAME...: for a kernel without modules (no
# lib/modules at all), each module NAME must be built in according to the
# kernel's config (boot/config-<release>).  Prints nothing: there is
# nothing to load.
vm_builtin_check() {
	local kdir=$1 config name sym bad=""
	shift
	config=$kdir/root/boot/config-$(vm_kernel_version "$kdir")
	for name in "$@"; do
		case $name in
		virtio_pci) sym=VIRTIO_PCI ;;
		virtio_blk) sym=VIRTIO_BLK ;;
		virtio_console) sym=VIRTIO_CONSOLE ;;
		crc32c_generic) sym=CRYPTO_CRC32C ;;
		ext4) sym=EXT4_FS ;;
		*)
			vm_log "module $name: no config symbol known to check it is built in"
			return 1 ;;
		esac
		grep -qx "CONFIG_$sym=y" "$config" 2>/dev/null || bad="$bad $name (CONFIG_$sym)"
	done
	if [ -n "$bad" ]; then
		vm_log "$(basename "$kdir") has no modules, and these are not built in (${config##*/}):$bad"
		return 1
	fi
}

# vm_module_order KDIR NAME...: the modules NAME and their dependencies in
# load order, as paths relative to lib/modules/<ver>.  Built-in modules are
# skipped; an unknown name is an error.  A kernel without lib/modules
# yields nothing once vm_builtin_check agrees.
vm_module_order() {
	local kdir=$1 mdir
	shift
	mdir=$kdir/root/lib/modules/$(vm_kernel_version "$kdir")
	if [ ! -d "$mdir" ]; then
		vm_builtin_check "$kdir" "$@"
		return
	fi
	awk -v want="$*" '
	function modname(p) {
		sub(/.*\//, "", p); sub(/\.ko.*/, "", p); gsub(/-/, "_", p)
		return p
	}
	# modules.dep lists all (transitive) dependencies of a module;
	# visiting each one first gives a valid order whatever their order.
	function visit(p,   n, d, i) {
		if (p in done) return
		done[p] = 1
		n = split(deps[p], d, " ")
		for (i = 1; i <= n; i++) visit(d[i])
		print p
	}
	FILENAME ~ /modules\.builtin$/ { builtin[modname($0)] = 1; next }
	{
		key = $0; sub(/:.*/, "", key)
		rest = $0; sub(/^[^:]*:/, "", rest)
		path[modname(key)] = key
		deps[key] = rest
	}
	END {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++) {
			if (w[i] in path) visit(path[w[i]])
			else if (!(w[i] in builtin)) {
				print "vm: module " w[i] " is neither in modules.dep nor built in" > "/dev/stderr"
				exit 1
			}
		}
	}' "$mdir/modules.dep" "$mdir/modules.builtin"
}

# vm_is_static FILE: true for a static ELF (no program interpreter).
vm_is_static() {
	! readelf -l "$1" 2>/dev/null | grep -q 'program interpreter'
}

# vm_build_tools: static workload (threads: -pthread), runas (drops to an
# unprivileged uid), httpc (the exporter's clients), unitrun (a service
# started as its systemd units say) and sigdfl (for the shell stub).
vm_build_tools() {
	mkdir -p "$VM_BUILD"
	local src out
	for src in "$VM_DIR/workload.c" "$VM_DIR/runas.c" "$VM_DIR/httpc.c" \
		   "$VM_DIR/unitrun.c" "$VM_DIR/stub/sigdfl.c"; do
		out=$VM_BUILD/$(basename "$src" .c)
		if [ ! -x "$out" ] || [ "$src" -nt "$out" ] ||
		   [ "$VM_TOP/tests/lib/tcp_dial.h" -nt "$out" ]; then
			gcc -static -pthread -O2 -Wall -Wextra -o "$out" "$src" || return 1
			if ! vm_is_static "$out"; then
				vm_log "$out is not static"
				return 1
			fi
		fi
	done
}

# vm_copy_modules KDIR DEST LIST NAME...: copies NAME and dependencies
# (decompressed: busybox insmod reads neither .ko.xz nor .ko.zst) into
# DEST and writes their file names in load order to DEST/LIST.
# Modules already in another list of DEST are not repeated.  For a kernel
# without modules (everything built in) LIST is empty.
vm_copy_modules() {
	local kdir=$1 dest=$2 list=$3 mdir order rel base
	shift 3
	mdir=$kdir/root/lib/modules/$(vm_kernel_version "$kdir")
	order=$(vm_module_order "$kdir" "$@") || return 1
	: > "$dest/$list"
	for rel in $order; do
		base=$(basename "$rel")
		base=${base%.xz}
		base=${base%.zst}
		if [ ! -e "$dest/$base" ]; then
			case "$rel" in
			*.xz) xz -dc "$mdir/$rel" > "$dest/$base" ;;
			*.zst) zstd -qdc "$mdir/$rel" > "$dest/$base" ;;
			*) cp "$mdir/$rel" "$dest/$base" ;;
			esac || return 1
			echo "$base" >> "$dest/$list"
		fi
	done
}

# vm_copy_family KDIR DEST: each of VM_FAMILY_MODULES the kernel has, with
# all its dependencies (also those another list has: xfs and btrfs share
# libcrc32c), listed in DEST/NAME.list (no list: not there); the guest
# skips those already loaded.  f2fs needs a crc32 implementation first (a
# soft dependency, modules.softdep: its mount fails with "Cannot load
# crc32 driver" without).
vm_copy_family() {
	local kdir=$1 dest=$2 fs pre order rel base
	for fs in $VM_FAMILY_MODULES; do
		pre=""
		[ "$fs" != f2fs ] || pre=crc32_generic
		# shellcheck disable=SC2086 # pre: zero or one name
		if order=$(vm_module_order "$kdir" $pre "$fs" 2> /dev/null) &&
		   vm_copy_modules "$kdir" "$dest" "$fs.copied" $pre "$fs" 2> /dev/null; then
			for rel in $order; do
				base=$(basename "$rel")
				base=${base%.xz}
				echo "${base%.zst}"
			done > "$dest/$fs.list"
		else
			rm -f "$dest/$fs.list"
			vm_log "$(basename "$kdir"): no $fs module"
		fi
		rm -f "$dest/$fs.copied"
	done
}

# vm_copy_dynamic STAGE FILE DEST: a dynamically linked FILE of the host's
# architecture as STAGE/DEST, with the shared libraries it loads at the
# same paths as on the host (Debian 12's, which the guest then uses).
vm_copy_dynamic() {
	local stage=$1 file=$2 dest=$3 lib
	mkdir -p "$stage$(dirname "$dest")"
	cp "$file" "$stage$dest"
	for lib in $(ldd "$file" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		mkdir -p "$stage$(dirname "$lib")"
		[ -e "$stage$lib" ] || cp -L "$lib" "$stage$lib"
	done
}

# vm_copy_strace STAGE: the host's strace (Debian has no static strace
# package), for the scenario that holds -v against it.  Without strace on
# the host the scenario says so and fails.
vm_copy_strace() {
	local strace
	strace=$(command -v strace) || return 0
	vm_copy_dynamic "$1" "$strace" /bin/strace
}

# vm_build_initramfs KDIR OUT: initramfs (gzip'ed newc cpio) for KDIR.
vm_build_initramfs() {
	local kdir=$1 out=$2 stage applet busybox
	local ext4dist=${EXT4DIST_BIN:-$VM_TOP/ext4dist}
	local ext4dist_test=${EXT4DIST_TEST_BIN:-$VM_TOP/build/ext4dist-test}
	stage=$VM_BUILD/initramfs-$(vm_kernel_version "$kdir")
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,guest,lib/modules}

	busybox=$(command -v busybox) || { vm_log "busybox not found"; return 1; }
	if ! vm_is_static "$busybox"; then
		vm_log "$busybox is not static: install busybox-static"
		return 1
	fi
	cp "$busybox" "$stage/bin/busybox"
	for applet in $("$busybox" --list); do
		# The list includes busybox itself.
		[ "$applet" = busybox ] || ln -s busybox "$stage/bin/$applet"
	done

	if [ ! -f "$ext4dist" ]; then
		vm_log "$ext4dist does not exist (make ext4dist)"
		return 1
	fi
	if head -c 2 "$ext4dist" | grep -q '#!'; then
		cp "$VM_BUILD/sigdfl" "$stage/bin/sigdfl"   # shell stub
	elif ! vm_is_static "$ext4dist"; then
		vm_log "$ext4dist is not a static binary"
		return 1
	fi
	cp "$ext4dist" "$stage/bin/ext4dist"
	chmod 755 "$stage/bin/ext4dist"
	# ext4slower, xfsdist...: the same binary under the names make
	# install links.
	for applet in ext4slower xfsdist xfsslower btrfsdist btrfsslower \
		      f2fsdist f2fsslower; do
		ln -s ext4dist "$stage/bin/$applet"
	done
	# The scenarios that need fixture paths run the test build (make).
	[ ! -f "$ext4dist_test" ] || cp "$ext4dist_test" "$stage/bin/ext4dist-test"
	cp "$VM_BUILD/workload" "$stage/bin/workload"
	cp "$VM_BUILD/runas" "$stage/bin/runas"
	cp "$VM_BUILD/httpc" "$VM_BUILD/unitrun" "$stage/bin/"
	vm_fetch_prom_tools "$stage"
	# The exporter's scenarios fail where one of these is missing.
	echo "prometheus node_exporter httpc unitrun" > "$stage/guest/fleet-tools"
	mkdir -p "$stage/guest/units"
	cp "$VM_TOP"/packaging/systemd/ext4dist.* "$stage/guest/units/"

	cp "$VM_DIR/guest/init" "$stage/init"
	cp "$VM_DIR"/guest/*.sh "$stage/guest/"
	cp "$VM_TOP/tests/lib/kcall_compare.awk" "$VM_TOP/tests/lib/doc_outputs.awk" "$stage/guest/"
	# The documentation whose output blocks scenario_doc_outputs checks.
	mkdir -p "$stage/guest/docs"
	cp "$VM_TOP/README.md" "$VM_TOP"/docs/*.md "$stage/guest/docs/"
	vm_copy_strace "$stage"
	chmod 755 "$stage/init" "$stage"/guest/*.sh

	# shellcheck disable=SC2086 # lists of module names
	vm_copy_modules "$kdir" "$stage/lib/modules" early.list $VM_EARLY_MODULES &&
	vm_copy_modules "$kdir" "$stage/lib/modules" ext4.list $VM_EXT4_MODULES ||
		return 1
	vm_copy_family "$kdir" "$stage/lib/modules"
	vm_copy_boot "$kdir" "$stage" || return 1
	# A vanilla kernel's LINUX_VERSION_CODE (vm_image_version_code).
	[ ! -e "$kdir/version-code" ] || cp "$kdir/version-code" "$stage/guest/linux-version-code"
	vm_pack_initramfs "$stage" "$out"
}

# vm_pack_initramfs STAGE OUT: STAGE as a gzip'ed newc cpio, owned by root.
vm_pack_initramfs() {
	(cd "$1" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$2"
}

# vm_fops_offset KDIR: "SECTION OFFSET" of ext4_file_operations in the
# kernel's ext4.ko, for a guest to check ext4dist's address against
# /sys/module/ext4/sections/SECTION (without KALLSYMS_ALL there is no
# other source); nothing for a kernel without the module.
vm_fops_offset() {
	local ko tmp=""
	ko=$(find "$1/root/lib/modules" -name 'ext4.ko*' 2>/dev/null | head -n 1)
	[ -n "$ko" ] || return 0
	case $ko in
	*.xz) tmp=$(mktemp); xz -dc "$ko" > "$tmp"; ko=$tmp ;;
	*.zst) tmp=$(mktemp); zstd -qdc "$ko" > "$tmp"; ko=$tmp ;;
	esac
	readelf -sW "$ko" | awk '$8 == "ext4_file_operations" { print $7, $2 }' |
		while read -r ndx value; do
			printf '%s 0x%s\n' \
				"$(readelf -SW "$ko" | sed 's/^ *\[ *//' |
				   awk -v n="$ndx" '$1 == n"]" { print $2 }')" "$value"
		done
	[ -z "$tmp" ] || rm -f "$tmp"
}

# vm_copy_boot KDIR STAGE: the kernel's System.map-<release> and
# config-<release> into STAGE/boot, as a distribution installs them
# (ext4dist reads /boot/System.map-$(uname -r) for symbols kallsyms lacks).
# Debian's packages ship a placeholder System.map (the real one is in the
# -dbg package): copied as it is.
vm_copy_boot() {
	local kdir=$1 stage=$2 kver f
	kver=$(vm_kernel_version "$kdir")
	mkdir -p "$stage/boot"
	for f in System.map config; do
		if [ ! -r "$kdir/root/boot/$f-$kver" ]; then
			vm_log "$kdir/root/boot/$f-$kver is missing"
			return 1
		fi
		cp "$kdir/root/boot/$f-$kver" "$stage/boot/"
	done
}

# vm_make_images DIR: DIR/{ext4,ext3,ext2}.img, each with a 256 KiB file
# "data" at the root (mkfs -d); and two small ext4 file systems without
# any regular file: DIR/bare.img, as mkfs leaves it (only lost+found), and
# DIR/odd.img, whose root holds only a directory (dir, with dir/sub) and
# a symbolic link (link -> dir): no lost+found either.  Each is labelled
# with its name (the armhf guests check their disks' order by it).
vm_make_images() {
	local dir=$1 fs
	mkdir -p "$dir/content"
	head -c 262144 /dev/urandom > "$dir/content/data"
	for fs in ext4 ext3 ext2; do
		rm -f "$dir/$fs.img"
		"mkfs.$fs" -q -F -b 4096 -L "$fs" -d "$dir/content" "$dir/$fs.img" 64M > /dev/null ||
			return 1
	done
	rm -rf "$dir/odd" "$dir/bare.img" "$dir/odd.img"
	mkdir -p "$dir/odd/dir/sub"
	ln -s dir "$dir/odd/link"
	mkfs.ext4 -q -F -b 4096 -L bare "$dir/bare.img" 8M > /dev/null &&
	mkfs.ext4 -q -F -b 4096 -L odd -d "$dir/odd" "$dir/odd.img" 8M > /dev/null &&
	debugfs -w -R "rmdir lost+found" "$dir/odd.img" > /dev/null 2>&1 ||
		return 1
	# debugfs says nothing when rmdir fails: the root's listing tells.
	if debugfs -R "ls -l /" "$dir/odd.img" 2>/dev/null | grep -q 'lost+found'; then
		vm_log "$dir/odd.img: debugfs could not remove lost+found"
		return 1
	fi
}

# vm_make_family_images DIR: DIR/xfs.img, btrfs.img, f2fs.img, each an
# empty file system of the size its mkfs accepts (sparse files).
vm_make_family_images() {
	local dir=$1
	mkdir -p "$dir"
	rm -f "$dir/xfs.img" "$dir/btrfs.img" "$dir/f2fs.img"
	truncate -s 300M "$dir/xfs.img" &&
	mkfs.xfs -q -f -L xfs "$dir/xfs.img" &&
	truncate -s 128M "$dir/btrfs.img" &&
	mkfs.btrfs -q -f -L btrfs "$dir/btrfs.img" > /dev/null &&
	truncate -s 128M "$dir/f2fs.img" &&
	mkfs.f2fs -q -f -l f2fs "$dir/f2fs.img" > /dev/null
}

# vm_boot KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG IMAGE...: boots one VM.
# The console ttyS0 (kernel messages, all guest output) and qemu's own
# messages go to CONSOLE_LOG,
# the second serial port (result lines only) to RESULTS_LOG.  Returns
# qemu's status; 124 when the hard timeout hit.  VM_ACCEL, if set, is
# the accelerator's arguments (make bench's and the budget guard's
# -icount), else EXT4DIST_VM_KVM picks KVM or TCG.
vm_boot() {
	local kdir=$1 initrd=$2 mode=$3 console=$4 results=$5 img letters disks
	local -a accel drives
	shift 5
	letters=abcdefgh
	disks=""
	drives=()
	for img in "$@"; do
		disks=$disks${disks:+,}vd${letters:${#drives[@]}/2:1}
		drives+=(-drive "file=$img,format=raw,if=virtio")
	done
	if [ -n "${VM_ACCEL:-}" ]; then
		read -ra accel <<< "$VM_ACCEL"
	elif [ "${EXT4DIST_VM_KVM:-0}" = 1 ]; then
		accel=(-accel kvm -cpu host)
	else
		accel=(-accel tcg -cpu max)
	fi
	rm -f "$results"
	timeout --kill-after=10 "$VM_TIMEOUT" \
		qemu-system-x86_64 "${accel[@]}" -m "$VM_MEM" -smp 1 \
		-display none -no-reboot -monitor none \
		-serial stdio -serial "file:$results" \
		-kernel "$(vm_kernel_image "$kdir")" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 ext4dist_mode=$mode ext4dist_disks=$disks${EXT4DIST_VM_ONLY:+ ext4dist_only=$EXT4DIST_VM_ONLY}" \
		"${drives[@]}" < /dev/null > "$console" 2>&1
}

# vm_results FILE: the result port's text without carriage returns.
vm_results() { tr -d '\r' < "$1" 2>/dev/null; }

# vm_judge RESULTS RC KVER CONSOLE_LOG: prints the guest's result lines (with
# the indented context under FAIL lines), then a FAIL line of its own when the
# guest did not finish cleanly: no end marker (timeout, panic), scripts that
# stopped early, or no PASS at all.  Returns 1 when anything failed.
vm_judge() {
	local results=$1 rc=$2 kver=$3 console=$4 end why status=0
	printf '%s\n' "$results" | grep -E '^(PASS|FAIL|SKIP) |^    ' || true
	grep -q '^FAIL ' <<< "$results" && status=1
	end=$(grep '^EXT4DIST-VM-END ' <<< "$results" || true)
	if [ -z "$end" ]; then
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			why="hard timeout of $VM_TIMEOUT s hit"
		else
			why="qemu exited $rc"
		fi
		echo "FAIL $kver vm-complete: the guest did not reach its end marker ($why); console tail:"
		tail -n 40 "$console" | tr -d '\r' | sed 's/^/    | /'
		status=1
	elif [ "${end##* rc=}" != 0 ]; then
		echo "FAIL $kver vm-complete: guest scripts stopped early (${end##* }); console tail:"
		tail -n 40 "$console" | tr -d '\r' | sed 's/^/    | /'
		status=1
	elif ! grep -q '^PASS ' <<< "$results"; then
		echo "FAIL $kver vm-complete: no PASS line at all"
		status=1
	fi
	return "$status"
}
