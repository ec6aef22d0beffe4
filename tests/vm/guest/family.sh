# shellcheck shell=dash disable=SC3043 # busybox ash has local
# The family's scenarios (sourced by scenarios.sh): xfs on vdf, traced by
# ext4dist -t xfs and by the names xfsdist and xfsslower, with the exact
# counts of the workload on every attach path the kernel has, and ext4
# and xfs side by side, each tool counting only its own.  Where the
# kernel has no xfs module (the vanilla 4.9 and 4.19 builds) nothing
# runs, and the console says so.

XFS_BANNER='Tracing XFS operation latency... Hit Ctrl-C to end.'

# family_mount FS DEV: FS's modules loaded (lib/modules/FS.list) and DEV
# mounted on /mnt/FS; 1 (with a line on the console) when the kernel has
# no such module.
family_mount() {
	local fs=$1 dev=$2
	if ! grep -q "[[:space:]]$fs\$" /proc/filesystems; then
		if [ ! -e "/lib/modules/$fs.list" ]; then
			echo "family: no $fs module in this kernel: its scenarios do not run"
			return 1
		fi
		load_modules "/lib/modules/$fs.list" || return 1
	fi
	mkdir -p "/mnt/$fs"
	grep -q " /mnt/$fs " /proc/mounts || mount -t "$fs" "/dev/$dev" "/mnt/$fs"
}

# xfs_run NAME FILE [ARGS...]: traced_run of the workload on FILE with
# ARGS, the XFS banner awaited.
xfs_run() {
	local name=$1 file=$2 rc=0
	shift 2
	BANNER=$XFS_BANNER traced_run "$name" "$file" $O $R $W $F "$@" || rc=$?
	return "$rc"
}

# --- --check -t xfs: what would be traced, and the verdict.
xfs_check() {
	ext4dist --check -t xfs > "$WORK/xfs-check.out" 2>&1 || true
	check xfs-check-traces "$(grep '^traces ' "$WORK/xfs-check.out")" \
		"traces                 read xfs_file_read_iter, write xfs_file_write_iter, open xfs_file_open, fsync xfs_file_fsync" \
		"$WORK/xfs-check.out"
	check xfs-check-fs "$(grep '^xfs ' "$WORK/xfs-check.out")" \
		"xfs                    loaded (module)" "$WORK/xfs-check.out"
	check xfs-check-read-path "$(grep '^read path ' "$WORK/xfs-check.out")" \
		"read path              xfs_file_read_iter (kernel 3.16+; xfs has no other)" \
		"$WORK/xfs-check.out"
	check xfs-check-verdict "$(grep '^verdict ' "$WORK/xfs-check.out")" \
		"verdict                xfsdist can trace here" "$WORK/xfs-check.out"
}

# --- every attach path the kernel has: the exact counts on xfs.
xfs_attach() {
	local mode multi_ok
	multi_ok=$(ext4dist --check | grep -c '^kprobe_multi  *yes' || true)
	for mode in pmu tracefs multi; do
		[ "$mode" != multi ] || [ "$multi_ok" = 1 ] || continue
		[ "$mode" != pmu ] || has_kprobe_pmu || continue
		xfs_run "xfs-attach-$mode" "/mnt/xfs/a-$mode" -t xfs \
			"--attach=$mode" -p @PID@ || continue
		expect_counts "xfs-attach-$mode" "$WANT"
	done
}

# --- kprobes by address from xfs.ko where a distribution installs it.
xfs_by_address() {
	local name=xfs-by-address
	mkdir -p "/lib/modules/$KERNEL/kernel/fs/xfs"
	cp /lib/modules/xfs.ko "/lib/modules/$KERNEL/kernel/fs/xfs/xfs.ko"
	xfs_run "$name" /mnt/xfs/b -t xfs --attach=pmu -v -p @PID@ || {
		rm -rf "/lib/modules/$KERNEL"; return 0; }
	rm -rf "/lib/modules/$KERNEL"
	expect_counts "$name" "$WANT"
	check "$name-source" "$(grep -c "^ext4dist: kprobes by address: 4 functions from /lib/modules/$KERNEL/kernel/fs/xfs/xfs.ko, the build the kernel loaded\$" "$ERR")" \
		1 "$ERR"
}

# --- the name xfsdist, with -e and --prometheus: the metric names xfs.
xfs_named() {
	local name=xfs-named prom=$WORK/xfs.prom
	rm -f "$prom"
	TRACED_BIN=xfsdist xfs_run "$name" /mnt/xfs/n -e --prometheus "$prom" \
		-p @PID@ || return 0
	expect_counts "$name" "$WANT"
	check "$name-extended" "$(grep -c '^count [0-9]*, mean ' "$OUT")" 4 "$OUT"
	check "$name-prom" "$(grep -E '^(# HELP xfsdist_latency_seconds |xfsdist_latency_seconds_count)' "$prom" | tr '\n' ';')" \
		"# HELP xfsdist_latency_seconds Latency of xfs file operations.;xfsdist_latency_seconds_count{op=\"read\"} $R;xfsdist_latency_seconds_count{op=\"write\"} $W;xfsdist_latency_seconds_count{op=\"open\"} $O;xfsdist_latency_seconds_count{op=\"fsync\"} $F;" \
		"$prom"
	check "$name-usage" "$(xfsdist --bad 2>&1 | head -1)" \
		"usage: xfsdist [-h] [-T] [-m] [-p PID] [interval] [count]"
}

# --- -t xfs -j -m with an interval of 1 s, over two rounds of the
# workload 1.5 s apart: at least two JSON lines, whose counts add up to
# the workload's (accounting.sh's json_field), in msecs.
xfs_json_intervals() {
	local name=xfs-json-intervals line got="" op n sum
	WORKLOAD_OPTS="-n 2 -s 1500" xfs_run "$name" /mnt/xfs/j -t xfs -j -m \
		-p @PID@ 1 || { WORKLOAD_OPTS=""; return 0; }
	WORKLOAD_OPTS=""
	check "$name-lines" "$(grep -c '^{' "$OUT" | awk '{ print ($1 >= 2) }')" 1 "$OUT"
	check "$name-unit" "$(grep '^{' "$OUT" | grep -vc '"unit":"msecs"')" 0 "$OUT"
	for op in open read write fsync; do
		sum=0
		while IFS= read -r line; do
			n=$(json_field "$line" "$op" count)
			sum=$((sum + ${n:-0}))
		done < "$OUT"
		got="$got${got:+ }$op=$sum"
	done
	check "$name" "$got" \
		"open=$((2 * O)) read=$((2 * R)) write=$((2 * W)) fsync=$((2 * F))" \
		"$OUT" "$ERR"
}

# --- ext4 and xfs side by side: xfsdist runs (every process) while
# ext4dist counts the workload on ext4 exactly; then a workload of other
# counts on xfs: xfsdist has exactly those, none of ext4's.  And ext4dist
# counts nothing of a workload on xfs.
xfs_beside_ext4() {
	local name=xfs-beside-ext4 xout=$WORK/xfs-beside.out xerr=$WORK/xfs-beside.err xpid
	xfsdist > "$xout" 2> "$xerr" &
	xpid=$!
	if ! BANNER=$XFS_BANNER wait_banner "$xpid" "$xout" 60; then
		fail "$name" "no banner from xfsdist" "$xout" "$xerr"
		kill -9 "$xpid" 2>/dev/null || true
		return 0
	fi
	traced_run "$name-ext4" /mnt/ext4/beside $O $R $W $F -p @PID@ &&
		expect_counts "$name-ext4" "$WANT"
	workload /mnt/xfs/beside 2 3 4 1 > "$WORK/$name.wl" 2>&1 ||
		fail "$name" "workload on xfs failed" "$WORK/$name.wl"
	kill -INT "$xpid"
	wait_exit "$xpid" 30 || true
	OUT=$xout ERR=$xerr EPID=$xpid
	expect_counts "$name-xfs" "open=2 read=3 write=4 fsync=1"
	traced_run "$name-ext4-sees-no-xfs" /mnt/xfs/beside2 $O $R $W $F \
		-p @PID@ && expect_counts "$name-ext4-sees-no-xfs" "$ZERO"
	xfs_run "$name-xfs-sees-no-ext4" /mnt/ext4/beside3 -t xfs -p @PID@ &&
		expect_counts "$name-xfs-sees-no-ext4" "$ZERO"
}

# --- xfsslower: its banner, and one event per call at min_ms 0.
xfs_slower() {
	local name=xfs-slower
	SLOW_BIN=xfsslower WORKLOAD_OPTS="-b 4096" slow_run "$name" \
		/mnt/xfs/s $O $R $W $F -j -p @PID@ 0 || return 0
	check "$name-counts" "$(slow_accounted "$OUT" "$ERR" "$WPID")" \
		"O=$O R=$R W=$W S=$F" "$OUT" "$ERR"
	check "$name-fields" "$(slow_bad "$OUT" "$WPID" s 4096)" "" "$OUT"
	slow_end "$name"
	SLOW_BIN=xfsslower WORKLOAD_OPTS="-b 2048" slow_run "$name-text" \
		/mnt/xfs/t 2 3 4 1 -p @PID@ 0 || return 0
	check "$name-banner" "$(head -1 "$OUT")" "Tracing XFS operations"
	slow_end "$name-text"
}

scenario_family_xfs() {
	family_mount xfs vdf || return 0
	xfs_check
	xfs_attach
	xfs_by_address
	xfs_named
	xfs_json_intervals
	xfs_beside_ext4
	xfs_slower
}
