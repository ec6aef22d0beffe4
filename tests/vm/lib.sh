# shellcheck shell=bash
# Host side of the VM tests (sourced by run.sh and demo.sh; bash).
#
# Fetches Debian kernel packages (cached outside git), builds an initramfs
# (busybox-static, the needed modules, ext4dist, the workload program and
# the guest scripts), makes small ext4/ext3/ext2 images and boots them in
# qemu.  Environment:
#   EXT4DIST_VM_CACHE    kernel cache (default /var/cache/ext4dist-vm, or
#                        ~/.cache/ext4dist-vm when that is not writable)
#   EXT4DIST_VM_BUILD    build products (default <top>/build/vm)
#   EXT4DIST_VM_TIMEOUT  hard limit for one boot in seconds (default 600)
#   EXT4DIST_VM_KVM=1    use KVM instead of TCG
#   EXT4DIST_BIN         binary to test (default <top>/ext4dist)
#   EXT4DIST_TEST_BIN    its test build, /bin/ext4dist-test in the guest
#                        (default <top>/build/ext4dist-test)
#   EXT4DIST_VM_ONLY     run only these scenarios (comma-separated names
#                        without "scenario_", e.g. stress,faults)

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_TOP=$(cd "$VM_DIR/../.." && pwd)
# The kernel cache lives outside the tree; without write access to
# /var/cache (not root), under the user's cache directory.
if [ -n "${EXT4DIST_VM_CACHE:-}" ]; then
	VM_CACHE=$EXT4DIST_VM_CACHE
elif mkdir -p /var/cache/ext4dist-vm 2>/dev/null && [ -w /var/cache/ext4dist-vm ]; then
	VM_CACHE=/var/cache/ext4dist-vm
else
	VM_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/ext4dist-vm
fi
VM_BUILD=${EXT4DIST_VM_BUILD:-$VM_TOP/build/vm}
VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-600}

# Modules the guest loads, by name; their dependencies come from
# modules.dep, built-in ones (modules.builtin) are skipped.
VM_EARLY_MODULES="virtio_pci virtio_blk"
# crc32c_generic is only a soft dependency of ext4 (modules.softdep), but
# mounting fails without a crc32c implementation.
VM_EXT4_MODULES="crc32c_generic ext4"

vm_log() { echo "vm: $*" >&2; }

# vm_series_regex SERIES: the Debian package name of the plain amd64
# kernel of a series, e.g. linux-image-6.1.0-57-amd64-unsigned or
# linux-image-6.12.118+deb12-amd64-unsigned (not -rt, not -cloud).
vm_series_regex() {
	local esc=${1//./\\.}
	echo "^linux-image-$esc\\.[0-9]+(-[0-9]+|\\+deb[0-9]+)-amd64-unsigned\$"
}

# vm_resolve_package SERIES: newest package name of SERIES known to apt.
vm_resolve_package() {
	local re pkg
	re=$(vm_series_regex "$1")
	pkg=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$re" | sort -V | tail -n 1)
	if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
		vm_log "no $1 kernel in the apt lists: running apt-get update"
		apt-get update -qq >&2 || true
		pkg=$(apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$re" | sort -V | tail -n 1)
	fi
	[ -n "$pkg" ] && echo "$pkg"
}

# vm_fetch_kernel SERIES: prints the cache directory holding the extracted
# kernel package (root/boot/vmlinuz-*, root/lib/modules/<ver> with
# modules.dep).  Downloads and extracts only when not cached.  Falls back to
# the newest cached kernel of SERIES when apt cannot resolve or download.
vm_fetch_kernel() {
	local series=$1 pkg ver dir tmp deb kver old
	local -a sandbox
	mkdir -p "$VM_CACHE"
	pkg=$(vm_resolve_package "$series") || true
	if [ -n "$pkg" ]; then
		ver=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null |
			sed -n 's/^Version: //p' | head -n 1)
		dir=$VM_CACHE/${pkg}_$ver
		if [ -n "$ver" ] && [ -e "$dir/.complete" ]; then
			echo "$dir"
			return 0
		fi
		if [ -n "$ver" ]; then
			vm_log "fetching $pkg $ver into $VM_CACHE"
			tmp=$(mktemp -d "$VM_CACHE/.fetch.XXXXXX")
			# As root, apt would try to drop to _apt, which cannot
			# write to $tmp, and warn.
			sandbox=()
			[ "$(id -u)" != 0 ] || sandbox=(-o APT::Sandbox::User=root)
			if (cd "$tmp" && apt-get download -q "${sandbox[@]}" "$pkg=$ver" >&2) &&
			   deb=$(ls "$tmp"/*.deb) &&
			   dpkg-deb -x "$deb" "$tmp/root" &&
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
			vm_log "download or extraction of $pkg $ver failed"
		fi
	fi
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

vm_kernel_version() { ls "$1/root/lib/modules"; }
vm_kernel_image() { echo "$1/root/boot/vmlinuz-$(vm_kernel_version "$1")"; }

# vm_module_order KDIR NAME...: the modules NAME and their dependencies in
# load order, as paths relative to lib/modules/<ver>.  Built-in modules are
# skipped; an unknown name is an error.
vm_module_order() {
	local kdir=$1 mdir
	shift
	mdir=$kdir/root/lib/modules/$(vm_kernel_version "$kdir")
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
# unprivileged uid) and sigdfl (for the shell stub).
vm_build_tools() {
	mkdir -p "$VM_BUILD"
	local src out
	for src in "$VM_DIR/workload.c" "$VM_DIR/runas.c" "$VM_DIR/stub/sigdfl.c"; do
		out=$VM_BUILD/$(basename "$src" .c)
		if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
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
# Modules already in another list of DEST are not repeated.
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
	# The scenarios that need fixture paths run the test build (make).
	[ ! -f "$ext4dist_test" ] || cp "$ext4dist_test" "$stage/bin/ext4dist-test"
	cp "$VM_BUILD/workload" "$stage/bin/workload"
	cp "$VM_BUILD/runas" "$stage/bin/runas"

	cp "$VM_DIR/guest/init" "$stage/init"
	cp "$VM_DIR"/guest/*.sh "$stage/guest/"
	chmod 755 "$stage/init" "$stage"/guest/*.sh

	# shellcheck disable=SC2086 # lists of module names
	vm_copy_modules "$kdir" "$stage/lib/modules" early.list $VM_EARLY_MODULES &&
	vm_copy_modules "$kdir" "$stage/lib/modules" ext4.list $VM_EXT4_MODULES ||
		return 1

	(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out"
}

# vm_make_images DIR: DIR/{ext4,ext3,ext2}.img, each with a 256 KiB file
# "data" at the root (mkfs -d).
vm_make_images() {
	local dir=$1 fs
	mkdir -p "$dir/content"
	head -c 262144 /dev/urandom > "$dir/content/data"
	for fs in ext4 ext3 ext2; do
		rm -f "$dir/$fs.img"
		"mkfs.$fs" -q -F -b 4096 -d "$dir/content" "$dir/$fs.img" 64M > /dev/null ||
			return 1
	done
}

# vm_boot KDIR INITRD MODE CONSOLE_LOG RESULTS_LOG IMAGE...: boots one VM.
# The console ttyS0 (kernel messages, all guest output) and qemu's own
# messages go to CONSOLE_LOG,
# the second serial port (result lines only) to RESULTS_LOG.  Returns
# qemu's status; 124 when the hard timeout hit.
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
	if [ "${EXT4DIST_VM_KVM:-0}" = 1 ]; then
		accel=(-accel kvm -cpu host)
	else
		accel=(-accel tcg -cpu max)
	fi
	rm -f "$results"
	timeout --kill-after=10 "$VM_TIMEOUT" \
		qemu-system-x86_64 "${accel[@]}" -m 512M -smp 1 \
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
	printf '%s\n' "$results" | grep -E '^(PASS|FAIL) |^    ' || true
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
