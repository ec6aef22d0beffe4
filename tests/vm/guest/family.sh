# shellcheck shell=dash disable=SC3043,SC2034,SC2153 # busybox ash has local; lib.sh reads WORKLOAD_OPTS, OUT, ERR, EPID and sets WPID
# The family's scenarios (sourced by scenarios.sh): xfs on vdf, btrfs on
# vdg and f2fs on vdh, each traced by ext4dist -t TYPE and by the names
# TYPEdist and TYPEslower, with the exact counts of the workload on every
# attach path the kernel has (and on btrfs's generic read path), and each
# beside ext4, every tool counting only its own file system.  Where the
# kernel has no module of one (the vanilla 4.9 and 4.19 builds), its
# scenario does not run, and the console says so.

# fam_banner FS: the banner of FS's tool.
fam_banner() {
	case $1 in
	xfs) echo 'Tracing XFS operation latency... Hit Ctrl-C to end.' ;;
	*) echo "Tracing $1 operation latency... Hit Ctrl-C to end." ;;
	esac
}

# fam_label FS: how the slow mode's banner names FS.
fam_label() {
	case $1 in
	xfs) echo XFS ;;
	*) echo "$1" ;;
	esac
}

# fam_load_modules LIST: LIST's modules in order, but those loaded already
# (xfs and btrfs share libcrc32c).
fam_load_modules() {
	local mod name
	while read -r mod; do
		[ -n "$mod" ] || continue
		name=$(echo "${mod%.ko}" | tr - _)
		[ -d "/sys/module/$name" ] && continue
		insmod "/lib/modules/$mod" || { echo "insmod $mod failed"; return 1; }
	done < "$1"
}

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
		fam_load_modules "/lib/modules/$fs.list" || {
			fail "$fs-modules" "cannot load the modules of $fs"
			return 1
		}
	fi
	mkdir -p "/mnt/$fs"
	grep -q " /mnt/$fs " /proc/mounts && return 0
	if ! mount -t "$fs" "/dev/$dev" "/mnt/$fs" > "$WORK/$fs-mount.err" 2>&1; then
		dmesg | tail -n 5 >> "$WORK/$fs-mount.err"
		fail "$fs-mount" "cannot mount /dev/$dev as $fs" "$WORK/$fs-mount.err"
		return 1
	fi
}

# fam_run FS NAME FILE [ARGS...]: traced_run of the workload on FILE with
# ARGS, FS's banner awaited.
fam_run() {
	local fs=$1 name=$2 file=$3 rc=0
	shift 3
	BANNER=$(fam_banner "$fs") traced_run "$name" "$file" "$O" "$R" "$W" "$F" "$@" || rc=$?
	return "$rc"
}

# --- --check -t FS: what would be traced, and the verdict.
fam_check() {
	local fs=$1 out=$WORK/$1-check.out want_read
	ext4dist --check -t "$fs" > "$out" 2>&1 || true
	check "$fs-check-traces" "$(grep '^traces ' "$out")" "traces                 $2" "$out"
	check "$fs-check-fs" "$(grep "^$fs " "$out")" \
		"$(printf '%-22s loaded (module)' "$fs")" "$out"
	want_read=$(echo "$2" | sed 's/^read \([a-z0-9_]*\),.*/\1/')
	case $fs in
	btrfs) want_read="$want_read (kernel 5.8+)" ;;
	xfs) want_read="$want_read (kernel 3.16+; xfs has no other)" ;;
	f2fs) want_read="$want_read (kernel 5.6+; f2fs has no other)" ;;
	esac
	check "$fs-check-read-path" "$(grep '^read path ' "$out")" \
		"read path              $want_read" "$out"
	check "$fs-check-verdict" "$(grep '^verdict ' "$out")" \
		"verdict                ${fs}dist can trace here" "$out"
}

# --- every attach path the kernel has: the exact counts on FS.
fam_attach() {
	local fs=$1 mode multi_ok
	multi_ok=$(ext4dist --check | grep -c '^kprobe_multi  *yes' || true)
	for mode in pmu tracefs multi; do
		[ "$mode" != multi ] || [ "$multi_ok" = 1 ] || continue
		[ "$mode" != pmu ] || has_kprobe_pmu || continue
		fam_run "$fs" "$fs-attach-$mode" "/mnt/$fs/a-$mode" -t "$fs" \
			"--attach=$mode" -p @PID@ || continue
		expect_counts "$fs-attach-$mode" "$WANT"
	done
}

# --- kprobes by address from FS.ko where a distribution installs it.
fam_by_address() {
	local fs=$1 name=$1-by-address ko from
	ko=/lib/modules/$KERNEL/kernel/fs/$fs/$fs.ko
	mkdir -p "${ko%/*}"
	cp "/lib/modules/$fs.ko" "$ko"
	fam_run "$fs" "$name" "/mnt/$fs/b" -t "$fs" --attach=pmu -v -p @PID@ || {
		rm -rf "/lib/modules/$KERNEL"; return 0; }
	rm -rf "/lib/modules/$KERNEL"
	expect_counts "$name" "$WANT"
	from="$ko, the build the kernel loaded"
	! kernel_looks_up || from=$BY_KERNEL
	check "$name-source" "$(grep -cxF "ext4dist: kprobes by address: $2 functions from $from" "$ERR")" \
		1 "$ERR"
}

# --- the name FSdist, with -e and --prometheus: the metric names FS.
fam_named() {
	local fs=$1 name=$1-named prom=$WORK/$1.prom m=$1dist_latency_seconds
	rm -f "$prom"
	TRACED_BIN=${fs}dist fam_run "$fs" "$name" "/mnt/$fs/n" -e \
		--prometheus "$prom" -p @PID@ || return 0
	expect_counts "$name" "$WANT"
	check "$name-extended" "$(grep -c '^count [0-9]*, mean ' "$OUT")" 4 "$OUT"
	check "$name-prom" "$(grep -E "^(# HELP $m |${m}_count)" "$prom" | tr '\n' ';')" \
		"# HELP $m Latency of $fs file operations.;${m}_count{fs=\"$fs\",op=\"read\"} $R;${m}_count{fs=\"$fs\",op=\"write\"} $W;${m}_count{fs=\"$fs\",op=\"open\"} $O;${m}_count{fs=\"$fs\",op=\"fsync\"} $F;" \
		"$prom"
	check "$name-usage" "$("${fs}dist" --bad 2>&1 | head -1)" \
		"usage: ${fs}dist [-h] [-T] [-m] [-p PID] [interval] [count]"
}

# --- -t FS -j -m with an interval of 1 s, over two rounds of the
# workload 1.5 s apart: at least two JSON lines, whose counts add up to
# the workload's (accounting.sh's json_field), in msecs.
fam_json_intervals() {
	local fs=$1 name=$1-json-intervals line got="" op n sum
	WORKLOAD_OPTS="-n 2 -s 1500" fam_run "$fs" "$name" "/mnt/$fs/j" \
		-t "$fs" -j -m -p @PID@ 1 || { WORKLOAD_OPTS=""; return 0; }
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

# --- ext4 and FS side by side: FSdist runs (every process) while
# ext4dist counts the workload on ext4 exactly; then a workload of other
# counts on FS: FSdist has exactly those, none of ext4's.  And ext4dist
# counts nothing of a workload on FS, FSdist nothing of one on ext4.
fam_beside_ext4() {
	local fs=$1 name=$1-beside-ext4 xout=$WORK/$1-beside.out xerr=$WORK/$1-beside.err xpid
	"${fs}dist" > "$xout" 2> "$xerr" &
	xpid=$!
	if ! BANNER=$(fam_banner "$fs") wait_banner "$xpid" "$xout" 60; then
		fail "$name" "no banner from ${fs}dist" "$xout" "$xerr"
		kill -9 "$xpid" 2>/dev/null || true
		return 0
	fi
	traced_run "$name-ext4" "/mnt/ext4/beside-$fs" "$O" "$R" "$W" "$F" -p @PID@ &&
		expect_counts "$name-ext4" "$WANT"
	workload "/mnt/$fs/beside" 2 3 4 1 > "$WORK/$name.wl" 2>&1 ||
		fail "$name" "workload on $fs failed" "$WORK/$name.wl"
	kill -INT "$xpid"
	wait_exit "$xpid" 30 || true
	OUT=$xout ERR=$xerr EPID=$xpid
	expect_counts "$name-$fs" "open=2 read=3 write=4 fsync=1"
	traced_run "$name-ext4-sees-no-$fs" "/mnt/$fs/beside2" "$O" "$R" "$W" "$F" \
		-p @PID@ && expect_counts "$name-ext4-sees-no-$fs" "$ZERO"
	fam_run "$fs" "$name-$fs-sees-no-ext4" "/mnt/ext4/beside3-$fs" -t "$fs" \
		-p @PID@ && expect_counts "$name-$fs-sees-no-ext4" "$ZERO"
}

# --- FSslower: its banner, and one event per call at min_ms 0.
fam_slower() {
	local fs=$1 name=$1-slower
	SLOW_BIN=${fs}slower WORKLOAD_OPTS="-b 4096" slow_run "$name" \
		"/mnt/$fs/s" "$O" "$R" "$W" "$F" -j -p @PID@ 0 || return 0
	check "$name-counts" "$(slow_accounted "$OUT" "$ERR" "$WPID")" \
		"O=$O R=$R W=$W S=$F" "$OUT" "$ERR"
	check "$name-fields" "$(slow_bad "$OUT" "$WPID" s 4096)" "" "$OUT"
	slow_end "$name"
	SLOW_BIN=${fs}slower WORKLOAD_OPTS="-b 2048" slow_run "$name-text" \
		"/mnt/$fs/t" 2 3 4 1 -p @PID@ 0 || return 0
	check "$name-banner" "$(head -1 "$OUT")" "Tracing $(fam_label "$fs") operations"
	slow_end "$name-text"
}

# --- btrfs's generic read path (the one before 5.8), forced.  Since 5.8
# btrfs_file_read_iter reads through filemap_read (5.10:
# generic_file_buffered_read), never through generic_file_read_iter: on
# the kernels here the path counts no btrfs read at all, which only a
# kernel before 5.8 could show.  What they show: the f_op discovered on
# a btrfs directory under btrfs_release_file, where btrfs's
# directory f_op agrees with kallsyms; the other operations exact; and
# the filter keeping out ext4's reads, which do go through
# generic_file_read_iter here.
fam_generic_read() {
	local fs=$1 name=$1-generic-read
	fam_run "$fs" "$name" "/mnt/$fs/g" -t "$fs" --read-path=generic -v \
		-p @PID@ || return 0
	expect_counts "$name" "open=$O read=0 write=$W fsync=$F"
	check "$name-path" "$(grep -c "^ext4dist: read path: generic_file_read_iter + f_op filter (forced by --read-path=generic)\$" "$ERR")" \
		1 "$ERR"
	check "$name-fop" "$(grep -c "^ext4dist: f_op discovered at offset [0-9]* of struct file (by opening and closing /mnt/$fs under a probe on ${fs}_release_file: f_op 0x[0-9a-f]*, as inode->i_fop)\$" "$ERR")" \
		1 "$ERR"
	check "$name-fops-symbol" "$(grep -c "^ext4dist: ${fs}_file_operations found in /proc/kallsyms: 0x[0-9a-f]* (${fs}_dir_file_operations 0x[0-9a-f]* agrees with the probe)\$" "$ERR")" \
		1 "$ERR"
	fam_run "$fs" "$name-not-ext4" "/mnt/ext4/g-$fs" -t "$fs" \
		--read-path=generic -p @PID@ || return 0
	expect_counts "$name-not-ext4" "$ZERO"
}

# fam_all FS DEV TRACES NFUNC: every scenario above for FS on DEV; TRACES
# is --check's traces row, NFUNC how many functions its module's file
# gives (btrfs: its directories' ->release too, for the f_op discovery).
fam_all() {
	family_mount "$1" "$2" || return 0
	fam_check "$1" "$3"
	fam_attach "$1"
	fam_by_address "$1" "$4"
	fam_named "$1"
	fam_json_intervals "$1"
	fam_beside_ext4 "$1"
	fam_slower "$1"
}

scenario_family_xfs() {
	fam_all xfs vdf "read xfs_file_read_iter, write xfs_file_write_iter, open xfs_file_open, fsync xfs_file_fsync" 4
}

scenario_family_btrfs() {
	fam_all btrfs vdg "read btrfs_file_read_iter, write btrfs_file_write_iter, open btrfs_file_open, fsync btrfs_sync_file; reads of older kernels: generic_file_read_iter" 5 &&
		{ ! grep -q ' /mnt/btrfs ' /proc/mounts || fam_generic_read btrfs; }
}

scenario_family_f2fs() {
	fam_all f2fs vdh "read f2fs_file_read_iter, write f2fs_file_write_iter, open f2fs_file_open, fsync f2fs_sync_file" 4
}
