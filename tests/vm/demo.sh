#!/bin/bash
# make demo: boots the Debian 6.1 kernel in qemu, runs plain `ext4dist`
# while a mixed workload (large and small files: opens, reads, writes,
# fsyncs, cat, cp) runs on an ext4 disk, stops it with Ctrl-C (SIGINT) and
# shows its output as a user would see it; then the same for `ext4slower
# 1` over a shorter workload.  Same cache as run.sh.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

series=${EXT4DIST_DEMO_SERIES:-6.1}
if ! command -v qemu-system-x86_64 > /dev/null; then
	echo "demo: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)" >&2
	exit 1
fi
vm_build_tools
kdir=$(vm_fetch_kernel "$series") || {
	echo "demo: cannot get the Debian $series kernel package" >&2
	exit 1
}
kver=$(vm_kernel_version "$kdir")
out=$VM_BUILD/demo-$kver
mkdir -p "$out"
vm_build_initramfs "$kdir" "$out/initramfs.cpio.gz"
vm_make_images "$out/images"

echo "demo: booting Debian kernel $kver in qemu (TCG, about half a minute)..."
rc=0
vm_boot "$kdir" "$out/initramfs.cpio.gz" demo "$out/console.log" \
	"$out/results.log" "$out/images/ext4.img" || rc=$?
results=$(vm_results "$out/results.log")
if ! grep -q '^DEMO-OUTPUT-BEGIN' <<< "$results"; then
	echo "demo: the VM did not produce ext4dist output (qemu exit $rc); console tail:" >&2
	tr -d '\r' < "$out/console.log" | tail -n 40 >&2
	grep '^DEMO-FAILED\|^    ' <<< "$results" >&2 || true
	exit 1
fi
echo
echo "# In the VM, while 3 files of 4 MiB (64 KiB writes), 40 small files,"
echo "# cat and cp run on ext4; stopped with Ctrl-C (SIGINT):"
echo "\$ ext4dist"
sed -n '/^DEMO-OUTPUT-BEGIN/,/^DEMO-OUTPUT-END/p' <<< "$results" |
	sed '1d;$d'
echo
echo "Each histogram counts calls of one ext4 operation (ext4_file_read_iter,"
echo "ext4_file_write_iter, ext4_file_open, ext4_sync_file) by latency bucket"
echo "in microseconds; fsyncs are the slow ones because they wait for the disk."
end=$(grep '^DEMO-OUTPUT-END' <<< "$results")
[ "${end##*rc=}" = 0 ] || { echo "demo: ext4dist exited ${end##*rc=}" >&2; exit 1; }
if ! grep -q '^SLOWER-OUTPUT-END' <<< "$results"; then
	echo "demo: no ext4slower output" >&2
	grep '^DEMO-FAILED\|^    ' <<< "$results" >&2 || true
	exit 1
fi
echo
echo "# Then, while 2 files get 64 KiB writes, reads and 2 fsyncs each and a"
echo "# small file a few calls, each operation slower than 1 ms as it ends:"
echo "\$ ext4slower 1"
sed -n '/^SLOWER-OUTPUT-BEGIN/,/^SLOWER-OUTPUT-END/p' <<< "$results" |
	sed '1d;$d'
end=$(grep '^SLOWER-OUTPUT-END' <<< "$results")
[ "${end##*rc=}" = 0 ] || { echo "demo: ext4slower exited ${end##*rc=}" >&2; exit 1; }
