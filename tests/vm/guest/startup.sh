# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# Start-up: kprobes by address where the file system's module file is the
# build the kernel loaded, by name otherwise, with exact counts either way.
# Sourced by scenarios.sh (uses its O R W F and WANT).

KO_DIR=/lib/modules/$KERNEL/kernel/fs/ext4

# kernel_looks_up: where ext4dist asks the kernel for a module's
# addresses (bpf_kallsyms_lookup_name on "module:function") and never
# reads its file: 6.2+, and 5.16+ where the kernel has 6.2's binary
# search by name (kallsyms_lookup_names: Debian's 6.1.0-57 does); else
# the file's symbol tables.
kernel_looks_up() {
	local v=${KERNEL%%-*} major minor
	major=${v%%.*}
	minor=${v#*.}
	minor=${minor%%.*}
	[ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 2 ]; } && return 0
	[ "$major" -gt 5 ] || { [ "$major" -eq 5 ] && [ "$minor" -ge 16 ]; } || return 1
	grep -q ' kallsyms_lookup_names$' /proc/kallsyms
}
BY_KERNEL="the kernel's own symbol table (bpf_kallsyms_lookup_name)"

# install_ko [FILE]: the ext4 module file where a distribution puts it
# (the initramfs holds the copy insmod loaded), or FILE in its place: a
# module file that is not the build the kernel loaded.
install_ko() {
	mkdir -p "$KO_DIR"
	cp "${1:-/lib/modules/ext4.ko}" "$KO_DIR/ext4.ko"
}

# by_sysmap: ext4 built in, so no module file: the addresses come from
# /boot/System.map once the generic read path's f_op probe has seen what
# the map says (ext4_dir_operations); a map that is not this kernel's is
# never trusted.
by_sysmap() {
	local map=/boot/System.map-$KERNEL f n want_defs hits=0 fo fops
	for f in ext4_file_read_iter ext4_file_write_iter ext4_file_open \
		ext4_sync_file ext4_file_getattr ext4_release_dir generic_file_read_iter; do
		! awk -v f="$f" '$3 == f { x = 1 } END { exit !x }' "$map" || hits=$((hits + 1))
	done
	traced_run by-sysmap /mnt/ext4/sx0 $O $R $W $F \
		--attach=tracefs --read-path=generic -v -p @PID@ || return 0
	expect_counts by-sysmap "$WANT"
	expect_verbose by-sysmap-verbose "$ERR" \
		"kprobes by address: $hits functions from $map, which the f_op probe confirmed"
	# The f_op probe and the entry probes by address; return probes
	# too where kprobe_events takes them on an address (4.12+), else by
	# name.
	want_defs=5
	! has_maxactive || want_defs=9
	n=$(grep -c '^ext4dist: wrote "[pr][0-9]*:kprobes/ext4dist_[0-9]*_[0-9a-f]*_[pr]_[a-z_0-9]* 0x[0-9a-f]*" to ' "$ERR" || true)
	check by-sysmap-definitions "$n definitions by address" \
		"$want_defs definitions by address" "$ERR"

	# Another build's map: its ext4_release_dir where ext4_file_open is
	# and its ext4_dir_operations where ext4_file_operations is.  The f_op
	# probe at that address never runs (a directory is opened), so it is
	# made again by name, and the map's ext4_dir_operations then disagrees.
	fo=$(awk '$3 == "ext4_file_open" { print $1 }' "$map")
	fops=$(awk '$3 == "ext4_file_operations" { print $1 }' "$map")
	cp "$map" /tmp/System.map.real
	awk -v fo="$fo" -v fops="$fops" '
		$3 == "ext4_release_dir" { $1 = fo }
		$3 == "ext4_dir_operations" { $1 = fops }
		{ print }' /tmp/System.map.real > "$map"
	traced_run by-sysmap-stale /mnt/ext4/sx1 $O $R $W $F \
		--attach=tracefs --read-path=generic -v -p @PID@ || {
		mv /tmp/System.map.real "$map"
		return 0
	}
	mv /tmp/System.map.real "$map"
	expect_counts by-sysmap-stale "$WANT"
	n=$(grep -c '^ext4dist: kprobes by address' "$ERR" || true)
	if [ "$n" != 0 ]; then
		fail by-sysmap-stale-verbose "addresses of the stale map used" "$ERR"
	elif ! grep -q "^ext4dist: the f_op probe at System.map's address of ext4_release_dir: .*; again by name$" "$ERR"; then
		fail by-sysmap-stale-verbose "no 'again by name' line" "$ERR"
	else
		check by-sysmap-stale-verbose \
			"$(grep -c "^ext4dist: wrote \"[pr]:kprobes/ext4dist_[0-9]*_[0-9a-f]*_[pr]_[a-z_0-9]* 0x" "$ERR" || true) definitions by address" \
			"1 definitions by address" "$ERR"
	fi
}

scenario_by_address() {
	local n path from
	if [ ! -e /sys/module/ext4/initstate ]; then
		by_sysmap
		return 0
	fi
	if ! install_ko; then
		fail by-address "precondition: cannot install $KO_DIR/ext4.ko"
		return 0
	fi
	from="$KO_DIR/ext4.ko, the build the kernel loaded"
	! kernel_looks_up || from=$BY_KERNEL
	for path in tracefs pmu; do
		if [ "$path" = pmu ] && [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
			continue
		fi
		traced_run "by-address-$path" "/mnt/ext4/sx-$path" $O $R $W $F \
			--attach=$path -v -p @PID@ || continue
		expect_counts "by-address-$path" "$WANT"
		expect_verbose "by-address-$path-verbose" "$ERR" \
			"kprobes by address: 6 functions from $from"
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
	# 6.2+ never reads the file: the kernel's addresses, whatever it is.
	if kernel_looks_up; then
		expect_verbose by-name-stale-verbose "$ERR" \
			"kprobes by address: 6 functions from $BY_KERNEL"
	else
		expect_verbose by-name-stale-verbose "$ERR" \
			"kprobes by name (the kernel looks each one up): the module file's build id is not the loaded module's (/sys/module/ext4/notes/.note.gnu.build-id)"
	fi
}
