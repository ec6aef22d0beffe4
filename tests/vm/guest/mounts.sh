# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# The generic read path starts wherever an ext4 file system is mounted,
# whatever that file system holds and wherever it is mounted: its f_op
# discovery opens and closes the root directory of the only ext4 mount,
# which here is empty, read-only, holds only a directory and a symbolic
# link, or sits deep in the tree.  The workload's disk is mounted only
# after the banner, so the discovery can have used nothing else, and the
# special file system must come out unchanged.
# Sourced by scenarios.sh (uses its O R W F WANT, load_ext4 and
# mount_ext4_now); each scenario runs while no ext4 is mounted and leaves
# the mounts as it found them.

# The special file systems (tests/vm/lib.sh vm_make_images): only
# lost+found; a root with only a directory and a symbolic link.
BARE_DEV=/dev/vdd
ODD_DEV=/dev/vde

# fs_listing DIR: every entry under DIR (DIR's own file system only):
# name (with a link's target), type, mode, owner, size, links, inode,
# mtime and ctime to the nanosecond; then the free blocks and inodes.
fs_listing() {
	(
		cd "$1" || exit 1
		find . -xdev | sort | while IFS= read -r p; do
			stat -c '%N %F %a %u:%g size=%s links=%h inode=%i mtime=%y ctime=%z' "$p"
		done
		stat -f -c 'free: %f of %b blocks, %d of %c inodes' .
	)
}

# root_entries DIR: the names and types at DIR's root, one a line.
root_entries() {
	(cd "$1" && find . -xdev -mindepth 1 -maxdepth 1 | sort |
		while IFS= read -r p; do stat -c '%n %F' "$p"; done)
}

# generic_read_alone NAME DEV MNT RW|RO ROOT: with DEV mounted at MNT
# (RO: read-only) as the only ext4 mount, whose root holds exactly ROOT
# (root_entries' lines joined by "; "), `ext4dist --read-path=generic -v
# -p` starts, discovers f_op on MNT under a probe on ext4_release_dir and
# counts the workload's operations exactly on /dev/vda, mounted after its
# banner; MNT's listing is the same afterwards, and for RO the device's
# bytes from before the mount to after the unmount.
generic_read_alone() {
	local name=$1 dev=$2 mnt=$3 mode=$4 root=$5 tracefs_was rc=0 got
	local sum_before="" sum_after="" opts=rw
	[ "$mode" != RO ] || opts=ro
	load_ext4
	if grep -q ' ext4 ' /proc/mounts; then
		fail "$name" "precondition: an ext4 file system is already mounted: $(grep ' ext4 ' /proc/mounts | tr '\n' ' ')"
		return 0
	fi
	if [ ! -b "$dev" ]; then
		fail "$name" "precondition: no $dev (the host attaches bare.img and odd.img as vdd and vde)"
		return 0
	fi
	tracefs_was=$(grep -c ' tracefs ' /proc/mounts || true)
	[ "$opts" = rw ] || sum_before=$(md5sum < "$dev" | cut -d" " -f1)
	mkdir -p "$mnt" /mnt/ext4
	if ! mount -t ext4 -o "$opts" "$dev" "$mnt"; then
		fail "$name" "precondition: mount -t ext4 -o $opts $dev $mnt failed"
		return 0
	fi
	# The file system is the one this scenario is about.
	got=$(root_entries "$mnt" | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')
	check "$name-fixture" "$(awk -v m="$mnt" '$2 == m { print $3, substr($4, 1, 2) }' /proc/mounts): $got" \
		"ext4 $opts: $root"
	fs_listing "$mnt" > "$WORK/$name.before"

	ext4_ko_install
	TRACED_HOOK=mount_ext4_now traced_run "$name" "/mnt/ext4/$name" \
		"$O" "$R" "$W" "$F" --read-path=generic -v -p @PID@ || rc=1
	TRACED_HOOK=
	ext4_ko_remove
	if [ "$rc" = 0 ]; then
		expect_counts "$name" "$WANT"
		check "$name-fop-offset" \
			"$(sed -n 's/^ext4dist: \(f_op discovered at offset [0-9]* of struct file (by opening and closing .* under a probe on [a-z_0-9]*\):.*/\1/p' "$ERR")" \
			"f_op discovered at offset $(want_fop_offset) of struct file (by opening and closing $mnt under a probe on ext4_release_dir" \
			"$ERR"
	fi
	if grep -q ' /mnt/ext4 ' /proc/mounts; then umount /mnt/ext4; fi

	# Nothing created, removed or changed on the special file system.
	fs_listing "$mnt" > "$WORK/$name.after"
	if cmp -s "$WORK/$name.before" "$WORK/$name.after"; then
		pass "$name-fs-unchanged"
	else
		diff "$WORK/$name.before" "$WORK/$name.after" > "$WORK/$name.diff" || true
		fail "$name-fs-unchanged" "the listing of $mnt changed" "$WORK/$name.diff"
	fi
	if ! umount "$mnt"; then
		fail "$name-umount" "umount $mnt failed: $(grep " $mnt " /proc/mounts || true)"
		return 0
	fi
	if [ "$opts" = ro ]; then
		sum_after=$(md5sum < "$dev" | cut -d" " -f1)
		check "$name-device-unchanged" "$dev md5 $sum_after" "$dev md5 $sum_before"
	fi
	# tracefs as it was (ext4dist and the checks mount it).
	if [ "$tracefs_was" = 0 ]; then
		while grep -q ' tracefs ' /proc/mounts; do umount "$TRACEFS" || break; done
	fi
}

# --- An empty file system: only what mkfs leaves (lost+found).
scenario_generic_read_empty_fs() {
	generic_read_alone generic-read-empty-fs "$BARE_DEV" /mnt/empty RW \
		"./lost+found directory"
	rmdir /mnt/empty 2>/dev/null || true
}

# --- The same, mounted read-only: not a byte of the device changes.
scenario_generic_read_readonly_fs() {
	generic_read_alone generic-read-readonly-fs "$BARE_DEV" /mnt/readonly RO \
		"./lost+found directory"
	rmdir /mnt/readonly 2>/dev/null || true
}

# --- A root holding only a directory and a symbolic link to it: no
# regular file, not even lost+found.
scenario_generic_read_dirs_and_links() {
	generic_read_alone generic-read-dirs-and-links "$ODD_DEV" /mnt/links RW \
		"./dir directory; ./link symbolic link"
	rmdir /mnt/links 2>/dev/null || true
}

# --- ext4 mounted only deep in the tree, below another file system
# (tmpfs at /mnt/deep).
scenario_generic_read_deep_mount() {
	local deep=/mnt/deep/a/b/c/d
	mkdir -p /mnt/deep
	if ! mount -t tmpfs tmpfs /mnt/deep; then
		fail generic-read-deep-mount "precondition: cannot mount tmpfs at /mnt/deep"
		rmdir /mnt/deep 2>/dev/null || true
		return 0
	fi
	mkdir -p "$deep"
	generic_read_alone generic-read-deep-mount "$ODD_DEV" "$deep" RW \
		"./dir directory; ./link symbolic link"
	# Both mounts gone again, unless the special one could not go.
	if ! grep -q " $deep " /proc/mounts && umount /mnt/deep; then
		rmdir /mnt/deep 2>/dev/null || true
	fi
}
