# shellcheck shell=dash disable=SC3043 # busybox ash has local
# Instances that must not harm each other or the system: two runs on a
# system without tracefs, concurrent start-ups (one of them a renamed
# binary), ext4dist as PID 1 of a PID namespace killed and started again,
# -p with a thread id and inside PID namespaces, every fatal signal, and
# the --prometheus file's owner and mode.  Sourced by scenarios.sh (uses
# its O R W F and WANT, and legacy.sh's tracing_mounts/unmount_tracing);
# each function prints PASS/FAIL lines.

# child_of PID: the first process whose parent is PID (busybox has no pgrep).
child_of() {
	local p
	for p in /proc/[0-9]*; do
		if [ "$(sed 's/.*) //' "$p/stat" 2>/dev/null | cut -d' ' -f2)" = "$1" ]; then
			echo "${p#/proc/}"
			return 0
		fi
	done
	return 1
}

# stop_all PID...: kill -9 and reap (harness clean-up after a failure).
stop_all() {
	local p
	for p in "$@"; do kill -9 "$p" 2>/dev/null || true; done
	for p in "$@"; do wait "$p" 2>/dev/null || true; done
}

# --- Two --attach=tracefs runs where tracefs is not mounted.  Each mounts
# it for itself alone (nothing in /proc/mounts); the first to exit must
# not take tracefs from the second, whose events go at its exit with no
# warning, and whose -p counts are exact.
scenario_two_instances() {
	local go wpid a b rca mounts after left
	unmount_tracing
	if [ -n "$(tracing_mounts)" ]; then
		fail two-instances "precondition: cannot unmount $(tracing_mounts | tr '\n' ' ')"
		return 0
	fi
	go=$WORK/go-two
	rm -f "$go"
	workload -g "$go" /mnt/ext4/two $O $R $W $F > "$WORK/two.wl" 2>&1 &
	wpid=$!
	ext4dist --attach=tracefs > "$WORK/two-a.out" 2> "$WORK/two-a.err" &
	a=$!
	if ! wait_banner "$a" "$WORK/two-a.out" 60; then
		fail two-instances "first run: no banner within 60 s" "$WORK/two-a.out" "$WORK/two-a.err"
		touch "$go"
		stop_all "$a" "$wpid"
		return 0
	fi
	ext4dist --attach=tracefs -p "$wpid" 1 > "$WORK/two-b.out" 2> "$WORK/two-b.err" &
	b=$!
	if ! wait_banner "$b" "$WORK/two-b.out" 60; then
		fail two-instances "second run: no banner within 60 s" "$WORK/two-b.out" "$WORK/two-b.err"
		touch "$go"
		stop_all "$a" "$b" "$wpid"
		return 0
	fi
	mounts=$(tracing_mounts)
	kill -INT "$a"
	wait_exit "$a" 30 || true
	rca=$RC
	# The second run traces on, reading kprobe_profile every second.
	touch "$go"
	wait "$wpid" || true
	sleep 1.5
	kill -INT "$b"
	wait_exit "$b" 30 || true
	after=$(tracing_mounts)
	left=$(our_events)
	if [ -n "$mounts" ] || [ -n "$after" ]; then
		fail two-instances-no-mount "tracing mounts while both ran: '$mounts', after: '$after'" \
			"$WORK/two-a.err" "$WORK/two-b.err"
	else
		pass two-instances-no-mount
	fi
	if [ "$rca" != 0 ] || [ "$RC" != 0 ]; then
		fail two-instances "exit statuses $rca and $RC, want 0 and 0" \
			"$WORK/two-a.err" "$WORK/two-b.out" "$WORK/two-b.err"
	elif [ -s "$WORK/two-b.err" ]; then
		fail two-instances "the second run complained" "$WORK/two-b.err"
	elif [ -n "$left" ]; then
		fail two-instances "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')" \
			"$WORK/two-a.err" "$WORK/two-b.err"
	else
		check two-instances "$(counts "$WORK/two-b.out")" "$WANT" \
			"$WORK/two-b.out" "$WORK/two-b.err"
	fi
	unmount_tracing
}

# --- Four --attach=tracefs runs started at once (one a renamed copy of
# the binary), each -p on the same workload.  Every start-up sweeps the
# ext4dist events no process holds: none may take another's (a live run
# holds its events; one just defined and not yet opened is defined again).
scenario_concurrent_starts() {
	local go wpid pids="" nth p bin bad="" again left
	ensure_tracefs
	cp /bin/ext4dist /tmp/xdist
	go=$WORK/go-conc
	rm -f "$go"
	workload -g "$go" /mnt/ext4/conc $O $R $W $F > "$WORK/conc.wl" 2>&1 &
	wpid=$!
	for nth in 1 2 3 4; do
		bin=ext4dist
		[ "$nth" != 2 ] || bin=/tmp/xdist
		"$bin" --attach=tracefs -v -p "$wpid" > "$WORK/conc$nth.out" 2> "$WORK/conc$nth.err" &
		pids="$pids $!"
	done
	# (nth, not i: wait_banner and wait_exit count with i.)
	nth=1
	for p in $pids; do
		wait_banner "$p" "$WORK/conc$nth.out" 60 || bad="$bad instance $nth: no banner;"
		nth=$((nth + 1))
	done
	touch "$go"
	wait "$wpid" || true
	for p in $pids; do kill -INT "$p" 2>/dev/null || true; done
	nth=1
	for p in $pids; do
		wait_exit "$p" 30 || true
		if [ "$RC" != 0 ]; then
			bad="$bad instance $nth exited $RC;"
		elif grep -q '^ext4dist: warning' "$WORK/conc$nth.err"; then
			bad="$bad instance $nth: $(grep '^ext4dist: warning' "$WORK/conc$nth.err" | head -n 1);"
		elif [ "$(counts "$WORK/conc$nth.out")" != "$WANT" ]; then
			bad="$bad instance $nth: got '$(counts "$WORK/conc$nth.out")';"
		fi
		nth=$((nth + 1))
	done
	again=$(cat "$WORK"/conc[1-4].err | grep -c 'defining it again' || true)
	echo "concurrent-starts: $again event definitions redone after another instance's sweep"
	left=$(our_events)
	if [ -n "$bad" ]; then
		fail concurrent-starts "$bad" "$WORK/conc1.err" "$WORK/conc2.err" \
			"$WORK/conc3.err" "$WORK/conc4.err"
	elif [ -n "$left" ]; then
		fail concurrent-starts "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')"
	else
		pass concurrent-starts
	fi
	rm -f /tmp/xdist
}

# --- ext4dist as PID 1 of a PID namespace (unshare -fp), killed with -9:
# its 8 events are named ext4dist_1_...  The next PID 1 there must sweep
# them (they are nobody's: no perf fd holds them) and start.
scenario_pid1_namespace() {
	local u k n left
	! pid_ns_absent pid1-namespace-not-built || return 0
	ensure_tracefs
	unshare -fp ext4dist --attach=tracefs > "$WORK/ns1.out" 2> "$WORK/ns1.err" &
	u=$!
	if ! wait_banner "$u" "$WORK/ns1.out" 60; then
		fail pid1-namespace "first run: no banner within 60 s" "$WORK/ns1.out" "$WORK/ns1.err"
		stop_all "$(child_of "$u")" "$u"
		return 0
	fi
	k=$(child_of "$u")
	kill -9 "$k"
	wait "$u" 2>/dev/null || true
	n=$(our_events 1_ | wc -l)
	if [ "$n" != 8 ]; then
		fail pid1-namespace "precondition: $n events named ext4dist_1_ after kill -9, want 8" \
			"$WORK/ns1.err"
		return 0
	fi
	unshare -fp ext4dist --attach=tracefs > "$WORK/ns2.out" 2> "$WORK/ns2.err" &
	u=$!
	if ! wait_banner "$u" "$WORK/ns2.out" 60; then
		fail pid1-namespace "second run: no banner within 60 s" "$WORK/ns2.out" "$WORK/ns2.err"
		stop_all "$(child_of "$u")" "$u"
		return 0
	fi
	kill -INT "$(child_of "$u")"
	wait_exit "$u" 30 || true
	left=$(our_events)
	if [ "$RC" != 0 ]; then
		fail pid1-namespace "second run exited $RC" "$WORK/ns2.out" "$WORK/ns2.err"
	elif ! grep -q '^ext4dist: removed 8 stale kprobe events' "$WORK/ns2.err"; then
		fail pid1-namespace "no 'removed 8 stale kprobe events' line" "$WORK/ns2.err"
	elif [ -n "$left" ]; then
		fail pid1-namespace "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')" "$WORK/ns2.err"
	else
		pass pid1-namespace
	fi
}

# --- -p: a thread id is refused, naming its process; inside a PID
# namespace a PID is translated to the initial namespace's when /proc is
# the initial one's (exact counts while other processes do the same
# operations), refused when /proc is the namespace's own.
scenario_pid_namespaces() {
	local go wpid tid t i rc=0 got
	go=$WORK/go-tid
	rm -f "$go"
	workload -g "$go" -t 2 -n 40 -s 50 /mnt/ext4/tid 1 1 1 0 > "$WORK/tid.wl" 2>&1 &
	wpid=$!
	touch "$go"
	tid="" i=0
	while [ -z "$tid" ] && [ "$i" -lt 100 ]; do
		for t in /proc/"$wpid"/task/*; do
			[ "${t##*/}" = "$wpid" ] || [ ! -e "$t" ] || tid=${t##*/}
		done
		i=$((i + 1))
		sleep 0.05
	done
	# (timeout: a build that took -p as it came would trace on.)
	timeout 30 ext4dist -p "$tid" > "$WORK/tid.out" 2> "$WORK/tid.err" || rc=$?
	stop_all "$wpid"
	if [ -z "$tid" ] || [ "$rc" != 1 ]; then
		fail pid-thread-id "exit status $rc for -p '$tid', want 1" "$WORK/tid.out" "$WORK/tid.err"
	else
		check pid-thread-id "$(cat "$WORK/tid.err")" \
			"ext4dist: -p $tid is a thread of process $wpid, not a process: -p keeps one process (all its threads); use -p $wpid" \
			"$WORK/tid.err"
	fi

	! pid_ns_absent pid-namespaces-not-built || return 0
	rc=0
	timeout 30 unshare -fp --mount-proc ext4dist -p 1 \
		> "$WORK/nsproc.out" 2> "$WORK/nsproc.err" || rc=$?
	if [ "$rc" != 1 ]; then
		fail pid-namespace-own-proc "exit status $rc, want 1" "$WORK/nsproc.out" "$WORK/nsproc.err"
	else
		check pid-namespace-own-proc "$(cat "$WORK/nsproc.err")" \
			"ext4dist: -p 1 cannot be honoured: ext4dist runs in a PID namespace of its own, the BPF programs compare the PIDs of the initial one, and this /proc shows the PIDs of another namespace; run ext4dist in the initial PID namespace (on the host) with the PID seen there" \
			"$WORK/nsproc.err"
	fi

	# Inside the namespace: the workload gets a namespace PID, which -p
	# takes; /proc is still the initial namespace's.
	OUT=$WORK/nspid.out ERR=$WORK/nspid.err
	rm -f "$OUT" "$ERR" "$WORK/go-ns"
	cat > "$WORK/nspid.sh" <<-EOF
	workload -g $WORK/go-ns /mnt/ext4/nspid $O $R $W $F > $WORK/nspid.wl 2>&1 &
	w=\$!
	ext4dist -v -p \$w > $OUT 2> $ERR &
	e=\$!
	i=0
	while ! grep -qxF '$BANNER' $OUT && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i + 1)); done
	touch $WORK/go-ns
	wait \$w
	sleep 0.3
	kill -INT \$e
	wait \$e
	echo "rc=\$? local=\$w"
	EOF
	noise_start /mnt/ext4
	got=$(unshare -fp sh "$WORK/nspid.sh" 2>&1 | tail -n 1)
	noise_stop
	if [ "${got%% *}" != rc=0 ]; then
		fail pid-namespace-translated "ext4dist in the namespace: '$got'" "$OUT" "$ERR"
	elif ! grep -q "^ext4dist: -p ${got##*=} is PID [0-9]* in the initial PID namespace (pidfd fdinfo)$" "$ERR"; then
		fail pid-namespace-translated "no translation line for -p ${got##*=}" "$ERR"
	else
		check pid-namespace-translated "$(counts "$OUT")" "$WANT" "$OUT" "$ERR"
	fi
}

# --- Every signal whose default action ends the process stops ext4dist
# through its normal path: exit status 128 + the signal, one line naming
# it, and the tracefs events removed.  Numbers as on x86_64.
scenario_fatal_signals() {
	local spec sig name bad="" left rc n
	ensure_tracefs
	for spec in 3:QUIT 6:ABRT 10:USR1 12:USR2 14:ALRM 16:STKFLT 24:XCPU \
		25:XFSZ 26:VTALRM 27:PROF 29:IO 30:PWR 31:SYS 34:RTMIN+0 \
		64:RTMIN+30; do
		sig=${spec%%:*} name=${spec#*:}
		# The shell truncates them in the background job: an old
		# banner must not let the signal come before the handlers.
		rm -f "$WORK/sig.out" "$WORK/sig.err"
		ext4dist --attach=tracefs > "$WORK/sig.out" 2> "$WORK/sig.err" &
		EPID=$!
		if ! wait_banner "$EPID" "$WORK/sig.out" 60; then
			bad="$bad SIG$name: no banner;"
			stop_all "$EPID"
			continue
		fi
		kill -"$sig" "$EPID"
		wait_exit "$EPID" 30 || true
		left=$(our_events "${EPID}_")
		if [ "$RC" != $((128 + sig)) ]; then
			bad="$bad SIG$name: exit status $RC, want $((128 + sig));"
		elif [ "$(cat "$WORK/sig.err")" != "ext4dist: stopped by SIG$name (probes removed)" ]; then
			bad="$bad SIG$name: stderr '$(head -n 1 "$WORK/sig.err")';"
		elif [ -n "$left" ]; then
			bad="$bad SIG$name: $(echo "$left" | wc -l) events left;"
		fi
	done
	if [ -n "$bad" ]; then
		fail fatal-signals "$bad"
	else
		pass fatal-signals
	fi

	# A write past RLIMIT_FSIZE (0 here): EFBIG and a SIGXFSZ from the
	# kernel, which must not stop (nor kill) the run.  stderr goes
	# through a pipe, which the limit does not concern.
	rm -f "$WORK/big.prom"
	( ulimit -f 0 && ext4dist --attach=tracefs --ops read \
		--prometheus "$WORK/big.prom" 1 2 2>&1 > /dev/null
	  echo "rc=$?" ) | cat > "$WORK/xfsz.err"
	rc=$(sed -n 's/^rc=//p' "$WORK/xfsz.err")
	n=$(grep -c "^ext4dist: cannot write $WORK/big.prom: File too large$" "$WORK/xfsz.err" || true)
	left=$(our_events)
	if [ "$rc" != 0 ]; then
		fail file-size-limit "exit status $rc, want 0" "$WORK/xfsz.err"
	elif [ -n "$left" ]; then
		fail file-size-limit "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')" "$WORK/xfsz.err"
	else
		check file-size-limit "$n EFBIG lines" "2 EFBIG lines" "$WORK/xfsz.err"
	fi
}

# --- --prometheus over an existing file keeps its owner and mode; a
# device node is refused before tracing and left as it was.
scenario_prometheus_file() {
	local f=/mnt/tmpfs/keep.prom rc=0
	echo old > "$f"
	chmod 600 "$f"
	chown 65534:65534 "$f"
	ext4dist --ops read --prometheus "$f" 1 1 > "$WORK/keep.out" 2> "$WORK/keep.err" || rc=$?
	if [ "$rc" != 0 ]; then
		fail prometheus-owner-mode "exit status $rc" "$WORK/keep.out" "$WORK/keep.err"
	elif ! grep -q '^ext4dist_latency_seconds_count{op="read"} ' "$f"; then
		fail prometheus-owner-mode "no histogram in $f" "$f" "$WORK/keep.err"
	else
		check prometheus-owner-mode "$(stat -c '%a %u %g' "$f")" "600 65534 65534"
	fi
	rc=0
	timeout 30 ext4dist --prometheus /dev/full 1 1 > "$WORK/full.out" 2> "$WORK/full.err" || rc=$?
	if [ "$rc" != 1 ] || [ ! -c /dev/full ] || grep -qxF "$BANNER" "$WORK/full.out"; then
		fail prometheus-device-refused "exit status $rc, /dev/full $(stat -c %F /dev/full)" \
			"$WORK/full.out" "$WORK/full.err"
	else
		pass prometheus-device-refused
	fi
}

# --- ext4dist as a process of a PID namespace with its own /proc
# (unshare -fp --mount-proc), where getpid() is not the PID its programs
# compare.  It must leave out exactly its own file operations (its
# --prometheus file on ext4, written every second), not those of the host process
# that has its namespace PID as its PID (a workload made to get that
# PID, through ns_last_pid on both sides); find file names (ext4slower);
# start the generic read path (its f_op probe serves only ext4dist).
NSSELF_PID=29000

# ns_pid_next N: the next process forked in this PID namespace gets N
# (when free).
ns_pid_next() { echo $(($1 - 1)) > /proc/sys/kernel/ns_last_pid; }

scenario_pid_ns_self() {
	local p w u rc got tries=0
	! pid_ns_absent pid-ns-self-not-built || return 0
	ensure_tracefs
	rm -f "$WORK/go-nsself" "$WORK/nsself.stop" "$WORK/nsself.out" \
		/mnt/ext4/nsself.prom "$WORK/nsself.epid" "$WORK/nsself.rc"
	# A host workload whose PID is one the namespace will give ext4dist.
	p=$NSSELF_PID
	while :; do
		ns_pid_next "$p"
		workload -g "$WORK/go-nsself" /mnt/ext4/nsself $O $R $W $F \
			> "$WORK/nsself.wl" 2>&1 &
		w=$!
		[ "$w" != "$p" ] || break
		touch "$WORK/go-nsself"
		wait "$w" || true
		rm -f "$WORK/go-nsself"
		tries=$((tries + 1))
		if [ "$tries" -ge 5 ]; then
			fail pid-ns-self "precondition: could not start a workload with PID $p (got $w)"
			return 0
		fi
		p=$((p + 97))
	done
	cat > "$WORK/nsself.sh" <<-EOF2
	echo $((p - 1)) > /proc/sys/kernel/ns_last_pid
	ext4dist --prometheus /mnt/ext4/nsself.prom 1 > $WORK/nsself.out 2> $WORK/nsself.err &
	e=\$!
	echo \$e > $WORK/nsself.epid
	while [ ! -e $WORK/nsself.stop ]; do sleep 0.05; done
	kill -INT \$e
	wait \$e
	echo \$? > $WORK/nsself.rc
	EOF2
	unshare -fp --mount-proc sh "$WORK/nsself.sh" &
	u=$!
	i=0
	while ! grep -qxF "$BANNER" "$WORK/nsself.out" 2>/dev/null && [ "$i" -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	touch "$WORK/go-nsself"
	wait "$w" || true
	# Two intervals more: its own writes (--prometheus) go on.
	sleep 2.2
	touch "$WORK/nsself.stop"
	wait "$u" || true
	rc=$(cat "$WORK/nsself.rc" 2>/dev/null)
	OUT=$WORK/nsself.out ERR=$WORK/nsself.err
	if [ "$(cat "$WORK/nsself.epid" 2>/dev/null)" != "$p" ]; then
		fail pid-ns-self "precondition: ext4dist got PID $(cat "$WORK/nsself.epid" 2>/dev/null) in its namespace, not $p" "$ERR"
	elif [ "$rc" != 0 ]; then
		fail pid-ns-self "ext4dist exited '$rc'" "$OUT" "$ERR"
	elif [ -n "$(our_events)" ]; then
		fail pid-ns-self "kprobe_events still holds: $(our_events | tr '\n' ' ')" "$ERR"
	else
		check pid-ns-self "$(accounted)" "$WANT" "$OUT" "$ERR"
	fi

	# ext4slower there: file names found, every call of a workload of
	# the namespace printed with its name.
	got=$(ns_traced nsnames "$SLOW_HEADER" ext4slower -j 0)
	OUT=$WORK/nsnames.out ERR=$WORK/nsnames.err
	if [ "$got" != rc=0 ]; then
		fail pid-ns-self-names "ext4slower in the namespace: '$got'" "$OUT" "$ERR"
	else
		check pid-ns-self-names "$(grep -c 'file names will show as' "$ERR") warnings, $(awk -F, '$8 == "nsnames"' "$OUT" | wc -l) events named nsnames" \
			"0 warnings, $((O + R + W + F)) events named nsnames" "$OUT" "$ERR"
	fi

	# The generic read path there: started, every read counted
	# (ext4_file_operations from the module file where kallsyms lacks it:
	# armmp, without KALLSYMS_ALL).
	ext4_ko_install
	got=$(ns_traced nsgen "$BANNER" ext4dist --read-path=generic)
	ext4_ko_remove
	OUT=$WORK/nsgen.out ERR=$WORK/nsgen.err
	if [ "$got" != rc=0 ]; then
		fail pid-ns-self-generic-read "ext4dist --read-path=generic in the namespace: '$got'" "$OUT" "$ERR"
	else
		check pid-ns-self-generic-read "$(accounted)" "$WANT" "$OUT" "$ERR"
	fi
}

# ns_traced NAME LINE CMD...: in a PID namespace with its own /proc, CMD
# (its output in $WORK/NAME.out and .err); once LINE is a line of its
# stdout, the workload of $O $R $W $F on /mnt/ext4/NAME, then SIGINT.
# Prints "rc=" and CMD's exit status.
ns_traced() {
	local name=$1 line=$2
	shift 2
	cat > "$WORK/$name.sh" <<-EOF2
	$* > $WORK/$name.out 2> $WORK/$name.err &
	e=\$!
	i=0
	while ! grep -qxF '$line' $WORK/$name.out && [ \$i -lt 1200 ]; do
		kill -0 \$e 2>/dev/null || break
		sleep 0.05; i=\$((i + 1))
	done
	workload /mnt/ext4/$name $O $R $W $F > $WORK/$name.wl 2>&1
	sleep 0.3
	kill -INT \$e
	wait \$e
	echo "rc=\$?"
	EOF2
	unshare -fp --mount-proc sh "$WORK/$name.sh" 2>&1 | tail -n 1
}
