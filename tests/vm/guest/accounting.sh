# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# Every call accounted for: calls nested on one thread (a write on an
# O_SYNC file runs an fsync inside it), asynchronous I/O and errors kept
# out of the histograms and counted, and each interval's own maximum.
# Sourced by scenarios.sh (uses its O R W F and WANT); each function
# prints PASS/FAIL lines.

# json_op LINE OP: the members of operation OP's object after its buckets
# ("count":N,"sum_ns":N,...), one per line as NAME=VALUE.
json_op() {
	printf '%s\n' "$1" |
		sed -n "s/.*\"$2\":{\"buckets\":\[[^]]*\],\([^}]*\)}.*/\1/p" |
		tr ',' '\n' | sed 's/^"\([a-z_]*\)":/\1=/'
}

# json_field LINE OP FIELD: one number of operation OP.
json_field() {
	json_op "$1" "$2" | sed -n "s/^$3=//p"
}

# json_top_bucket LINE OP: "LOW HIGH" of OP's highest non-empty bucket.
json_top_bucket() {
	printf '%s\n' "$1" |
		sed -n "s/.*\"$2\":{\"buckets\":\[[^]]*{\"low\":\([0-9]*\),\"high\":\([0-9]*\),\"count\":[0-9]*}\].*/\1 \2/p"
}

# --- a write on an O_SYNC file calls ext4_sync_file inside
# ext4_file_write_iter on the same thread: both are timed, each with its
# own start record.
scenario_nested_sync() {
	WORKLOAD_OPTS=-y
	traced_run nested-osync /mnt/ext4/sn $O $R $W $F -p @PID@ || {
		WORKLOAD_OPTS=""
		return 0
	}
	WORKLOAD_OPTS=""
	# One fsync per write, plus the explicit ones.
	expect_counts nested-osync "open=$O read=$R write=$W fsync=$((F + W))"
}

# --- asynchronous direct writes (io_submit) return -EIOCBQUEUED before
# the I/O is done, reads into a bad buffer return -EFAULT: neither is a
# latency, each is counted apart, with its operation.
scenario_async_and_errors() {
	local name=async-errors line aio=32 bad=4 wc wq wm rc re rq calls
	WORKLOAD_OPTS="-a $aio -E $bad"
	traced_run "$name" /mnt/ext4/sae 1 0 4 1 -j -p @PID@ || {
		WORKLOAD_OPTS=""
		return 0
	}
	WORKLOAD_OPTS=""
	line=$(grep '^{' "$OUT" | tail -n 1)
	wc=$(json_field "$line" write count) wq=$(json_field "$line" write queued)
	wm=$(json_field "$line" write missed)
	calls="$(json_field "$line" write calls) $(json_field "$line" read calls)"
	rc=$(json_field "$line" read count) re=$(json_field "$line" read errors)
	rq=$(json_field "$line" read queued)
	echo "$name: write count $wc queued $wq; read count $rc errors $re"
	if [ "$RC" != 0 ]; then
		fail "$name" "ext4dist exited $RC" "$OUT" "$ERR"
	elif [ -z "$wq" ] || [ "$wq" -lt 1 ]; then
		fail "$name" "no write counted as queued (write count $wc)" "$OUT" "$ERR"
	else
		# 4 buffered writes timed; the asynchronous ones queued
		# (or, when the I/O beat the return, timed), and where the
		# kernel's return probes ran out (4.x: one per CPU), missed
		# and said so: never lost.  (json_field's line is taken
		# before any check: a FAIL's report reuses the name.)
		check "$name-writes" "$((wc + wq + wm))" "$((4 + aio))" "$OUT" "$ERR"
		check "$name-reads" "read count $rc errors $re queued $rq" \
			"read count 0 errors $bad queued 0" "$OUT" "$ERR"
		check "$name-calls" "$calls" "$((4 + aio)) $bad" "$OUT" "$ERR"
	fi
}

# --- each interval's maximum is its own: a slow uncached read in the
# first interval, fast cached reads only in the next.  In every interval
# the maximum lies in the highest bucket of that interval's histogram.
scenario_interval_max() {
	local name=interval-max pid line n=0 bad="" count max top low high
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	workload -b 1048576 /mnt/ext4/smax 1 0 1 1 > /dev/null 2>&1
	ext4dist -j --ops read 1 4 > "$OUT" 2> "$ERR" &
	pid=$!
	# -j: the banner goes to stderr.
	if ! wait_banner "$pid" "$ERR" 60; then
		fail "$name" "no banner on stderr within 60 s" "$OUT" "$ERR"
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		return 0
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	workload -b 1048576 /mnt/ext4/smax 1 1 0 0 > /dev/null 2>&1
	sleep 1
	workload -b 512 /mnt/ext4/smax 1 8 0 0 > /dev/null 2>&1
	wait_exit "$pid" 30 || true
	while IFS= read -r line; do
		n=$((n + 1))
		count=$(json_field "$line" read count)
		max=$(json_field "$line" read max_ns)
		if [ "$count" = 0 ]; then
			[ "$max" = 0 ] || bad="$bad; interval $n: no read but max_ns $max"
			continue
		fi
		top=$(json_top_bucket "$line" read)
		low=${top% *} high=${top#* }
		# Buckets are in usecs: the maximum in ns must fall in the top one.
		if [ "$((max / 1000))" -lt "$low" ] || [ "$((max / 1000))" -gt "$high" ]; then
			bad="$bad; interval $n: max_ns $max outside its top bucket [$low, $high] usecs"
		fi
	done < "$OUT"
	if [ "$RC" != 0 ]; then
		fail "$name" "ext4dist exited $RC" "$OUT" "$ERR"
	elif [ "$n" != 4 ]; then
		fail "$name" "$n JSON lines, want 4" "$OUT" "$ERR"
	elif [ -n "$bad" ]; then
		fail "$name" "${bad#; }" "$OUT" "$ERR"
	else
		pass "$name"
	fi
}
