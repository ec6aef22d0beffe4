# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# The paths the vanilla 4.9.337 and 4.19.222 kernels took, now that their
# images are withdrawn (they were built from sources this project may not
# hold): each scenario below names the old kernel it stands for and takes
# away on a Debian kernel what that kernel lacked.
#   - ext4 built in: the test build's --test-sys-module points at a
#     /sys/module without ext4, and /boot/System.map-<release> is written
#     here from kallsyms, moved by a made-up KASLR slide and without
#     _text, as a map of a built-in ext4 (with only the functions the old
#     kernel had);
#   - what a kernel before 4.17/4.12/4.11/4.10 lacked: --pretend
#     (no-pmu, no-maxactive, no-getattr, no-read-iter), which answers for
#     the kernel at the one place ext4dist asks it.
# Unit tests cover the rest with captured fixtures (test_kversion's
# 4.19.222 code 0x0413ff, test_name_offsets' peeks of 4.9 and 4.19,
# test_sysmap's map without _text, test_legacy_object's 4.9 verifier
# rules).  Sourced by scenarios.sh (uses O R W F, WANT; legacy.sh's
# expect_verbose).

# A slide that is a multiple of 2 MiB, as KASLR's, and not 0: the map's
# addresses must be moved to be right.
OLD_SLIDE=0x3e00000
OLD_SYSMODULE=$WORK/sys-module-without-ext4

# old_map_write SYMBOL...: /boot/System.map-$KERNEL as a built-in ext4's
# map: the first text symbol of kallsyms (where ext4dist measures the
# slide) and SYMBOL..., each at its kallsyms address less OLD_SLIDE.  The
# Debian placeholder is kept aside (old_map_restore).
old_map_write() {
	local map=/boot/System.map-$KERNEL first sym line addr type
	[ -e "$map.debian" ] || mv "$map" "$map.debian"
	first=$(awk '$2 == "T" || $2 == "t" { print $3; exit }' /proc/kallsyms)
	: > "$map"
	for sym in "$first" "$@"; do
		line=$(awk -v s="$sym" '$3 == s { print $1, $2; exit }' /proc/kallsyms)
		[ -n "$line" ] || return 1
		addr=${line% *} type=${line#* }
		printf '%016x %s %s\n' "$((0x$addr - OLD_SLIDE))" "$type" "$sym" >> "$map"
	done
	mkdir -p "$OLD_SYSMODULE"
}

old_map_restore() {
	local map=/boot/System.map-$KERNEL
	[ ! -e "$map.debian" ] || mv "$map.debian" "$map"
}

# old_map NAME SYMBOL...: old_map_write, else NAME's FAIL line and 1.
# The old kernels were x86_64 builds with KALLSYMS_ALL: a kernel whose
# kallsyms has no data symbols (Debian's armmp) cannot stand for them,
# and says so (SKIP).
old_map() {
	local name=$1
	shift
	if ! grep -q ' ext4_file_operations' /proc/kallsyms; then
		out "SKIP $KERNEL $name: the vanilla 4.9 and 4.19 it stands for were x86_64 kernels with KALLSYMS_ALL; this one lists no ext4_file_operations to write their System.map from (the x86_64 suite runs it)"
		return 1
	fi
	old_map_write "$@" && return 0
	old_map_restore
	fail "$name" "precondition: a symbol of the map is not in /proc/kallsyms"
	return 1
}

# What 4.9's System.map had of ext4dist's symbols: no ext4_file_read_iter
# (4.10), no ext4_file_getattr (4.11).
OLD_49_SYMS="ext4_file_write_iter ext4_file_open ext4_sync_file
	ext4_release_dir generic_file_read_iter ext4_file_operations
	ext4_dir_operations"

# old_expect_defs NAME FILE KIND WANT: FILE's -v names WANT kprobe_events
# definitions of KIND: "p-addr", "r-addr" or "r-name".
old_expect_defs() {
	local n
	case $3 in
	p-addr) n=$(grep -c '^ext4dist: wrote "p:kprobes/[^ ]* 0x[0-9a-f]*" to ' "$2" || true) ;;
	r-addr) n=$(grep -c '^ext4dist: wrote "r[0-9]*:kprobes/[^ ]* 0x[0-9a-f]*" to ' "$2" || true) ;;
	r-name) n=$(grep -c '^ext4dist: wrote "r[0-9]*:kprobes/[^ ]* [a-z_][a-z0-9_]*" to ' "$2" || true) ;;
	esac
	check "$1" "$n" "$4" "$2"
}

# --- vanilla 4.9.337: ext4 built in, its System.map without
# ext4_file_read_iter (4.10) or ext4_file_getattr (4.11), kallsyms
# without data symbols, no kprobe PMU (4.17), kprobe_events without "rN:"
# and without return probes on an address (4.12), no names (4.15), no
# map value addresses (5.2), no kprobe_multi or fentry.  ext4dist reads through the generic read path,
# whose f_op probe confirms the map, then places the entries by address
# and the returns by name, as it did on 4.9.
OLD_49_PRETEND=no-fentry,no-multi,no-pmu,no-maxactive,no-names,no-kallsyms-data,no-map-value
scenario_as_4_9() {
	local map=/boot/System.map-$KERNEL real
	real=$(awk '$3 == "ext4_file_operations" { print $1; exit }' /proc/kallsyms | sed 's/^0*//')
	# shellcheck disable=SC2086 # a list of names
	old_map as-4.9 $OLD_49_SYMS || return 0
	TRACED_BIN=/bin/ext4dist-test traced_run as-4.9 /mnt/ext4/o49 $O $R $W $F \
		--test-sys-module "$OLD_SYSMODULE" --pretend=$OLD_49_PRETEND \
		-v -p @PID@ || { old_map_restore; return 0; }
	old_map_restore
	expect_counts as-4.9 "$WANT"
	expect_verbose as-4.9-attach-path "$ERR" \
		"attach path: tracefs: kprobe_events (no kprobe PMU); the kernel's own number of return probes (kprobe_events ignores \"rN:\" (kernel before 4.12) (--pretend=no-maxactive))"
	expect_verbose as-4.9-map-hint "$ERR" \
		"kprobes by name until $map is confirmed as this kernel's (by the f_op probe of the generic read path)"
	expect_verbose as-4.9-fops-from-map "$ERR" \
		"ext4_file_operations found in $map: 0x$real (ext4_dir_operations 0x"
	expect_verbose as-4.9-read-path "$ERR" \
		"read path: generic_file_read_iter + f_op filter (no ext4_file_read_iter in System.map: kernel before 4.10)"
	expect_verbose as-4.9-by-address "$ERR" \
		"kprobes by address: 5 functions from $map, which the f_op probe confirmed"
	expect_verbose as-4.9-returns-by-name "$ERR" \
		"(return probes on an address arrived in 4.12): return probes by name"
	# The f_op probe and the 4 entries by address; the 4 returns by name.
	old_expect_defs as-4.9-entries-by-address "$ERR" p-addr 5
	old_expect_defs as-4.9-no-return-on-address "$ERR" r-addr 0
	old_expect_defs as-4.9-returns-named "$ERR" r-name 4
	expect_verbose as-4.9-unnamed "$ERR" "map and program names off, as before 4.15"
	expect_verbose as-4.9-ctl-looked-up "$ERR" \
		"map values by address (BPF_PSEUDO_MAP_VALUE): not asked, as on a kernel before 5.2: the lookups stay"
}

# as_4_9_doc check|v FILE: what docs/guide.md shows of 4.9, as scenario_as_4_9
# emulates it: --check, or -v and the output of a short traced run.
as_4_9_doc() {
	local rc=0
	# shellcheck disable=SC2086 # a list of names
	old_map doc-v-as-49 $OLD_49_SYMS || return 1
	case $1 in
	check)
		/bin/ext4dist-test --check --test-sys-module "$OLD_SYSMODULE" \
			--pretend=$OLD_49_PRETEND > "$2" 2>&1 || true ;;
	v)
		TRACED_BIN=/bin/ext4dist-test traced_run doc-v-as-49 /mnt/ext4/doc49 \
			1 2 2 1 --test-sys-module "$OLD_SYSMODULE" \
			--pretend=$OLD_49_PRETEND -v || rc=1
		[ "$rc" = 1 ] || cat "$OUT" "$ERR" > "$2" ;;
	esac
	old_map_restore
	return $rc
}

# --- vanilla 4.19.222: ext4 built in with ext4_file_read_iter, its
# System.map, the kprobe PMU and "rN:".  By default the entries stay by
# name (nothing confirms the map without the generic read path's f_op
# probe); with --read-path=generic they go by address, all 7 functions of
# the map.
scenario_as_4_19() {
	local map=/boot/System.map-$KERNEL
	# shellcheck disable=SC2086 # a list of names
	old_map as-4.19 ext4_file_read_iter ext4_file_getattr $OLD_49_SYMS ||
		return 0
	TRACED_BIN=/bin/ext4dist-test traced_run as-4.19 /mnt/ext4/o419 $O $R $W $F \
		--test-sys-module "$OLD_SYSMODULE" --pretend=no-fentry,no-multi,no-map-value \
		-v -p @PID@ || { old_map_restore; return 0; }
	expect_counts as-4.19 "$WANT"
	expect_verbose as-4.19-by-name "$ERR" \
		"kprobes by name until $map is confirmed as this kernel's (by the f_op probe of the generic read path)"
	old_expect_defs as-4.19-entries-by-name "$ERR" p-addr 0
	# ext4_file_read_iter itself, by name.
	expect_verbose as-4.19-read-iter "$ERR" \
		"_r_ext4_file_read_iter ext4_file_read_iter\" to "

	TRACED_BIN=/bin/ext4dist-test traced_run as-4.19-generic /mnt/ext4/o419g \
		$O $R $W $F --test-sys-module "$OLD_SYSMODULE" \
		--pretend=no-fentry,no-multi,no-map-value --read-path=generic -v -p @PID@ ||
		{ old_map_restore; return 0; }
	old_map_restore
	expect_counts as-4.19-generic "$WANT"
	expect_verbose as-4.19-generic-by-address "$ERR" \
		"kprobes by address: 7 functions from $map, which the f_op probe confirmed"
	old_expect_defs as-4.19-generic-returns-on-address "$ERR" r-addr 4
}

# --- ext4 a module on a kernel before 4.10 (no System.map to say so):
# the probe on ext4_file_read_iter cannot be made, and reads fall back to
# the generic read path with the same exact counts.
scenario_read_iter_missing() {
	# ext4_file_operations from the module file where kallsyms lacks it.
	ext4_ko_install
	traced_run read-iter-missing /mnt/ext4/ori $O $R $W $F \
		--pretend=no-fentry,no-multi,no-read-iter -v -p @PID@ ||
		{ ext4_ko_remove; return 0; }
	ext4_ko_remove
	expect_counts read-iter-missing "$WANT"
	expect_verbose read-iter-missing-fallback "$ERR" \
		"ext4_file_read_iter: kernel function ext4_file_read_iter not found (--pretend=no-read-iter: not asked); falling back to generic_file_read_iter with an f_op filter (kernels before 4.10)"
	expect_verbose read-iter-missing-read-path "$ERR" \
		"read path: generic_file_read_iter + f_op filter (no ext4_file_read_iter: kernel before 4.10)"
	# kprobe_multi and fentry predate no ext4 read function.
	ext4dist --check --pretend=no-read-iter > "$WORK/ori.check" 2>&1 || true
	check read-iter-missing-no-fentry "$(sed -n 's/^fentry\/fexit  *//p' "$WORK/ori.check")" \
		"no: no fentry/fexit (--pretend=no-read-iter: ext4_file_read_iter is missing, as before 4.10, which predates them)" \
		"$WORK/ori.check"
}
