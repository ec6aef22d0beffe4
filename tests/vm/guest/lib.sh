# shellcheck shell=dash disable=SC3043 # busybox ash has local
# Helpers for the scripts that run inside the test VM (busybox sh).
# Results go to stdout (the serial console, mixed with kernel messages) and,
# when the host attached it, to the second serial port /dev/ttyS1, which
# carries nothing else: the host parses that one.

KERNEL=$(uname -r)
TRACEFS=/sys/kernel/tracing
WORK=/tmp/ext4dist-test
BANNER='Tracing ext4 operation latency... Hit Ctrl-C to end.'
mkdir -p "$WORK"

# out LINE...: one line to the console and to the results port.
out() {
	echo "$*"
	if [ -c /dev/ttyS1 ]; then echo "$*" > /dev/ttyS1; fi
}

# out_file FILE PREFIX: a file's lines to both channels, each prefixed.
out_file() {
	[ -s "$1" ] || { out "$2(empty)"; return 0; }
	while IFS= read -r line || [ -n "$line" ]; do out "$2$line"; done < "$1"
}

pass() { out "PASS $KERNEL $1"; }

# fail NAME DETAILS [FILE...]: FAIL line, then the files' text indented.
fail() {
	local name="$1" details="$2" f
	shift 2
	out "FAIL $KERNEL $name: $details"
	for f in "$@"; do
		out "    --- $(basename "$f"):"
		out_file "$f" "    | "
	done
}

# check NAME GOT WANT [FILE...]: PASS when GOT = WANT, else FAIL with both.
check() {
	local name="$1" got="$2" want="$3"
	shift 3
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "got '$got', want '$want'" "$@"
	fi
}

# load_modules LIST: insmod the modules named in LIST (one file name a line,
# in dependency order, produced on the host from modules.dep).
load_modules() {
	while read -r mod; do
		[ -n "$mod" ] || continue
		insmod "/lib/modules/$mod" || { echo "insmod $mod failed"; return 1; }
	done < "$1"
}

# wait_block DEV...: virtio probing is asynchronous.
wait_block() {
	for dev in "$@"; do
		i=0
		while [ ! -e "/sys/block/$dev" ] || [ ! -b "/dev/$dev" ]; do
			i=$((i + 1))
			if [ "$i" -gt 300 ]; then
				echo "timeout waiting for /dev/$dev"
				return 1
			fi
			sleep 0.1
		done
	done
}

# running PID: true while PID exists and is not a zombie.
running() {
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$state" ] && [ "$state" != Z ]
}

# wait_exit PID SECONDS: wait for PID to exit; sets RC to its status.
# Returns 1 (and kills it) when it is still running after SECONDS.
wait_exit() {
	i=0
	while running "$1"; do
		i=$((i + 1))
		if [ "$i" -gt $(($2 * 10)) ]; then
			kill -9 "$1" 2>/dev/null || true
			wait "$1" 2>/dev/null || true
			RC=killed
			return 1
		fi
		sleep 0.1
	done
	RC=0
	wait "$1" || RC=$?
}

# wait_banner PID OUTFILE SECONDS: wait for the banner in OUTFILE.
wait_banner() {
	i=0
	while ! grep -qxF "$BANNER" "$2" 2>/dev/null; do
		running "$1" || return 1
		i=$((i + 1))
		[ "$i" -le $(($3 * 20)) ] || return 1
		sleep 0.05
	done
}

ensure_tracefs() {
	[ -e "$TRACEFS/kprobe_events" ] || mount -t tracefs nodev "$TRACEFS"
}

# our_events [PID]: kprobe_events lines of ext4dist (of PID, if given).
our_events() {
	ensure_tracefs
	grep "ext4dist_${1:-}" "$TRACEFS/kprobe_events" || true
}

# counts FILE: per-operation sums of the histogram rows in ext4dist output,
# as "open=N read=N write=N fsync=N" plus "NAME=N" for any other operation.
counts() {
	awk '
	/^operation = / { op = $3; gsub("\047", "", op); next }
	/^ *[0-9]+ -> [0-9]+ *: / && op != "" { n[op] += $5 }
	/^$/ { op = "" }
	END {
		printf "open=%d read=%d write=%d fsync=%d", n["open"], n["read"],
			n["write"], n["fsync"]
		for (k in n)
			if (k != "open" && k != "read" && k != "write" && k != "fsync")
				printf " %s=%d", k, n[k]
		printf "\n"
	}' "$1"
}

# format_errors FILE: lines of a histogram section that are not BCC's
# format (header "     usecs               : count     distribution",
# rows "%10d -> %-10d : %-8d |%-40s|").
format_errors() {
	awk '
	/^operation = \047[a-z]+\047$/ { sec = 1; hdr = 1; next }
	/^$/ { sec = 0; next }
	!sec { next }
	hdr {
		hdr = 0
		if ($0 !~ /^     (usecs|msecs)               : count     distribution$/)
			print "bad header: " $0
		next
	}
	{
		if ($0 !~ /^ *[0-9]+ -> [0-9]+ *: [0-9]+ *\|\** *\|$/ ||
		    (length($0) != 78 && $5 < 100000000))
			print "bad row: " $0
	}' "$1"
}

NOISE_PID=""
# noise_start DIR: other processes doing every traced operation on a file
# in DIR, in a loop, while a -p run traces the workload.  (Not cat: busybox
# cat uses sendfile, which does not go through ext4_file_read_iter.)
noise_start() {
	( while :; do
		workload -b 1024 "$1/noise" 1 8 4 1 > /dev/null || true
		sleep 0.02
	done ) &
	NOISE_PID=$!
}

noise_stop() {
	[ -n "$NOISE_PID" ] || return 0
	kill "$NOISE_PID" 2>/dev/null || true
	wait "$NOISE_PID" 2>/dev/null || true
	NOISE_PID=""
}

# traced_run NAME FILE OPENS READS WRITES FSYNCS [EXT4DIST ARGS...]
# Starts the workload (waiting on a go file), then ext4dist with ARGS, in
# which @PID@ stands for the workload's pid; waits for the banner, lets
# the workload run, then stops ext4dist with SIG$SIGNAL (INT by default).
# With -p (@PID@), other processes do the same operations on ext4 meanwhile
# (noise_start), so a broken pid filter shows up as extra counts.
# Sets OUT/ERR (ext4dist's stdout/stderr files), EPID, WPID and RC
# (ext4dist's exit status).  On a harness-level problem it prints FAIL NAME
# and returns 1.
# TRACED_NOISE=0 leaves the noise out (faster, for runs that repeat a
# -p check many times); TRACED_HOOK names a command run once ext4dist has
# printed its banner, before the workload starts (probes attached, EPID
# set); TRACED_POST_HOOK one run after the workload ended, before the
# signal.  (Both share the caller's variables: wait_banner and wait_exit
# set i.)
SIGNAL=INT
TRACED_NOISE=1
TRACED_HOOK=""
WORKLOAD_OPTS=""
traced_run() {
	local name="$1" file="$2" o="$3" r="$4" w="$5" f="$6" go a args wrc noise=0 bfile
	shift 6
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	# The shell truncates OUT in the background job: an old OUT of the
	# same name must not show its banner meanwhile.
	rm -f "$OUT" "$ERR"
	go=$WORK/go
	rm -f "$go"
	# shellcheck disable=SC2086 # WORKLOAD_OPTS: workload's own options
	workload -g "$go" ${WORKLOAD_OPTS:-} "$file" "$o" "$r" "$w" "$f" \
		> "$WORK/$name.wl" 2>&1 &
	WPID=$!
	args=""
	for a in "$@"; do
		if [ "$a" = @PID@ ]; then a=$WPID; noise=1; fi
		args="$args $a"
	done
	[ "$TRACED_NOISE" = 1 ] || noise=0
	[ "$noise" = 0 ] || noise_start /mnt/ext4
	# shellcheck disable=SC2086 # args is a list of plain words
	ext4dist $args > "$OUT" 2> "$ERR" &
	EPID=$!
	# With -j the banner goes to stderr, keeping stdout JSON only.
	bfile=$OUT
	case " $args " in *" -j "*|*" --json "*) bfile=$ERR ;; esac
	if ! wait_banner "$EPID" "$bfile" 60; then
		fail "$name" "no banner from 'ext4dist$args' within 60 s" \
			"$OUT" "$ERR"
		kill -9 "$EPID" "$WPID" 2>/dev/null || true
		noise_stop
		wait "$EPID" 2>/dev/null || true
		wait "$WPID" 2>/dev/null || true
		return 1
	fi
	[ -z "$TRACED_HOOK" ] || $TRACED_HOOK
	touch "$go"
	wrc=0
	wait "$WPID" || wrc=$?
	# Give the noise time to run inside the traced window for sure.
	[ "$noise" = 0 ] || sleep 0.3
	noise_stop
	[ -z "${TRACED_POST_HOOK:-}" ] || $TRACED_POST_HOOK
	if [ "$wrc" != 0 ]; then
		fail "$name" "workload exited $wrc" "$WORK/$name.wl"
		kill -9 "$EPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		return 1
	fi
	kill -"$SIGNAL" "$EPID"
	if ! wait_exit "$EPID" 30; then
		fail "$name" "ext4dist did not exit within 30 s of SIG$SIGNAL" \
			"$OUT" "$ERR"
		return 1
	fi
}

# untimed FILE: per-operation sums of the calls ext4dist's warnings say
# were not timed ("N fsync calls were not timed: ...", "N fsync calls had
# not returned when tracing stopped: ..."), in counts' format.
untimed() {
	sed -n -e 's/^ext4dist: warning: \(in this interval \)\{0,1\}\([0-9][0-9]*\) \([a-z]*\) calls* w[ae][rs]e* not timed: .*/\3 \2/p' \
		-e 's/^ext4dist: warning: \([0-9][0-9]*\) \([a-z]*\) calls* had not returned when tracing stopped: .*/\2 \1/p' "$1" |
	awk '{ n[$1] += $2 }
	END {
		printf "open=%d read=%d write=%d fsync=%d\n", n["open"], n["read"],
			n["write"], n["fsync"]
	}'
}

# add_counts A B: "open=N read=N write=N fsync=N" summed field by field.
add_counts() {
	printf '%s %s\n' "$1" "$2" | tr ' ' '\n' | awk -F= '
	NF == 2 { n[$1] += $2 }
	END {
		printf "open=%d read=%d write=%d fsync=%d\n", n["open"], n["read"],
			n["write"], n["fsync"]
	}'
}

# accounted: what ext4dist's output (OUT, ERR) accounts for, per
# operation: its histograms plus the calls its warnings name (none where
# nothing was missed); says on stderr when warned calls were added.
accounted() {
	local miss
	miss=$(untimed "$ERR")
	if [ "$miss" = "open=0 read=0 write=0 fsync=0" ]; then
		counts "$OUT"
	else
		echo "the histograms plus the warned calls ($miss)" >&2
		add_counts "$(counts "$OUT")" "$miss"
	fi
}

# expect_counts NAME WANT: traced_run's output holds exactly WANT,
# ext4dist exited 0 and left no kprobe event of its own behind.  Calls
# the kernel's return probes missed (too few kretprobe instances for the
# other processes' concurrent calls: 4.x kernels without "rN:") count only
# where ext4dist's warnings name each of them: histogram + warned = WANT.
expect_counts() {
	local left
	left=$(our_events "${EPID}_")
	if [ "$RC" != 0 ]; then
		fail "$1" "ext4dist exited $RC" "$OUT" "$ERR"
	elif [ -n "$left" ]; then
		fail "$1" "kprobe_events still holds after exit: $(echo "$left" | tr '\n' ' ')" \
			"$OUT" "$ERR"
	else
		check "$1" "$(accounted)" "$2" "$OUT" "$ERR"
	fi
}
