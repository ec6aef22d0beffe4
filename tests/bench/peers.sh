# shellcheck shell=bash
# Sourced by tests/bench/run.sh: the peers make bench runs beside
# ext4dist, from Debian trixie's packages (a private apt configuration of
# tools/apt.sh: nothing of the machine's own apt is touched):
#   libbpf-tools  /usr/sbin/ext4dist-libbpf (fsdist, libbpf and CO-RE)
#   bpftrace      tests/bench/ext4dist.bt (the package ships no ext4 tool;
#                 keyed by probe instead of func before 5.15)
# Both with their libraries (and coreutils' stdbuf: their stdout is a pipe
# here, and the banner must come when they print it, not at exit), unpacked into one root put on a disk image
# that the guest mounts (read-only) and runs them in with chroot.  BCC
# (bpfcc-tools) is not among them: it compiles its programs in the guest
# against the running kernel's headers, which Debian's kernels carry
# neither built in (CONFIG_IKHEADERS is off) nor in the image packages.
#
# bench_peers_image OUT: OUT/peers.img, built again when missing; 1 when
# the packages cannot be had (said on stderr).
BENCH_PEER_PKGS="libbpf-tools bpftrace coreutils"

bench_peers_image() {
	local out=$1 d root=$1/peers-root deb
	[ ! -s "$out/peers.img" ] || [ "$BENCH_DIR/ext4dist.bt" -nt "$out/peers.img" ] ||
		return 0
	# shellcheck source=../../tools/apt.sh
	. "$TOP/tools/apt.sh"
	# shellcheck disable=SC2086 # a list of packages
	d=$(apt_private_ready trixie amd64 $BENCH_PEER_PKGS) || return 1
	rm -rf "$d/cache/archives/"*.deb "$root"
	# The whole dependency closure: the private status lists nothing.
	# shellcheck disable=SC2086
	apt_private "$d" amd64 apt-get install -q -y --download-only \
		--no-install-recommends -o Debug::NoLocking=1 $BENCH_PEER_PKGS >&2 ||
		return 1
	mkdir -p "$root"
	for deb in "$d"/cache/archives/*.deb; do
		dpkg-deb -x "$deb" "$root" || return 1
	done
	# usrmerge: the links base-files would make.
	for l in bin sbin lib lib64; do
		[ -e "$root/$l" ] || [ ! -d "$root/usr/$l" ] || ln -s "usr/$l" "$root/$l"
	done
	mkdir -p "$root"/{proc,sys,dev,tmp,bench}
	cp "$BENCH_DIR/ext4dist.bt" "$root/bench/"
	sed 's/@usecs\[func\]/@usecs[probe]/' "$BENCH_DIR/ext4dist.bt" > "$root/bench/ext4dist-probe.bt"
	grep -q '@usecs\[probe\]' "$root/bench/ext4dist-probe.bt" || return 1
	rm -f "$out/peers.img"
	truncate -s "$(( $(du -sm "$root" | cut -f1) * 12 / 10 + 64 ))M" "$out/peers.img" &&
		mkfs.ext4 -q -F -L peers -d "$root" "$out/peers.img"
}
