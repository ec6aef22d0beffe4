# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads WORKLOAD_OPTS
# The memory of an appliance: the start records sized to the machine or
# by --start-slots, and the collisions a smaller table brings counted to
# the call; the kernel memory and peak RSS --check shows.  Sourced by
# scenarios.sh; each function prints PASS/FAIL lines.

# --- the start records' number, forced by --start-slots: pairs of reads
# by two threads whose ids differ by 4096, both inside
# ext4_file_read_iter at once, the first returning first (workload -C).
# With 4096 slots the second one's entry takes over the first one's
# record: each pair's first read is stolen, said with the modulus, the
# second timed.  With 32768 slots both are timed.
scenario_start_slots() {
	local pairs=3 slots name stolen
	# Both exist only with CONFIG_USERFAULTFD and CONFIG_CHECKPOINT_RESTORE.
	if [ ! -e /proc/sys/vm/unprivileged_userfaultfd ] ||
	   [ ! -e /proc/sys/kernel/ns_last_pid ]; then
		out "SKIP $KERNEL start-slots: no userfaultfd or ns_last_pid here, to hold two chosen threads in a read"
		return 0
	fi
	for slots in 4096 32768; do
		name=start-slots-$slots
		WORKLOAD_OPTS="-C $pairs -S 4096"
		traced_run "$name" /mnt/ext4/ss 1 0 1 0 -p @PID@ -v \
			--start-slots $slots || {
			WORKLOAD_OPTS=""
			return 0
		}
		WORKLOAD_OPTS=""
		check "$name-chosen" \
			"$(grep '^ext4dist: start records: ' "$ERR")" \
			"ext4dist: start records: $slots slots (--start-slots), 32 bytes each" \
			"$OUT" "$ERR"
		check "$name-v-memory" \
			"$(grep -c -e '^ext4dist: kernel memory: [0-9]* KiB (memlock in /proc/self/fdinfo): [0-9]* maps ' \
				-e '^ext4dist: peak RSS: [0-9]* kB so far (VmHWM in /proc/self/status)$' "$ERR")" \
			2 "$OUT" "$ERR"
		stolen=$(grep 'not timed' "$ERR" || true)
		if [ "$slots" = 4096 ]; then
			check "$name-stolen" "$stolen" \
				"ext4dist: warning: $pairs read calls were not timed: another thread whose id is the same modulo 4096 was in the function at the same time and took their start records" \
				"$OUT" "$ERR"
			check "$name-timed" "$(counts "$OUT")" \
				"open=2 read=$pairs write=1 fsync=0" "$OUT" "$ERR"
		else
			check "$name-stolen" "$stolen" "" "$OUT" "$ERR"
		fi
		expect_counts "$name" "open=2 read=$((2 * pairs)) write=1 fsync=0"
	done
}

# app_records FILE: --check's start records in FILE, "SLOTS BYTES".
app_records() {
	sed -n 's/^start records  *\([0-9]*\) slots of \([0-9]*\) bytes: .*/\1 \2/p' "$1"
}

# app_bytes FILE: a slot's bytes for the operations FILE's --check
# traces: BCC's four 32, fsync alone (its tracepoints) 8.
app_bytes() {
	if grep -Eq '^traces +fsync [^ ,]+(;|$)' "$1"; then echo 8; else echo 32; fi
}

# app_check_memory NAME FILE SLOTS: --check's output FILE shows SLOTS
# start records and at most 512 KiB of kernel memory (said in the log).
app_check_memory() {
	local f kib="" rss=""
	for f in $(kmem_fields "$2"); do
		case $f in
		kib=*) kib=${f#kib=} ;;
		vmhwm_kb=*) rss=${f#vmhwm_kb=} ;;
		esac
	done
	check "$1-slots" "$(app_records "$2")" "$3 $(app_bytes "$2")" "$2"
	echo "$1: $(kmem_fields "$2")"
	if [ -z "$kib" ] || [ -z "$rss" ]; then
		fail "$1-shown" "no kernel memory or peak RSS line" "$2"
	elif [ "$kib" -gt 512 ]; then
		fail "$1-budget" "$kib KiB of kernel memory, more than 512" "$2"
	else
		pass "$1-budget"
	fi
}

# --- the start records as MemTotal sizes them (one slot per 16 KiB, a
# power of two from 4096 to 32768), and on a machine under 128 MiB at
# most 512 KiB of kernel memory for the default run.  A larger guest is
# shown a 117 MiB one (what a 128 MB device has) through the test
# build's --test-meminfo.
scenario_appliance_memory() {
	local name=appliance-memory mem slots out=$WORK/appliance.out
	mem=$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
	slots=32768
	while [ $slots -gt 4096 ] && [ $((slots * 16)) -gt "$mem" ]; do
		slots=$((slots / 2))
	done
	# Without kprobes (32-bit MIPS) what can be traced: fsync's tracepoints.
	ext4dist --check > "$out" 2>&1 ||
		ext4dist --check --attach=tracepoint --ops fsync > "$out" 2>&1 || true
	if [ "$mem" -lt 131072 ]; then
		app_check_memory "$name" "$out" "$slots"
		return 0
	fi
	check "$name-slots" "$(app_records "$out")" "$slots $(app_bytes "$out")" \
		"$out"
	printf 'MemTotal:         119808 kB\n' > "$WORK/meminfo-128"
	ext4dist-test --check --test-meminfo="$WORK/meminfo-128" > "$out" 2>&1 ||
		ext4dist-test --check --test-meminfo="$WORK/meminfo-128" \
			--attach=tracepoint --ops fsync > "$out" 2>&1 || true
	app_check_memory "$name-128" "$out" 4096
}
