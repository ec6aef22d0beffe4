# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# Start-up: kprobes by address where the file system's module file is the
# build the kernel loaded, by name otherwise, with exact counts either way.
# Sourced by scenarios.sh (uses its O R W F and WANT).

KO_DIR=/lib/modules/$KERNEL/kernel/fs/ext4

# install_ko [FILE]: the ext4 module file where a distribution puts it
# (the initramfs holds the copy insmod loaded), or FILE in its place: a
# module file that is not the build the kernel loaded.
install_ko() {
	mkdir -p "$KO_DIR"
	cp "${1:-/lib/modules/ext4.ko}" "$KO_DIR/ext4.ko"
}

scenario_by_address() {
	local n path
	if [ ! -e /sys/module/ext4/initstate ]; then
		# ext4 built in: no module file to read.
		traced_run by-name-builtin /mnt/ext4/sx0 $O $R $W $F \
			--attach=tracefs -v -p @PID@ || return 0
		expect_counts by-name-builtin "$WANT"
		expect_verbose by-name-builtin-verbose "$ERR" \
			"kprobes by name (the kernel looks each one up): ext4 is not a module with a file in /lib/modules"
		return 0
	fi
	if ! install_ko; then
		fail by-address "precondition: cannot install $KO_DIR/ext4.ko"
		return 0
	fi
	for path in tracefs pmu; do
		if [ "$path" = pmu ] && [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
			continue
		fi
		traced_run "by-address-$path" "/mnt/ext4/sx-$path" $O $R $W $F \
			--attach=$path -v -p @PID@ || continue
		expect_counts "by-address-$path" "$WANT"
		expect_verbose "by-address-$path-verbose" "$ERR" \
			"kprobes by address: 6 functions from $KO_DIR/ext4.ko, the build the kernel loaded"
	done
	# The tracefs definitions written name addresses, not functions.
	n=$(grep -c '^ext4dist: wrote "[pr][0-9]*:kprobes/ext4dist_[0-9]*_[0-9a-f]*_[pr]_[a-z_0-9]* 0x[0-9a-f]*" to ' \
		"$WORK/by-address-tracefs.err" || true)
	check by-address-definitions "$n definitions by address" \
		"8 definitions by address" "$WORK/by-address-tracefs.err"

	# A module file of another build (jbd2's, with a build id of its
	# own, as after an update on disk): its addresses are not used.
	if ! install_ko /lib/modules/jbd2.ko; then
		fail by-name-stale "precondition: no /lib/modules/jbd2.ko to stand in"
		rm -rf "/lib/modules/$KERNEL"
		return 0
	fi
	traced_run by-name-stale /mnt/ext4/sx1 $O $R $W $F \
		--attach=tracefs -v -p @PID@ || { rm -rf "/lib/modules/$KERNEL"; return 0; }
	rm -rf "/lib/modules/$KERNEL"
	expect_counts by-name-stale "$WANT"
	expect_verbose by-name-stale-verbose "$ERR" \
		"kprobes by name (the kernel looks each one up): the module file's build id is not the loaded module's (/sys/module/ext4/notes/.note.gnu.build-id)"
}
