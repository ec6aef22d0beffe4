# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# Reliability scenarios (issue 6): a long multi-threaded run in interval
# mode (exact totals, flat memory, bounded start map), SIGKILL at any moment
# followed by clean runs, the traced file system unmounted under a running
# ext4dist, and an unprivileged user.  Sourced by scenarios.sh (uses its
# O R W F and WANT); each function prints PASS/FAIL lines.

# proc_kb PID FIELD [FILE]: FIELD (VmRSS, VmHWM, ...) of /proc/PID/status
# (or of /proc/PID/FILE) in kB.
proc_kb() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/${3:-status}" 2>/dev/null
}

# proc_rss_pt PID: PID's resident set in kB counted from its page tables:
# Rss of /proc/PID/smaps_rollup (4.14+), else the sum of the Rss lines of
# /proc/PID/smaps (the same walk, per mapping).
proc_rss_pt() {
	if has_smaps_rollup; then
		proc_kb "$1" Rss smaps_rollup
	else
		awk '$1 == "Rss:" { s += $2; n++ } END { if (n) print s }' \
			"/proc/$1/smaps" 2>/dev/null
	fi
}

# --- 8 threads of one process doing every operation in rounds for
# several seconds under `ext4dist -vv -p PID 1`.
scenario_stress() {
	local name=stress threads=8 rounds=25 pause=200 so=2 sr=6 sw=5 sf=1
	local go want rss hwm prss samples="" n wrc=0 intervals maxn rmin rmax hmax
	local pmin pmax smaps got
	go=$WORK/go-stress
	rm -f "$go"
	want="open=$((threads * rounds * so)) read=$((threads * rounds * sr)) write=$((threads * rounds * sw)) fsync=$((threads * rounds * sf))"
	workload -g "$go" -t $threads -n $rounds -s $pause /mnt/ext4/sg \
		$so $sr $sw $sf > "$WORK/$name.wl" 2>&1 &
	WPID=$!
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	rm -f "$OUT" "$ERR"
	ext4dist -vv -p "$WPID" 1 > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "$name" "no banner from 'ext4dist -vv -p $WPID 1' within 60 s" "$OUT" "$ERR"
		kill -9 "$EPID" "$WPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		wait "$WPID" 2>/dev/null || true
		return 0
	fi
	touch "$go"
	# Memory once a second, from the start of the workload to one
	# interval after its end.  On 6.1 VmRSS/VmHWM lag behind (the
	# kernel's per-thread RSS counters are folded in only every 64 page
	# faults), so the Rss of smaps_rollup (from the page tables; smaps
	# before 4.14) is checked as well.
	n=0
	while :; do
		rss=$(proc_kb "$EPID" VmRSS) hwm=$(proc_kb "$EPID" VmHWM)
		prss=$(proc_rss_pt "$EPID")
		[ -z "$rss" ] || samples="$samples$rss $hwm ${prss:-0}
"
		running "$WPID" || n=$((n + 1))
		[ "$n" -lt 2 ] || break
		running "$EPID" || break
		sleep 1
	done
	wait "$WPID" || wrc=$?
	kill -INT "$EPID" 2>/dev/null || true
	if ! wait_exit "$EPID" 30; then
		fail "$name" "ext4dist did not exit within 30 s of SIGINT" "$OUT" "$ERR"
		return 0
	fi
	echo "$samples" | sed '/^$/d' > "$WORK/$name.mem"
	intervals=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]:$' "$OUT" || true)
	maxn=$(sed -n 's/^ext4dist: start map: \([0-9][0-9]*\) entries in flight.*/\1/p' "$ERR" |
		sort -n | tail -n 1)
	# shellcheck disable=SC2046 # "samples min max hwm"
	set -- $(awk 'NR == 1 { lo = hi = $1; h = $2; plo = phi = $3 }
		{ if ($1 < lo) lo = $1; if ($1 > hi) hi = $1; if ($2 > h) h = $2
		  if ($3 < plo) plo = $3; if ($3 > phi) phi = $3 }
		END { print NR, lo + 0, hi + 0, h + 0, plo + 0, phi + 0 }' "$WORK/$name.mem")
	n=$1 rmin=$2 rmax=$3 hmax=$4 pmin=$5 pmax=$6
	smaps=smaps_rollup
	has_smaps_rollup || smaps=smaps
	echo "stress: $intervals intervals, $n memory samples, VmRSS $rmin..$rmax kB, VmHWM $hmax kB, $smaps Rss $pmin..$pmax kB, start map <= ${maxn:-?} entries"
	if [ "$wrc" != 0 ]; then
		fail "$name" "workload exited $wrc" "$WORK/$name.wl"
	elif [ "$RC" != 0 ]; then
		fail "$name" "ext4dist exited $RC" "$OUT" "$ERR"
	elif [ "$intervals" -lt 5 ]; then
		fail "$name" "only $intervals intervals printed, want >= 5" "$OUT"
	else
		# The warnings, not the -vv trace, beside the histograms.
		grep '^ext4dist: warning:' "$ERR" > "$WORK/$name.warnings" || true
		got=$(accounted)
		if [ "$got" = "$want" ]; then
			pass "$name-totals"
		else
			fail "$name-totals" "got '$got' (histograms plus the calls warned of), want '$want'" \
				"$WORK/$name.warnings"
		fi
	fi
	if [ "$n" -lt 5 ]; then
		fail "$name-memory" "only $n memory samples" "$WORK/$name.mem"
	elif [ "$hmax" -ge 4096 ]; then
		# VmRSS lags (the per-thread counters are folded in every 64
		# page faults before 6.2: a first sample can read 4 kB), so
		# the spread is judged on smaps_rollup below, which is exact.
		fail "$name-memory" "VmHWM $hmax kB (want < 4096)" "$WORK/$name.mem"
	elif [ "$pmin" -le 0 ] || [ $((pmax - pmin)) -gt 256 ] || [ "$pmax" -ge 4096 ]; then
		fail "$name-memory" "$smaps Rss from $pmin to $pmax kB (want a spread <= 256 kB, all < 4096)" \
			"$WORK/$name.mem"
	else
		pass "$name-memory"
	fi
	if [ -z "$maxn" ] && grep -q '^ext4dist: map start created: type array, ' "$ERR"; then
		# Start records in a fixed array (one slot per thread id modulo
		# its size): nothing to grow, nothing for -vv to report.
		pass "$name-start-map"
	elif [ -z "$maxn" ]; then
		fail "$name-start-map" "no 'start map: N entries in flight' line with -vv" "$ERR"
	elif [ "$maxn" -gt $((threads + 16)) ]; then
		fail "$name-start-map" "up to $maxn start entries in flight with $threads threads" "$ERR"
	else
		pass "$name-start-map"
	fi
	if [ -n "$(our_events "${EPID}_")" ]; then
		fail "$name-cleanup" "kprobe_events still holds: $(our_events | tr '\n' ' ')" "$ERR"
	fi
}

# --- `ext4dist --attach=tracefs` SIGKILLed 20 times at deterministic
# moments from 0 to 1.5 s after its start (during start-up too), each time
# followed by a normal -p run: exact counts, and nothing of ext4dist left in
# kprobe_events.
scenario_faults() {
	local nrun d k bad="" left
	ensure_tracefs
	TRACED_NOISE=0
	nrun=1
	while [ "$nrun" -le 20 ]; do
		# 7, 14, 5, 12, 3, 10, 1, 8, 15, 6, 13, 4, 11, 2, 9, 0, ...
		d=$(( (nrun * 7) % 16 ))
		ext4dist --attach=tracefs > "$WORK/fault.out" 2> "$WORK/fault.err" &
		k=$!
		sleep "$((d / 10)).$((d % 10))"
		kill -9 "$k" 2>/dev/null || true
		wait "$k" 2>/dev/null || true
		if ! traced_run "faults-run$nrun" "/mnt/ext4/sh$nrun" $O $R $W $F -v -p @PID@; then
			bad="run $nrun (after a kill at $((d / 10)).$((d % 10)) s): harness failure above"
			break
		fi
		left=$(our_events)
		if [ "$RC" != 0 ]; then
			bad="run $nrun (after a kill at $((d / 10)).$((d % 10)) s): ext4dist exited $RC"
		elif [ -n "$left" ]; then
			bad="run $nrun (after a kill at $((d / 10)).$((d % 10)) s): kprobe_events holds $(echo "$left" | tr '\n' ' ')"
		elif [ "$(accounted)" != "$WANT" ]; then
			bad="run $nrun (after a kill at $((d / 10)).$((d % 10)) s): got '$(accounted)', want '$WANT'"
		fi
		[ -z "$bad" ] || break
		nrun=$((nrun + 1))
	done
	TRACED_NOISE=1
	if [ -n "$bad" ]; then
		{
			echo "kprobe_events:"; cat "$TRACEFS/kprobe_events"
			echo "kprobe_profile:"; cat "$TRACEFS/kprobe_profile"
			echo "enabled_functions:"; cat "$TRACEFS/enabled_functions"
			echo "debug/kprobes/list:"
			cat /sys/kernel/debug/kprobes/list 2>/dev/null || echo "(no debugfs)"
		} > "$WORK/fault.state" 2>&1
		fail faults-kill9-x20 "$bad" "$OUT" "$ERR" "$WORK/fault.err" "$WORK/fault.state"
	else
		pass faults-kill9-x20
	fi
}

# --- the traced ext4 file system unmounted while ext4dist runs: it
# keeps running, stops on SIGINT with status 0 and well-formed output.
scenario_umount_while_tracing() {
	local name=umount-while-tracing how=umount left errs got
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	rm -f "$OUT" "$ERR"
	ext4dist > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "$name" "no banner within 60 s" "$OUT" "$ERR"
		kill -9 "$EPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		return 0
	fi
	workload /mnt/ext2/si $O $R $W $F > "$WORK/$name.wl" 2>&1 || true
	# Keep a file open so that the plain umount may be refused.
	# shellcheck disable=SC2217 # the open file is the point
	sleep 30 < /mnt/ext2/data &
	holder=$!
	umount /mnt/ext2 2>/dev/null || { how="umount -l"; umount -l /mnt/ext2 || how="umount -l (failed)"; }
	sleep 2
	running "$EPID" || how="$how, but ext4dist had already exited"
	kill -INT "$EPID" 2>/dev/null || true
	wait_exit "$EPID" 30 || true
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
	mount -t ext4 /dev/vdc /mnt/ext2 2>/dev/null || true
	echo "umount-while-tracing: $how"
	left=$(our_events "${EPID}_")
	errs=$(format_errors "$OUT")
	got=$(counts "$OUT")
	# shellcheck disable=SC2046 # "open N read N write N fsync N"
	set -- $(echo "$got" | tr '=' ' ')
	if [ "$RC" != 0 ]; then
		fail "$name" "exit status $RC after $how and SIGINT" "$OUT" "$ERR"
	elif [ -n "$left" ]; then
		fail "$name" "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')" "$OUT" "$ERR"
	elif ! grep -qxF "$BANNER" "$OUT" || [ -n "$errs" ] ||
	     ! grep -q '^operation = ' "$OUT"; then
		fail "$name" "malformed output: $(echo "$errs" | head -n 1)" "$OUT" "$ERR"
	elif [ "$2" -lt $O ] || [ "$4" -lt $R ] || [ "$6" -lt $W ] || [ "$8" -lt $F ]; then
		fail "$name" "got '$got', want each >= '$WANT'" "$OUT" "$ERR"
	else
		pass "$name"
	fi
}

# --- an unprivileged user gets one clear line and status 1.
scenario_unprivileged() {
	local rc=0 want
	want='ext4dist: permission denied: ext4dist loads BPF programs and creates kprobes; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)'
	runas 65534 65534 /bin/ext4dist > "$WORK/unpriv.out" 2> "$WORK/unpriv.err" || rc=$?
	if [ "$rc" != 1 ]; then
		fail unprivileged "exit status $rc, want 1" "$WORK/unpriv.out" "$WORK/unpriv.err"
	else
		check unprivileged "$(cat "$WORK/unpriv.err")" "$want" \
			"$WORK/unpriv.out" "$WORK/unpriv.err"
	fi
}

# A reader that goes away (| head) and a terminal that hangs up (SIGHUP):
# ext4dist stops through its normal path, and the tracefs events go too.
scenario_pipe_and_hup() {
	local left
	ensure_tracefs
	# The banner is head's one line; the next output meets a closed pipe.
	rm -f "$WORK/pipe.fifo"
	mkfifo "$WORK/pipe.fifo"
	head -n 1 < "$WORK/pipe.fifo" > "$WORK/pipe.out" &
	RC=0
	ext4dist --attach=tracefs 1 5 > "$WORK/pipe.fifo" 2> "$WORK/pipe.err" || RC=$?
	wait
	left=$(our_events)
	if [ "$RC" != 1 ]; then
		fail closed-pipe "exit status $RC, want 1" "$WORK/pipe.out" "$WORK/pipe.err"
	elif [ -n "$left" ]; then
		fail closed-pipe "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')"
	else
		check closed-pipe "$(cat "$WORK/pipe.err")" \
			"ext4dist: stopped: Broken pipe (probes removed)" "$WORK/pipe.out"
	fi

	ext4dist --attach=tracefs > "$WORK/hup.out" 2> "$WORK/hup.err" &
	EPID=$!
	if ! wait_banner "$EPID" "$WORK/hup.out" 60; then
		fail sighup "no banner within 60 s" "$WORK/hup.out" "$WORK/hup.err"
		kill -9 "$EPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		return 0
	fi
	workload /mnt/ext4/shup $O $R $W $F > /dev/null 2>&1 || true
	kill -HUP "$EPID"
	wait_exit "$EPID" 30 || true
	left=$(our_events)
	if [ "$RC" != 0 ]; then
		fail sighup "exit status $RC after SIGHUP" "$WORK/hup.out" "$WORK/hup.err"
	elif [ -n "$left" ]; then
		fail sighup "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')"
	elif ! grep -q "^operation = 'fsync'" "$WORK/hup.out"; then
		fail sighup "no final histogram after SIGHUP" "$WORK/hup.out" "$WORK/hup.err"
	else
		pass sighup
	fi
}

# --- Signals at every phase of --check and of a run's start-up, on the
# tracefs path (whose events outlive a killed process): the signal is
# sent once the Nth line of -v is out, for N spread over the whole trace
# (the run's with -j, whose banner goes to stderr), and afterwards no
# ext4dist_* event (the r4097: trial's included) may be left.  --check
# stops with 128 + the signal once its start-up is done (or finishes,
# when the signal came after that); a run stops as on any stop signal,
# or on the SIGINT that its banner draws when that came first.  SIGPIPE
# is ignored: a run given one goes on until that SIGINT.
# phase_run N SIG ARGS...: ext4dist ARGS, SIG once N lines of its
# stderr are out, SIGINT once its banner is; sets RC and PHASE_LINES
# (the lines it printed).
phase_run() {
	local n=$1 sig=$2 e l k=0
	shift 2
	rm -f "$WORK/phase.fifo"
	mkfifo "$WORK/phase.fifo"
	ext4dist "$@" > "$WORK/phase.out" 2> "$WORK/phase.fifo" &
	e=$!
	while IFS= read -r l; do
		k=$((k + 1))
		[ "$k" != "$n" ] || kill -"$sig" "$e" 2>/dev/null || true
		[ "$l" != "$BANNER" ] || kill -INT "$e" 2>/dev/null || true
	done < "$WORK/phase.fifo"
	RC=0
	wait "$e" || RC=$?
	PHASE_LINES=$k
}

scenario_signal_phases() {
	local mode args total spec sig num n step last bad="" left want runs=0
	ensure_tracefs
	for mode in check run; do
		args="--attach=tracefs -v"
		[ "$mode" = run ] && args="$args -j" || args="--check $args"
		# shellcheck disable=SC2086 # args: words
		phase_run 0 TERM $args
		total=$PHASE_LINES
		step=$((total / 6))
		[ "$step" -gt 0 ] || step=1
		echo "signal-phases: $mode: $total lines of -v, a signal after every ${step}th"
		for spec in 15:TERM 1:HUP 10:USR1 14:ALRM 13:PIPE; do
			num=${spec%%:*} sig=${spec#*:}
			n=1
			# TERM, HUP and PIPE at every phase; USR1 and ALRM,
			# which take the same path, at the first and the middle.
			case $sig in
			USR1|ALRM) last=$((total / 2)) ;;
			*) last=$total ;;
			esac
			while [ "$n" -le "$last" ]; do
				# shellcheck disable=SC2086
				phase_run "$n" "$sig" $args
				runs=$((runs + 1))
				left=$(our_events)
				[ -z "$left" ] ||
					bad="$bad $mode SIG$sig after line $n: $(echo "$left" | wc -l) events left;"
				case "$mode:$sig" in
				*:PIPE) want=0 ;;
				check:*|run:USR1|run:ALRM) want="0 $((128 + num))" ;;
				*) want=0 ;;
				esac
				case " $want " in
				*" $RC "*) ;;
				*) bad="$bad $mode SIG$sig after line $n: exit status $RC, want one of $want;" ;;
				esac
				n=$((n + step))
			done
		done
	done
	echo "signal-phases: $runs runs"
	if [ -n "$bad" ]; then
		fail signal-phases "$bad"
	else
		pass signal-phases
	fi
	# A reader that goes away at once: every write meets a closed pipe.
	ext4dist --check --attach=tracefs -v 2>&1 | head -n 1 > /dev/null
	left=$(our_events)
	check check-closed-pipe "${left:-no events left}" "no events left"
}

# --- Output nobody reads: ext4slower's stdout a FIFO whose reader never
# reads, a burst of events far beyond what the pipe and the output queue
# hold (the run waits for its reader), then SIGINT, SIGTERM or SIGHUP: it
# stops within seconds, removes its probes, and says how much output
# was not written; exit status 1.
scenario_stalled_output() {
	local sig r e start secs n left bad="" msg pages=1024 mem ncpu
	ensure_tracefs
	# The rings and the reader's copy of one within a sixteenth of the
	# memory (--ring-pages' bound): 512 pages a CPU on a 128 MiB guest.
	mem=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
	ncpu=$(grep -c '^processor' /proc/cpuinfo)
	while [ $(((ncpu + 1) * pages * 4)) -gt $((mem / 16)) ] && [ "$pages" -gt 64 ]; do
		pages=$((pages / 2))
	done
	for sig in INT TERM HUP; do
		rm -f "$WORK/stall.fifo" "$WORK/stall.err"
		mkfifo "$WORK/stall.fifo"
		sleep 600 < "$WORK/stall.fifo" &
		r=$!
		# Rings that hold the whole burst (4 MiB a CPU where that fits): on a busy host
		# the reader falls behind, and lost events must not shrink the
		# output to what the pipe holds.
		ext4slower --attach=tracefs --ring-pages "$pages" 0 > "$WORK/stall.fifo" 2> "$WORK/stall.err" &
		e=$!
		# The header cannot be read here: wait for the probes instead.
		n=0
		while [ -z "$(our_events "${e}_")" ] && [ "$n" -lt 1200 ]; do
			sleep 0.05
			n=$((n + 1))
		done
		sleep 1
		# About 2 MiB of lines: the pipe (64 KiB) and the queue (1 MiB) fill.
		workload /mnt/ext4/stall 1 20000 0 0 > /dev/null 2>&1 || true
		start=$(cut -d' ' -f1 /proc/uptime)
		kill -"$sig" "$e"
		n=0
		while running "$e" && [ "$n" -lt 300 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		# Still there after 30 s: where it waits, for the FAIL line.
		running "$e" && {
			echo "--- after 30 s: wchan $(cat "/proc/$e/wchan" 2>/dev/null)"
			cat "/proc/$e/stack" 2>/dev/null
			grep -E '^(State|SigPnd|ShdPnd|SigBlk)' "/proc/$e/status" 2>/dev/null
		} >> "$WORK/stall.err"
		wait_exit "$e" 1 || true
		secs=$(awk -v a="$start" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%d", b - a }')
		left=$(our_events)
		kill "$r" 2>/dev/null || true
		wait "$r" 2>/dev/null || true
		msg=$(grep 'stopped with' "$WORK/stall.err" | sed 's/with [0-9]* bytes/with N bytes/')
		echo "stalled-output SIG$sig: exit status $RC after $secs s: $(grep 'stopped with' "$WORK/stall.err")"
		if [ "$RC" != 1 ]; then
			bad="$bad SIG$sig: exit status $RC, want 1;"
		elif [ "$secs" -gt 15 ]; then
			bad="$bad SIG$sig: $secs s to stop;"
		elif [ -n "$left" ]; then
			bad="$bad SIG$sig: $(echo "$left" | wc -l) events left;"
		elif [ "$msg" != "ext4slower: stopped with N bytes of output not written: standard output was not read for 1.0 s after the end (probes removed)" ]; then
			bad="$bad SIG$sig: stderr '$(tail -n 1 "$WORK/stall.err")';"
		fi
	done
	if [ -n "$bad" ]; then
		fail stalled-output "$bad" "$WORK/stall.err"
	else
		pass stalled-output
	fi
}
