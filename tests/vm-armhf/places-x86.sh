#!/bin/bash
# The armhf bench's measure of the 8 probes by place (guest/armhf-places.sh:
# floor8 --time by name, ext4:NAME and address, through the PMU and
# kprobe_events, and the profiles to the banner), on an x86_64 kernel of
# the VM suite, booted once under qemu -icount shift=0 as the budget
# guard boots it: there a kprobe is an ftrace site, and registering one
# walks ftrace's records.
#
#   tests/vm-armhf/places-x86.sh [SERIES]     default: 6.12
#   PLACES_RUNS=N                             floor8 runs per place (5)
#
# Prints the two tables of places.awk; the records stay in
# build/places-x86-SERIES/records.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_DIR=$TOP/tests/bench
series=${1:-6.12}
OUT=$TOP/build/places-x86-$series
export EXT4DIST_VM_BUILD=${EXT4DIST_VM_BUILD:-$OUT/vm}
# shellcheck source=SCRIPTDIR/../vm/lib.sh
. "$TOP/tests/vm/lib.sh"
# shellcheck source=SCRIPTDIR/../bench/lib.sh
. "$BENCH_DIR/lib.sh"
CC=${CC:-gcc}
# shellcheck disable=SC2034 # bench_build_tools reads it: no clang, no variants
CLANG=
BIN=$TOP/ext4dist

command -v qemu-system-x86_64 > /dev/null ||
	{ echo "SKIP places-x86: qemu-system-x86_64 is not installed"; exit 0; }
if [ ! -f "$BIN" ] || [ ! -f "$TOP/build/libext4dist.a" ]; then
	echo "FAIL places-x86: $BIN not built (make)"
	exit 1
fi
mkdir -p "$OUT"
if ! bench_build_tools "$OUT" > "$OUT/tools.log" 2>&1 || ! vm_build_tools ||
   ! "$CC" -static -O2 -Wall -Wextra -Werror -o "$OUT/floor8" \
	"$TOP/tests/vm-armhf/floor8.c" >> "$OUT/tools.log" 2>&1; then
	cat "$OUT/tools.log"
	echo "FAIL places-x86: cannot build the guest's tools"
	exit 1
fi
KDIR=$(vm_fetch_kernel "$series") ||
	{ echo "SKIP places-x86: cannot get $(vm_series_source "$series")"; exit 0; }
# lib.sh's initramfs plus a second archive: the tools and the guest
# script as /guest/demo.sh (a later file of the concatenation wins).
stage=$OUT/overlay
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/guest"
cp "$OUT/bench_probe" "$OUT/floor8" "$stage/bin/"
cp "$TOP/tests/vm-armhf/guest/armhf-places.sh" "$stage/guest/"
cat > "$stage/guest/demo.sh" <<GUEST
#!/bin/sh
set -eu
. /guest/lib.sh
b() { out "PLACE \$*"; }
bout() {
	"\$@" > "\$WORK/bout" 2>&1 || b "error what=\$1-\$2 rc=\$?"
	while IFS= read -r l; do b "\$l"; done < "\$WORK/bout"
}
load_modules /lib/modules/ext4.list
ext4_ko_install
mkdir -p /mnt/ext4
mount -t ext4 -o nobarrier /dev/vda /mnt/ext4
ensure_tracefs
. /guest/armhf-places.sh
places_measure ${PLACES_RUNS:-5}
b done
GUEST
chmod 755 "$stage"/guest/*.sh "$stage"/bin/*
bench_overlay_boot places "$stage" "PLACE done" || exit 1
vm_results "$OUT/places-results.log" | sed -n 's/^PLACE //p' > "$OUT/records"
grep '^error' "$OUT/records" | sed 's/^/places-x86: /' || true
echo "places on $(vm_kernel_version "$KDIR") (x86_64, -icount shift=0)"
awk -f "$TOP/tests/vm-armhf/places.awk" "$OUT/records"
