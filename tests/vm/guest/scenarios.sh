#!/bin/sh
# The ext4dist scenarios, run inside the VM by /init (ext4dist_mode=check).
# On entry: devtmpfs/proc/sysfs mounted, virtio disks present
# (vda = ext4, vdb = ext3, vdc = ext2 image; vdd and vde small ext4 file
# systems without a regular file, see mounts.sh; vdf, vdg, vdh: xfs,
# btrfs and f2fs, see family.sh), ext4 NOT loaded, tracefs
# NOT mounted.  Every check prints "PASS <kernel> <name>" or
# "FAIL <kernel> <name>: <details>".
# shellcheck disable=SC3043 # busybox ash has local
set -eu
# shellcheck source=lib.sh
. /guest/lib.sh
# shellcheck source=legacy.sh
. /guest/legacy.sh
# shellcheck source=reliability.sh
. /guest/reliability.sh
# shellcheck source=accounting.sh
. /guest/accounting.sh
# shellcheck source=appliance.sh
. /guest/appliance.sh
# shellcheck source=verdicts.sh
. /guest/verdicts.sh
# shellcheck source=startup.sh
. /guest/startup.sh
# shellcheck source=instances.sh
. /guest/instances.sh
# shellcheck source=mounts.sh
. /guest/mounts.sh
# shellcheck source=slower.sh
. /guest/slower.sh
# shellcheck source=learn.sh
. /guest/learn.sh
# shellcheck source=family.sh
. /guest/family.sh
# shellcheck source=experiments.sh
. /guest/experiments.sh
# shellcheck source=docs.sh
. /guest/docs.sh
# shellcheck source=fentry.sh
. /guest/fentry.sh
# shellcheck source=fleet.sh
. /guest/fleet.sh
# shellcheck source=oldkernels.sh
. /guest/oldkernels.sh
# shellcheck source=tracepoint.sh
. /guest/tracepoint.sh

# ext4slower's threshold (ms) between cached reads and fsyncs of new data.
SLOW_MS=${SLOW_MS:-1}
# Distinct counts, so a mix-up between operations cannot pass.
O=5 R=7 W=11 F=3
WANT="open=$O read=$R write=$W fsync=$F"
ZERO="open=0 read=0 write=0 fsync=0"

# --- ext4 not loaded: a clear error, before any module is loaded.
# A kernel with ext4 built in cannot be without it: there, the kernel's
# own config must agree that it is built in.
scenario_no_ext4() {
	local rc config
	if [ -e /sys/module/ext4/initstate ] || grep -q '^ext4 ' /proc/modules; then
		fail no-ext4-module "precondition: the ext4 module is already loaded"
		return 0
	fi
	if ext4_builtin; then
		# The kernel cannot be without it: --pretend=no-ext4 takes it
		# away from ext4dist's view, for the same refusal.
		config=$(grep '^CONFIG_EXT4_FS=' "/boot/config-$KERNEL" 2>/dev/null || true)
		check no-ext4-module-built-in "ext4 registered without a module, $config" \
			"ext4 registered without a module, CONFIG_EXT4_FS=y"
		set -- --pretend=no-ext4
	fi
	rc=0
	timeout 30 ext4dist "$@" > "$WORK/noext4.out" 2> "$WORK/noext4.err" || rc=$?
	expect_refusal no-ext4-module "$rc" "$WORK/noext4.out" "$WORK/noext4.err" \
		"$MSG_NO_EXT4"
}

# load_ext4: ext4 registered: its modules (crc32c first) loaded, unless
# it is built in or already there.
load_ext4() {
	grep -q '[[:space:]]ext4$' /proc/filesystems ||
		load_modules /lib/modules/ext4.list
}

# --- ext4 registered but no ext4 file system mounted yet (a user who
# starts ext4dist before mounting): it starts, stops on SIGINT with
# status 0, and leaves no event behind.
scenario_ext4_unmounted() {
	local name=ext4-unmounted left
	load_ext4
	if grep -q ' ext4 ' /proc/mounts; then
		fail "$name" "precondition: an ext4 file system is mounted"
		return 0
	fi
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	rm -f "$OUT" "$ERR"
	ext4dist > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		kill -9 "$EPID" 2>/dev/null || true
		wait_exit "$EPID" 1 || true
		fail "$name" "no banner from 'ext4dist' (exit status $RC)" "$OUT" "$ERR"
		return 0
	fi
	kill -INT "$EPID"
	if ! wait_exit "$EPID" 30; then
		fail "$name" "ext4dist did not exit within 30 s of SIGINT" "$OUT" "$ERR"
		return 0
	fi
	# tracefs as it was: the next scenario starts without it.
	if grep -q ' tracefs ' /proc/mounts; then
		left=$(our_events "${EPID}_")
	else
		left=$(our_events "${EPID}_")
		umount "$TRACEFS"
	fi
	if [ "$RC" != 0 ]; then
		fail "$name" "exit status $RC after SIGINT" "$OUT" "$ERR"
	elif [ -n "$left" ]; then
		fail "$name" "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')" "$OUT" "$ERR"
	else
		pass "$name"
	fi
	ext4_mounted_later
}

mount_ext4_now() { mount -t ext4 /dev/vda /mnt/ext4; }

# --- ext4 mounted after ext4dist started, with the generic read
# path (the default before 4.10): no ext4 directory to discover the f_op
# offset on, so it comes from the tracing dir under a probe on libfs's
# dcache_dir_close, and the reads on the new mount are counted exactly.
ext4_mounted_later() {
	local want_off rc=0 tracefs_was
	tracefs_was=$(grep -c ' tracefs ' /proc/mounts || true)
	mkdir -p /mnt/ext4
	# Without CONFIG_KALLSYMS_ALL (armmp) the module's file is the one
	# source of the files' f_op that needs no ext4 directory.
	ext4_ko_install
	TRACED_HOOK=mount_ext4_now traced_run ext4-mounted-later /mnt/ext4/later \
		$O $R $W $F --read-path=generic -v -p @PID@ || rc=1
	TRACED_HOOK=
	if [ "$rc" = 0 ]; then
		expect_counts ext4-mounted-later "$WANT"
		want_off=$(want_fop_offset)
		check ext4-mounted-later-fop-offset \
			"$(sed -n 's/^ext4dist: \(f_op discovered at offset [0-9]* of struct file\) (by opening and closing \([^ ]*\) under a probe on \([a-z_]*\):.*/\1 on \2 by \3/p' "$ERR")" \
			"f_op discovered at offset $want_off of struct file on /sys/kernel/tracing by dcache_dir_close" \
			"$ERR"
	fi
	if grep -q ' /mnt/ext4 ' /proc/mounts; then umount /mnt/ext4; fi
	ext4_ko_remove
	# tracefs as it was (the checks above mount it): the next scenario
	# starts without it.
	if [ "$tracefs_was" = 0 ]; then
		while grep -q ' tracefs ' /proc/mounts; do umount "$TRACEFS" || break; done
	fi
}

setup_filesystems() {
	load_ext4
	for fs in ext4 ext3 ext2 tmpfs; do mkdir -p "/mnt/$fs"; done
	mount -t ext4 /dev/vda /mnt/ext4
	mount -t ext4 /dev/vdb /mnt/ext3
	mount -t ext4 /dev/vdc /mnt/ext2
	mount -t tmpfs tmpfs /mnt/tmpfs
	cp /mnt/ext4/data /mnt/tmpfs/data
	for fs in ext4 ext3 ext2; do
		type=$(awk -v m="/mnt/$fs" '$2 == m { print $3 }' /proc/mounts)
		[ "$type" = ext4 ] || { echo "/mnt/$fs mounted as '$type'"; return 1; }
	done
}

# --- tracefs not mounted: ext4dist mounts it itself (tracefs path).
scenario_tracefs_unmounted() {
	if grep -q ' tracefs ' /proc/mounts; then
		fail tracefs-unmounted "precondition: tracefs is already mounted"
		return 0
	fi
	traced_run tracefs-unmounted /mnt/ext4/s5 $O $R $W $F \
		--attach=tracefs -p @PID@ || return 0
	expect_counts tracefs-unmounted "$WANT"
}

# --- exact counts with -p, while other processes use ext4 too
# (traced_run's noise).
scenario_pid_filter() {
	traced_run pid-filter-exact /mnt/ext4/s1 $O $R $W $F -p @PID@ || return 0
	expect_counts pid-filter-exact "$WANT"
	errs=$(format_errors "$OUT")
	if ! grep -qxF "$BANNER" "$OUT"; then
		fail bcc-format "banner line missing" "$OUT"
	elif [ -n "$errs" ]; then
		fail bcc-format "$(echo "$errs" | head -n 1)" "$OUT"
	elif ! grep -qx "     usecs               : count     distribution" "$OUT"; then
		fail bcc-format "no usecs header" "$OUT"
	else
		pass bcc-format
	fi

	# Without -p: at least the workload's operations.
	traced_run no-pid-filter /mnt/ext4/s1b $O $R $W $F || return 0
	if [ "$RC" != 0 ]; then
		fail no-pid-filter "ext4dist exited $RC" "$OUT" "$ERR"
		return 0
	fi
	got=$(counts "$OUT")
	# shellcheck disable=SC2046 # "open N read N write N fsync N"
	set -- $(echo "$got" | tr '=' ' ')
	if [ "$2" -ge $O ] && [ "$4" -ge $R ] && [ "$6" -ge $W ] && [ "$8" -ge $F ]; then
		pass no-pid-filter
	else
		fail no-pid-filter "got '$got', want each >= '$WANT'" "$OUT" "$ERR"
	fi
}

# --- both attach back-ends give the same exact counts.
# fd_census: ext4dist's open descriptors by kind, while it traces (EPID).
fd_census() {
	FDS=$(for fd in /proc/"$EPID"/fd/*; do readlink "$fd"; done |
		sed 's/.*bpf-map.*/map/; s/.*bpf-prog.*/prog/; s/.*perf_event.*/perf/; s/.*bpf_link.*/link/' |
		sed '/^map$/b; /^prog$/b; /^perf$/b; /^link$/b; s/.*/other/' |
		sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')
}

# expect_multi_refusal: `ext4dist --attach=multi` on a kernel without
# kprobe_multi links refuses with one of its two messages; which one, and
# the errno text in it, depend on how far the kernel's bpf() gets: E2BIG
# for a bpf_attr member it does not know (expected_attach_type: 4.17),
# EINVAL for an unknown command or attach type (before 5.18), EOPNOTSUPP
# for kprobe_multi without CONFIG_FPROBE.
expect_multi_refusal() {
	local rc=0 m e
	ext4dist --attach=multi > "$WORK/multi.out" 2> "$WORK/multi.err" || rc=$?
	set --
	for m in "$MSG_NO_MULTI_LOAD" "$MSG_NO_MULTI_LINK"; do
		for e in "Argument list too long" "Invalid argument" "Operation not supported"; do
			set -- "$@" "$(refusal "$m" "" "$e")"
		done
	done
	expect_refusal attach-multi-unsupported "$rc" "$WORK/multi.out" \
		"$WORK/multi.err" "$@"
}

scenario_attach() {
	# kprobe_multi needs 5.18+ with CONFIG_FPROBE (Debian's 6.12 has it,
	# its 6.1 not), the kprobe PMU 4.17+: where the kernel lacks one,
	# forcing it must fail with ext4dist's refusal.
	multi_ok=$(ext4dist --check | grep -c '^kprobe_multi  *yes' || true)
	for mode in pmu tracefs multi; do
		if [ "$mode" = multi ] && [ "$multi_ok" = 0 ]; then
			expect_multi_refusal
			continue
		fi
		if [ "$mode" = pmu ] && ! has_kprobe_pmu; then
			RC=0
			ext4dist --attach=pmu > "$WORK/pmu.out" 2> "$WORK/pmu.err" || RC=$?
			expect_refusal attach-pmu-unsupported "$RC" "$WORK/pmu.out" \
				"$WORK/pmu.err" "$MSG_NO_PMU"
			continue
		fi
		FDS=""
		TRACED_HOOK=fd_census
		# -v: multi says whether its links went by address.
		verbose=""
		[ "$mode" != multi ] || verbose=-v
		traced_run "attach-$mode" "/mnt/ext4/s2-$mode" $O $R $W $F \
			"--attach=$mode" $verbose -p @PID@ || { TRACED_HOOK=""; continue; }
		TRACED_HOOK=""
		expect_counts "attach-$mode" "$WANT"
		if [ "$mode" = multi ]; then
			# Addresses from kallsyms through the syscall program,
			# so the kernel does not expand every symbol name.
			n=$(grep -cE '^ext4dist: attached k(ret)?probe_multi link on 4 functions \(first ext4_file_read_iter\), by address, link fd [0-9]+$' "$ERR" || true)
			check attach-multi-by-address "$n links by address" "2 links by address" "$ERR"
		fi
		# Exactly the maps, programs and probes of the mode, and
		# stdin/out/err: no fd more (tracefs files, failed attempts),
		# none less.  multi: two links for 4 functions, 2 programs.
		case $mode in
		multi) want="link=2 map=5 other=3 prog=2 " ;;
		# other: stdin/out/err, the tracing dir and its kprobe_events,
		# kept open for appending (tracefs.c: a removal needs no
		# new descriptor).
		tracefs) want="map=5 other=5 perf=8 prog=8 " ;;
		*) want="map=5 other=3 perf=8 prog=8 " ;;
		esac
		check "attach-$mode-fds" "$FDS" "$want" "$OUT" "$ERR"
	done
}

# --- interval mode, -T, -m.
scenario_interval() {
	ext4dist 1 3 > "$WORK/interval.out" 2> "$WORK/interval.err" &
	pid=$!
	if ! wait_exit "$pid" 20; then
		fail interval-3-blocks "'ext4dist 1 3' still running after 20 s" \
			"$WORK/interval.out" "$WORK/interval.err"
	else
		n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]:$' "$WORK/interval.out" || true)
		if [ "$RC" != 0 ]; then
			fail interval-3-blocks "exit status $RC" \
				"$WORK/interval.out" "$WORK/interval.err"
		else
			check interval-3-blocks "$n timestamp lines" "3 timestamp lines" \
				"$WORK/interval.out" "$WORK/interval.err"
		fi
	fi

	ext4dist -T 1 2 > "$WORK/notime.out" 2> "$WORK/notime.err" &
	pid=$!
	if ! wait_exit "$pid" 20; then
		fail interval-notimestamp "'ext4dist -T 1 2' still running after 20 s" \
			"$WORK/notime.out" "$WORK/notime.err"
	else
		n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]:$' "$WORK/notime.out" || true)
		if [ "$RC" != 0 ]; then
			fail interval-notimestamp "exit status $RC" \
				"$WORK/notime.out" "$WORK/notime.err"
		else
			check interval-notimestamp "$n timestamp lines" "0 timestamp lines" \
				"$WORK/notime.out" "$WORK/notime.err"
		fi
	fi

	traced_run msecs /mnt/ext4/s3 $O $R $W $F -m -p @PID@ || return 0
	if [ "$RC" != 0 ] || [ -n "$(our_events "${EPID}_")" ]; then
		expect_counts msecs "$WANT"   # reports the exit status or events
	elif ! grep -qx "     msecs               : count     distribution" "$OUT"; then
		fail msecs "no msecs header" "$OUT" "$ERR"
	elif grep -q usecs "$OUT"; then
		fail msecs "usecs printed with -m" "$OUT" "$ERR"
	else
		check msecs "$(accounted)" "$WANT" "$OUT" "$ERR"
	fi
}

# --- SIGINT/SIGTERM, and recovery after SIGKILL.
scenario_signals() {
	ensure_tracefs
	for sig in INT TERM; do
		for mode in default tracefs; do
			name=sig$(echo "$sig" | tr '[:upper:]' '[:lower:]')-$mode
			attach=""
			[ "$mode" = default ] || attach=--attach=$mode
			SIGNAL=$sig
			traced_run "$name" "/mnt/ext4/s4-$name" $O $R $W $F \
				$attach -p @PID@ || { SIGNAL=INT; continue; }
			SIGNAL=INT
			left=$(our_events)
			if [ "$RC" != 0 ]; then
				fail "$name" "exit status $RC after SIG$sig" "$OUT" "$ERR"
			elif [ -n "$left" ]; then
				fail "$name" "kprobe_events still holds: $left" "$OUT" "$ERR"
			else
				check "$name" "$(accounted)" "$WANT" "$OUT" "$ERR"
			fi
		done
	done

	# kill -9 on the tracefs path leaves its events behind ...
	ext4dist --attach=tracefs > "$WORK/kill9.out" 2> "$WORK/kill9.err" &
	pid=$!
	if ! wait_banner "$pid" "$WORK/kill9.out" 60; then
		fail kill9-leaves-event "no banner within 60 s" \
			"$WORK/kill9.out" "$WORK/kill9.err"
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		return 0
	fi
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	left=$(our_events "${pid}_")
	if [ -n "$left" ]; then
		pass kill9-leaves-event
	else
		fail kill9-leaves-event "no ext4dist_${pid}_ entry in kprobe_events after kill -9 (expected the tracefs path to leave one)"
	fi

	# ... which the next run removes, with a message, and works.
	traced_run stale-event-removed /mnt/ext4/s4-stale $O $R $W $F \
		--attach=tracefs -p @PID@ || return 0
	if [ "$RC" != 0 ]; then
		fail stale-event-removed "exit status $RC" "$OUT" "$ERR"
	elif [ -n "$left" ] && ! grep -q '^ext4dist: removed .*stale kprobe event' "$ERR"; then
		fail stale-event-removed "no 'ext4dist: removed ... stale kprobe event' on stderr" \
			"$OUT" "$ERR"
	elif [ -n "$(our_events)" ]; then
		fail stale-event-removed "kprobe_events still holds: $(our_events | tr '\n' ' ')" \
			"$OUT" "$ERR"
	else
		check stale-event-removed "$(accounted)" "$WANT" "$OUT" "$ERR"
	fi
}

# --- tmpfs is not ext4: nothing counted.
scenario_tmpfs() {
	traced_run tmpfs-zero /mnt/tmpfs/s6 $O $R $W $F -p @PID@ || return 0
	if grep -q '^operation = ' "$OUT"; then
		fail tmpfs-zero "an operation was printed for tmpfs" "$OUT" "$ERR"
	else
		expect_counts tmpfs-zero "$ZERO"
	fi
}

# --- ext3 and ext2 file systems driven by the ext4 module.
scenario_ext23() {
	for fs in ext3 ext2; do
		traced_run "$fs-as-ext4" "/mnt/$fs/s7" $O $R $W $F -p @PID@ || continue
		expect_counts "$fs-as-ext4" "$WANT"
	done
}

# run STEP: STEP, with its start time on the console (not the results port).
# With ext4dist_only=a,b on the kernel command line (EXT4DIST_VM_ONLY on
# the host), only the scenarios scenario_a and scenario_b run (and the
# set-up).
ONLY=$(sed -n 's/.*ext4dist_only=\([a-z0-9_,]*\).*/\1/p' /proc/cmdline)
run() {
	case "$1" in
	scenario_*)
		case ",$ONLY," in
		,,|*,"${1#scenario_}",*) ;;
		*) return 0 ;;
		esac ;;
	esac
	echo "--- $1 at $(cut -d' ' -f1 /proc/uptime) s"
	"$1"
}

run scenario_no_ext4
run scenario_ext4_unmounted
run scenario_generic_read_empty_fs
run scenario_generic_read_readonly_fs
run scenario_generic_read_dirs_and_links
run scenario_generic_read_deep_mount
run setup_filesystems
run scenario_tracefs_unmounted
run scenario_pid_filter
run scenario_attach
run scenario_interval
run scenario_signals
run scenario_tmpfs
run scenario_ext23
run scenario_unprivileged
run scenario_check_report
run scenario_check_agrees
run scenario_check_loads
run scenario_missing_function
run scenario_by_address
run scenario_generic_read
run scenario_fops_sources
run scenario_as_4_9
run scenario_as_4_19
run scenario_read_iter_missing
run scenario_forced_fallbacks
run scenario_no_pmu
run scenario_kretprobe_misses
run scenario_nested_sync
run scenario_async_and_errors
run scenario_interval_max
run scenario_start_slots
run scenario_appliance_memory
run scenario_debugfs_only
run scenario_stress
run scenario_faults
run scenario_umount_while_tracing
run scenario_pipe_and_hup
run scenario_signal_phases
run scenario_stalled_output
run scenario_two_instances
run scenario_concurrent_starts
run scenario_pid1_namespace
run scenario_pid_namespaces
run scenario_pid_ns_self
run scenario_fatal_signals
run scenario_prometheus_file
run scenario_slower_every_call
run scenario_slower_text
run scenario_slower_threshold
run scenario_slower_json
run scenario_slower_lost
run scenario_slower_names
run scenario_kcalls_strace
run scenario_kernel_views
run scenario_family_xfs
run scenario_family_btrfs
run scenario_family_f2fs
run scenario_experiments
run scenario_lessons
run scenario_tracepoint
run scenario_doc_outputs
run scenario_fentry
run scenario_fentry_unseen
run scenario_fleet_prometheus
run scenario_fleet_node_exporter
run scenario_fleet_hostile
run scenario_fleet_heatmap
run scenario_fleet_systemd
echo "--- done at $(cut -d' ' -f1 /proc/uptime) s"

left=$(our_events)
if [ -z "$left" ]; then
	pass no-leftover-events
else
	fail no-leftover-events "kprobe_events at the end: $(echo "$left" | tr '\n' ' ')"
fi
