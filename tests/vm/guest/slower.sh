# shellcheck shell=dash disable=SC3043 # busybox ash has local
# ext4slower's scenarios (sourced by scenarios.sh): events with the right
# process, PID, operation, bytes, offset and file name; exact counts at
# min_ms 0; a threshold that keeps exactly the slow calls; -p; losses
# reported with their number when a burst overruns a small ring.

SLOW_HEADER='ENDTIME_us,TASK,PID,TYPE,BYTES,OFFSET_b,LATENCY_us,FILE'

# slow_header_of ARGS: the line that says ext4slower ARGS is tracing
# ("ext4" for --json, whose banner goes to stderr).
slow_header_of() {
	case " $* " in
	*" -j "*) echo "$SLOW_HEADER" ;;
	*" --json "*) echo ext4 ;;
	*) echo 'TIME     COMM           PID    T BYTES   OFF_KB   LAT(ms) FILENAME' ;;
	esac
}

# slow_wait_header PID OUT ERR WANT: 0 once WANT is out, 1 after 60 s or
# when PID is gone.
slow_wait_header() {
	i=0
	while ! { [ "$4" = ext4 ] && grep -q '^Tracing ext4 operations' "$3"; } &&
	      ! grep -qxF "$4" "$2" 2>/dev/null; do
		i=$((i + 1))
		if ! running "$1" || [ "$i" -gt 1200 ]; then
			return 1
		fi
		sleep 0.05
	done
}

# slow_run NAME FILE OPENS READS WRITES FSYNCS [EXT4SLOWER ARGS...]
# As traced_run, with ext4slower: the workload (waiting on a go file),
# then ext4slower ARGS (@PID@: the workload's pid, with noise on ext4
# meanwhile); the header awaited, the workload run, SIGINT.  WORKLOAD_OPTS
# are the workload's options.  SLOW_TWIN, when set, holds the arguments of
# a second ext4slower run at the same time (its output in OUT2, ERR2, its
# status in RC2), started first, and the main run once the twin has its
# probes in: on a kprobe path the kernel runs the newest probe at an
# address first and the return probes last in, first out, so the main
# run's clock holds the twin's whole time of each call.  SLOW_NOISE=0 leaves the noise out.  Sets OUT, ERR, EPID, WPID, RC; prints FAIL NAME and
# returns 1 on a harness problem.  SLOW_BIN runs another name of the
# binary (xfsslower).  SLOW_PRE_HOOK is run once the header is
# out, before the workload starts; SLOW_HOOK once the workload ended,
# before the signal.
slow_run() {
	local name="$1" args args2="" noise=0 pid2="" hdr=""
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	OUT2=$WORK/$name.twin.out ERR2=$WORK/$name.twin.err
	rm -f "$OUT" "$ERR" "$OUT2" "$ERR2"
	workload_start "$@"
	shift 6
	args=$(workload_args "$@")
	case " $* " in *" @PID@ "*) noise=1 ;; esac
	# shellcheck disable=SC2086 # SLOW_TWIN: a list of plain words
	[ -z "${SLOW_TWIN:-}" ] || args2=$(workload_args $SLOW_TWIN)
	[ "${SLOW_NOISE:-1}" = 1 ] || noise=0
	[ "$noise" = 0 ] || noise_start /mnt/ext4
	EPID=""
	if [ -n "$args2" ]; then
		# shellcheck disable=SC2086 # args2 is a list of plain words
		ext4slower $args2 > "$OUT2" 2> "$ERR2" &
		pid2=$!
		# shellcheck disable=SC2086
		slow_wait_header "$pid2" "$OUT2" "$ERR2" "$(slow_header_of $args2)" ||
			hdr=missing
	fi
	if [ -z "$hdr" ]; then
		# shellcheck disable=SC2086 # args is a list of plain words
		${SLOW_BIN:-ext4slower} $args > "$OUT" 2> "$ERR" &
		EPID=$!
		# shellcheck disable=SC2086
		slow_wait_header "$EPID" "$OUT" "$ERR" "$(slow_header_of $args)" ||
			hdr=missing
	fi
	if [ -n "$hdr" ]; then
		fail "$name" "no header from ext4slower$args${pid2:+ or ext4slower$args2} within 60 s" \
			"$OUT" "$ERR" ${pid2:+"$ERR2"}
		# shellcheck disable=SC2086,SC2153 # no EPID when the twin failed; WPID: workload_start
		kill -9 $EPID "$WPID" $pid2 2>/dev/null || true
		noise_stop
		[ -z "$EPID" ] || wait "$EPID" 2>/dev/null || true
		wait "$WPID" 2>/dev/null || true
		return 1
	fi
	# shellcheck disable=SC2086 # no pid2 without a twin
	workload_go "$name" "$noise" "${SLOW_PRE_HOOK:-}" "${SLOW_HOOK:-}" \
		"$EPID" $pid2 || return 1
	kill -INT "$EPID" $pid2
	if [ -n "$pid2" ]; then
		wait_exit "$pid2" 30 || true
		RC2=$RC
	fi
	if ! wait_exit "$EPID" 30; then
		fail "$name" "ext4slower did not exit within 30 s of SIGINT" \
			"$OUT" "$ERR"
		return 1
	fi
}

# slow_counts FILE PID: the CSV events of PID per type, "O=N R=N W=N S=N".
slow_counts() {
	awk -F, -v pid="$2" '
	$3 == pid { n[$4]++ }
	END { printf "O=%d R=%d W=%d S=%d\n", n["O"], n["R"], n["W"], n["S"] }' "$1"
}

# slow_accounted FILE ERR PID: slow_counts plus the calls ext4slower's
# warnings (ERR) say were not timed: a kernel before 4.12 cannot raise its
# kretprobe instances, and the noise's calls use them up too.
slow_accounted() {
	local miss
	miss=$(untimed "$2")
	printf '%s %s\n' "$(slow_counts "$1" "$3")" "$miss" | tr ' ' '\n' | awk -F= '
	NF == 2 { k = $1 }
	k == "open" { k = "O" } k == "read" { k = "R" }
	k == "write" { k = "W" } k == "fsync" { k = "S" }
	NF == 2 { n[k] += $2 }
	END { printf "O=%d R=%d W=%d S=%d\n", n["O"], n["R"], n["W"], n["S"] }'
}

# untimed_total ERR: every call ext4slower's warnings say was not timed.
untimed_total() {
	untimed "$1" | awk '{ for (i = 1; i <= NF; i++) { sub(/^[a-z]*=/, "", $i); s += $i } } END { print s + 0 }'
}

# slow_bad FILE PID NAME BS: CSV events of PID whose comm, name, bytes or
# offset are not the workload's (ret 0 for O and S, BS for R and W; the
# writes at 0, BS, 2 BS ...), one line each.
slow_bad() {
	awk -F, -v pid="$2" -v name="$3" -v bs="$4" '
	$3 != pid { next }
	$2 != "workload" { print "comm: " $0 }
	$8 != name { print "file: " $0 }
	($4 == "R" || $4 == "W") && $5 != bs { print "bytes: " $0 }
	($4 == "O" || $4 == "S") && ($5 != 0 || $6 != 0) { print "ret/offset: " $0 }
	$4 == "W" { if ($6 != w * bs) print "write offset: " $0; w++ }
	$4 == "R" && $6 % bs != 0 { print "read offset: " $0 }
	' "$1"
}

# slow_end NAME: ext4slower exited 0 and left no kprobe event behind.
slow_end() {
	local left
	check "$1-exit" "$RC" 0 "$ERR"
	left=$(our_events "${EPID}_")
	[ -z "$left" ] || fail "$1-events-left" "$left"
}

# --- min_ms 0: one event per call, exact counts, every field right; -p
# keeps the workload alone while other processes use ext4 (noise).
scenario_slower_every_call() {
	local name=slower-every-call bad
	WORKLOAD_OPTS="-b 4096" slow_run "$name" /mnt/ext4/slow-a $O $R $W $F \
		-j -p @PID@ 0 || return 0
	check "$name-counts" "$(slow_accounted "$OUT" "$ERR" "$WPID")" \
		"O=$O R=$R W=$W S=$F" "$OUT" "$ERR"
	check "$name-only-pid" "$(awk -F, -v p="$WPID" 'NR > 1 && $3 != p' "$OUT" | wc -l)" 0 "$OUT"
	bad=$(slow_bad "$OUT" "$WPID" slow-a 4096)
	check "$name-fields" "$bad" "" "$OUT"
	check "$name-header" "$(head -1 "$OUT")" "$SLOW_HEADER"
	slow_end "$name"
}

# --- the text format, as BCC prints it, and the same events.
scenario_slower_text() {
	local name=slower-text bad
	WORKLOAD_OPTS="-b 2048" slow_run "$name" /mnt/ext4/slow-b 2 3 4 1 \
		-p @PID@ 0 || return 0
	check "$name-banner" "$(head -1 "$OUT")" "Tracing ext4 operations"
	bad=$(tail -n +3 "$OUT" | grep -v -E "^[0-9]{2}:[0-9]{2}:[0-9]{2} workload       $WPID +[RWOS] [0-9]+ +[0-9]+ +[0-9]+\.[0-9]{2} slow-b$" || true)
	check "$name-rows" "$bad" "" "$OUT"
	check "$name-count" "$(( $(tail -n +3 "$OUT" | wc -l) + $(untimed_total "$ERR") ))" 10 "$OUT" "$ERR"
	# The fixed columns: 8 time, 14 comm, 6 pid, then T.  An operation
	# whose every call went untimed (4.x: the noise used up the kretprobe
	# instances, once the fsync) is there by the warning instead.
	check "$name-columns" "$( { tail -n +3 "$OUT" | cut -c 32-33
		untimed "$ERR" | tr ' ' '\n' | sed -n -e 's/^open=[1-9].*/O /p' \
			-e 's/^read=[1-9].*/R /p' -e 's/^write=[1-9].*/W /p' \
			-e 's/^fsync=[1-9].*/S /p'; } | sort -u | tr -d '\n')" \
		"O R S W " "$OUT" "$ERR"
	slow_end "$name"
}

# --- a threshold: the fsyncs of freshly written data go to the disk
# image and take milliseconds; reads of cached data and opens do not.  A
# second ext4slower at min_ms 0 sees every call with its latency at the
# same time.  Under emulation on a busy host the two runs' probes of one
# call are up to a millisecond or more apart (the other run's programs
# run in between: armhf 6.1 once put 5 ms into an open's every-call time
# that the threshold run's clock did not see, when the every-call run's
# probes were the outer ones).  The threshold run starts last, so on a
# kprobe path its clock holds the other's (slow_run); on fentry the two
# overlap instead.  The threshold run is held to: every event it prints
# is a call the every-call run saw, above SLOW_MS by its own clock; every
# call the every-call run saw above SLOW_MS + 2 ms is printed, but for each
# operation's first; and with this workload exactly the fsyncs.
scenario_slower_threshold() {
	local name=slower-threshold extra missing others
	# No noise: its calls would use up the kretprobe instances of 4.x.
	SLOW_NOISE=0 SLOW_TWIN="-v -j -p @PID@ 0" WORKLOAD_OPTS="-b 4096" \
		slow_run "$name" /mnt/ext4/slow-c 2 40 4 4 \
		-j -p @PID@ "$SLOW_MS" || return 0
	# Calls as "TYPE BYTES OFFSET", the every-call run's counted first.
	extra=$(awk -F, -v p="$WPID" '
		FNR == NR { if ($3 == p) seen[$4 " " $5 " " $6]++; next }
		$3 == p { k = $4 " " $5 " " $6; if (seen[k]-- <= 0) print k }' "$OUT2" "$OUT")
	check "$name-only-calls-seen" "$extra" "" "$OUT" "$OUT2" "$ERR" "$ERR2"
	# Each operation's first call is left out: the other run's programs
	# ran for the first time inside it, and TCG translating them shows in
	# the every-call run's clock (an open of 5.6 ms there, under 1 ms in
	# the threshold run's, armhf 6.1 with the JIT on).
	missing=$(awk -F, -v p="$WPID" -v us="$(( (SLOW_MS + 2) * 1000 ))" '
		FNR == NR { if ($3 == p) got[$4 " " $5 " " $6]++; next }
		$3 == p && !first[$4]++ { k = $4 " " $5 " " $6; if (got[k] > 0) got[k]--; next }
		$3 == p && $7 > us { k = $4 " " $5 " " $6; if (got[k]-- <= 0) print k }' "$OUT" "$OUT2")
	check "$name-every-slow-call" "$missing" "" "$OUT" "$OUT2" "$ERR" "$ERR2"
	check "$name-latency" "$(awk -F, -v p="$WPID" -v ms="$SLOW_MS" '$3 == p && $7 <= ms * 1000' "$OUT")" "" "$OUT"
	# Under emulation the first write or read, or a cached one now and
	# then, takes over a millisecond too: where either run's clock says
	# so, only the fsyncs are counted.
	others=$(awk -F, -v p="$WPID" -v us="$((SLOW_MS * 1000))" '
		$3 == p && $4 != "S" && $7 > us' "$OUT2" "$OUT" | wc -l)
	if [ "$others" = 0 ]; then
		check "$name-fsyncs-only" "$(slow_counts "$OUT" "$WPID")" \
			"O=0 R=0 W=0 S=4" "$OUT" "$OUT2"
	else
		check "$name-fsyncs-only" "$(slow_counts "$OUT" "$WPID" | sed 's/.* S=/S=/')" \
			"S=4" "$OUT" "$OUT2"
		echo "($name: $others other calls took over $SLOW_MS ms under emulation)"
	fi
	check "$name-twin-exit" "$RC2" 0 "$ERR2"
	slow_end "$name"
}

# --json: one object per event, with the file name.
scenario_slower_json() {
	local name=slower-json n
	slow_run "$name" /mnt/ext4/slow-d 1 2 2 1 --json -p @PID@ 0 || return 0
	n=$(grep -c "^{\"time\":[0-9]*,\"end_ns\":[0-9]*,\"comm\":\"workload\",\"pid\":$WPID,\"tid\":$WPID,\"op\":\"[a-z]*\",\"ret\":[0-9]*,\"offset\":[0-9]*,\"latency_ns\":[0-9]*,\"file\":\"slow-d\"}$" "$OUT" || true)
	check "$name-objects" "$((n + $(untimed_total "$ERR")))" 6 "$OUT" "$ERR"
	slow_end "$name"
}

# --- a burst that overruns a one-page ring while ext4slower is stopped:
# every call is either printed or counted lost, and the loss is said.
slow_stop_reader() { kill -STOP "$EPID"; }
slow_cont_reader() { kill -CONT "$EPID"; sleep 1; }
scenario_slower_lost() {
	local name=slower-lost got lost
	SLOW_PRE_HOOK=slow_stop_reader SLOW_HOOK=slow_cont_reader \
		WORKLOAD_OPTS="-b 512" slow_run "$name" /mnt/ext4/slow-e 1 2000 0 0 \
		-j --ring-pages 1 -p @PID@ 0 || return 0
	got=$(awk -F, -v p="$WPID" '$3 == p' "$OUT" | wc -l)
	lost=$(sed -n 's/^ext4slower: warning: \([0-9]*\) events lost: the event rings were full; .*/\1/p' "$ERR")
	if [ -n "$lost" ] && [ "$lost" -gt 0 ]; then
		pass "$name-some-lost"
		check "$name-all-accounted" "$((got + lost))" 2001 "$OUT" "$ERR"
	else
		fail "$name-some-lost" "no loss reported: $got events printed" "$ERR"
	fi
	slow_end "$name"
}

# Latencies of the threshold scenario's workload at min_ms 0, on the
# console: what SLOW_MS must separate.
scenario_slower_explore() {
	ext4slower -vvv 1000 > "$WORK/x.out" 2> "$WORK/x.err" &
	sleep 8
	kill -INT $!
	wait $! || true
	grep -E "peek|file names|name" "$WORK/x.err" | sed 's/^/explore /'

	WORKLOAD_OPTS="-b 65536" slow_run slower-explore /mnt/ext4/slow-x 2 40 4 4 \
		-j -p @PID@ 0 || return 0
	awk -F, -v p="$WPID" '$3 == p { print $4, $7 }' "$OUT" | sort | awk '
	{ if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2; n[$1]++ }
	END { for (k in n) print "explore " k ": " n[k] " calls, " lo[k] " to " hi[k] " us" }'
	cat "$ERR"
}

# --- the file name discovery: -v says where the offsets were found, on
# the console -vvv's copies (the memory images of
# tests/unit/test_name_offsets.c come from there), and the names print.
scenario_slower_names() {
	local name=slower-names line
	slow_run "$name" /mnt/ext4/slow-names 1 0 0 0 -j -vvv -p @PID@ 0 || return 0
	line=$(grep '^ext4slower: file names: f_path.dentry at offset' "$ERR" || true)
	if [ -n "$line" ]; then
		pass "$name-discovered"
		echo "($name: ${line#ext4slower: })"
	else
		fail "$name-discovered" "no discovery line" "$ERR"
	fi
	check "$name-no-warning" "$(grep -c 'file names will show as' "$ERR")" 0 "$ERR"
	check "$name-printed" "$(awk -F, -v p="$WPID" '$3 == p { print $8 }' "$OUT")" slow-names "$OUT"
	sed -n 's/^ext4slower: peek /capture peek /p' "$ERR"
	slow_end "$name"
}
