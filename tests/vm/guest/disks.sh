#!/bin/sh
# shellcheck shell=dash
# vda to vde must be the ext4, ext3, ext2, bare and odd images (the
# scenarios mount them by those names) where the machine may order them
# otherwise (virtio-mmio, virtio-ccw; the armhf and vm-cross guests):
# their labels say which is which, read from the superblock
# (s_volume_name, byte 1024 + 120; busybox-static has no blkid).
# shellcheck source=lib.sh
. /guest/lib.sh
got=""
for d in vda vdb vdc vdd vde; do
	got="$got $(dd if="/dev/$d" bs=1 skip=1144 count=16 2>/dev/null | tr -d '\000')"
done
if [ "$got" != " ext4 ext3 ext2 bare odd" ]; then
	out "FAIL $KERNEL vm-disk-order: labels of vda to vde:$got, want ext4 ext3 ext2 bare odd"
	exit 1
fi
pass vm-disk-order
