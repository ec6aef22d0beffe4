# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; the MSG_* texts are read by the scenario files
# Helpers for the scripts that run inside the test VM (busybox sh).
# Results go to stdout (the serial console, mixed with kernel messages) and,
# when the host attached it, to the second serial port /dev/ttyS1, which
# carries nothing else: the host parses that one.

KERNEL=$(uname -r)
TRACEFS=/sys/kernel/tracing
WORK=/tmp/ext4dist-test
BANNER='Tracing ext4 operation latency... Hit Ctrl-C to end.'
mkdir -p "$WORK"

# --- ext4dist's refusals where a kernel lacks a feature, exactly as the
# current binary prints them.  Each message lives here only.
# @PID@ stands for ext4dist's pid, @ERRNO@
# for the text of the errno the kernel gave (see bpf_unknown_errno).
# --attach=pmu without the kprobe PMU (before 4.17).
MSG_NO_PMU='ext4dist: --attach=pmu: this kernel has no kprobe PMU (/sys/bus/event_source/devices/kprobe/type is missing; it arrived in 4.17); use --attach=tracefs'
# --attach=multi where the kprobe_multi program cannot even be loaded
# (a bpf_attr without expected_attach_type, before 4.17) ...
MSG_NO_MULTI_LOAD='ext4dist: --attach=multi: no kprobe_multi links here: loading a kprobe_multi program failed with "@ERRNO@": the kernel does not know the attach type (they need 5.18+ with CONFIG_FPROBE)'
# ... or loads but no kprobe_multi link can be made (before 5.18, or no
# CONFIG_FPROBE).
MSG_NO_MULTI_LINK='ext4dist: --attach=multi: no kprobe_multi links here: a test link on one address that cannot be read was refused with "@ERRNO@" before that address was looked at (they need 5.18+ with CONFIG_FPROBE)'
# ext4 not registered (a modular kernel before modprobe ext4).
MSG_NO_EXT4="ext4dist: ext4 is not loaded in this kernel (no ext4 in /proc/filesystems): run 'modprobe ext4' or mount an ext4 file system, then try again"

# out LINE...: one line to the console and to the results port.
out() {
	echo "$*"
	if [ -c /dev/ttyS1 ]; then echo "$*" > /dev/ttyS1; fi
}

# out_file FILE PREFIX: a file's lines to both channels, each prefixed.
out_file() {
	local l
	[ -s "$1" ] || { out "$2(empty)"; return 0; }
	while IFS= read -r l || [ -n "$l" ]; do out "$2$l"; done < "$1"
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

# refusal MSG [PID [ERRNO]]: one of the MSG_* texts above with @PID@ and
# @ERRNO@ filled in.
refusal() {
	local msg="$1"
	[ $# -lt 2 ] || msg=$(printf '%s\n' "$msg" | sed "s|@PID@|$2|g")
	[ $# -lt 3 ] || msg=$(printf '%s\n' "$msg" | sed "s|@ERRNO@|$3|g")
	printf '%s\n' "$msg"
}

# expect_refusal NAME RC OUTFILE ERRFILE WANT...: PASS when ext4dist
# exited 1 (RC) without its banner and its whole stderr is one of the
# WANT lines; else FAIL with what it printed.
expect_refusal() {
	local name="$1" rc="$2" o="$3" e="$4" got w
	shift 4
	got=$(cat "$e")
	if [ "$rc" != 1 ]; then
		fail "$name" "exit status $rc, want 1 and the refusal '$1'" "$o" "$e"
		return 0
	fi
	if grep -qxF "$BANNER" "$o"; then
		fail "$name" "printed the banner although it refused" "$o" "$e"
		return 0
	fi
	for w in "$@"; do
		if [ "$got" = "$w" ]; then
			pass "$name"
			return 0
		fi
	done
	if [ $# = 1 ]; then
		fail "$name" "got '$got', want '$1'" "$o" "$e"
	else
		fail "$name" "got '$got', want one of: $(printf "'%s' " "$@")" "$o" "$e"
	fi
}

# --- What this kernel has, asked of the kernel itself (never of its
# version number).
# has_kprobe_pmu: the perf kprobe PMU (4.17+).
has_kprobe_pmu() { [ -e /sys/bus/event_source/devices/kprobe/type ]; }

# want_fop_offset: where this kernel's struct file keeps f_op, the fact
# the f_op discovery must find (f_u, f_path, f_inode before it up to 6.11;
# 4.9 and 4.19 checked in their vmlinux: __vfs_read loads file->f_op from
# 0x28); empty for a kernel not known here.
want_fop_offset() {
	# A 32-bit kernel: f_u 8, f_path 8, f_inode 4.
	case "$(uname -m)" in
	armv7*) echo 20; return 0 ;;
	esac
	case "$KERNEL" in
	4.9.*|4.19.*|5.10.*|6.1.*) echo 40 ;;
	6.12.*) echo 16 ;;
	esac
}

# pid_ns_absent NAME: the kernel is built without PID namespaces (no
# /proc/self/ns/pid: the vanilla 4.9 and 4.19 have no CONFIG_NAMESPACES):
# then NAME checks that unshare -p is refused and returns 0; else 1.
pid_ns_absent() {
	[ ! -e /proc/self/ns/pid ] || return 1
	check "$1" "$(unshare -fp true 2>&1)" \
		"unshare: unshare(0x20000000): Invalid argument"
	return 0
}

# ext4_ko_install / ext4_ko_remove: a module's file where a distribution
# installs it (/lib/modules/<release>/kernel/fs/ext4/ext4.ko; the
# initramfs holds the copy insmod loaded): without CONFIG_KALLSYMS_ALL
# (armmp) it is the source of ext4_file_operations a real system offers.
# Nothing for a built-in ext4.
ext4_ko_install() {
	[ -e /sys/module/ext4/initstate ] && [ -e /lib/modules/ext4.ko ] || return 0
	# Already there (the arm64 initramfs links it, tests/vm-arm64/lib.sh):
	# not ours to remove.
	[ ! -e "/lib/modules/$KERNEL/kernel/fs/ext4/ext4.ko" ] || return 0
	mkdir -p "/lib/modules/$KERNEL/kernel/fs/ext4"
	cp /lib/modules/ext4.ko "/lib/modules/$KERNEL/kernel/fs/ext4/ext4.ko"
	EXT4_KO_OURS=1
}
ext4_ko_remove() {
	[ -z "${EXT4_KO_OURS:-}" ] || rm -rf "/lib/modules/$KERNEL"
	EXT4_KO_OURS=
}

# ext4_builtin: ext4 is built into the kernel: registered, and no module
# state for it (/sys/module/ext4/initstate exists only for a module).
ext4_builtin() {
	grep -q '[[:space:]]ext4$' /proc/filesystems &&
		[ ! -e /sys/module/ext4/initstate ]
}

# remove_events_since BEFORE: removes the kprobe_events definitions that
# are not lines of BEFORE (an earlier copy of the file).
remove_events_since() {
	local now line ev
	now=$(cat "$TRACEFS/kprobe_events")
	printf '%s\n' "$now" | while IFS= read -r line; do
		[ -n "$line" ] || continue
		printf '%s\n' "$1" | grep -qxF -- "$line" && continue
		ev=$(printf '%s\n' "$line" | sed 's/^[^:]*:\([^ ]*\) .*/\1/')
		echo "-:$ev" >> "$TRACEFS/kprobe_events"
	done
}

# has_maxactive: kprobe_events takes "rN:" (maxactive, 4.12+): a trial
# kretprobe definition makes the event it names.  (4.9 accepts the line
# but takes "r1" for "r" and names the event itself: whatever the trial
# made is removed again.)
has_maxactive() {
	local before ok=1
	ensure_tracefs
	before=$(cat "$TRACEFS/kprobe_events")
	echo 'r1:kprobes/vmtest_maxactive ext4_sync_file' >> "$TRACEFS/kprobe_events" 2>/dev/null || true
	[ -d "$TRACEFS/events/kprobes/vmtest_maxactive" ] || ok=0
	remove_events_since "$before"
	[ "$ok" = 1 ]
}

# has_smaps_rollup: /proc/PID/smaps_rollup (4.14+).
has_smaps_rollup() { [ -r /proc/self/smaps_rollup ]; }

# load_modules LIST: insmod the modules named in LIST (one file name a line,
# in dependency order, produced on the host from modules.dep; empty for a
# kernel with everything built in).
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

# warned FILE: what ext4dist's "warning: in this interval ..." lines on
# stderr (FILE) add up to: "N missed probe hits, M calls without a start
# record".
warned() {
	sed -n 's/^ext4dist: warning: in this interval the kernel missed \([0-9][0-9]*\) probe hits* .* and \([0-9][0-9]*\) calls* lost .*/\1 \2/p' "$1" |
		awk '{ m += $1; l += $2 } END { printf "%d missed probe hits, %d calls without a start record\n", m, l }'
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

# workload_start NAME FILE OPENS READS WRITES FSYNCS: the workload in the
# background, waiting on the go file $WORK/go (WORKLOAD_OPTS: its own
# options), its output in $WORK/NAME.wl.  Sets WPID.
workload_start() {
	rm -f "$WORK/go"
	# shellcheck disable=SC2086 # WORKLOAD_OPTS: workload's own options
	workload -g "$WORK/go" ${WORKLOAD_OPTS:-} "$2" "$3" "$4" "$5" "$6" \
		> "$WORK/$1.wl" 2>&1 &
	WPID=$!
}

# workload_args ARGS...: ARGS on one line, @PID@ replaced by $WPID.
workload_args() {
	local a s=""
	for a in "$@"; do
		[ "$a" != @PID@ ] || a=$WPID
		s="$s $a"
	done
	echo "$s"
}

# workload_go NAME NOISE PRE_HOOK POST_HOOK [PID...]: once the tracers
# (PIDs) are in, PRE_HOOK (when set), the workload released and waited
# for; with NOISE 1 the noise runs 0.3 s more, to be inside the traced
# window for sure, then stops; POST_HOOK (when set).  When the workload
# failed: FAIL NAME, the tracers killed and reaped, and 1.  (The hooks
# share the caller's variables.)
workload_go() {
	local name=$1 noise=$2 pre=$3 post=$4 wrc=0 pid
	shift 4
	[ -z "$pre" ] || $pre
	touch "$WORK/go"
	wait "$WPID" || wrc=$?
	[ "$noise" = 0 ] || sleep 0.3
	noise_stop
	[ -z "$post" ] || $post
	[ "$wrc" != 0 ] || return 0
	fail "$name" "workload exited $wrc" "$WORK/$name.wl"
	kill -9 "$@" 2>/dev/null || true
	for pid in "$@"; do
		wait "$pid" 2>/dev/null || true
	done
	return 1
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
# TRACED_BIN runs another name of the binary (xfsdist), which prints
# BANNER too.  TRACED_NOISE=0 leaves the noise out (faster, for runs that repeat a
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
	local name="$1" args noise=0 bfile
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	# The shell truncates OUT in the background job: an old OUT of the
	# same name must not show its banner meanwhile.
	rm -f "$OUT" "$ERR"
	workload_start "$@"
	shift 6
	args=$(workload_args "$@")
	case " $* " in *" @PID@ "*) noise=1 ;; esac
	[ "$TRACED_NOISE" = 1 ] || noise=0
	[ "$noise" = 0 ] || noise_start /mnt/ext4
	# shellcheck disable=SC2086 # args is a list of plain words
	${TRACED_BIN:-ext4dist} $args > "$OUT" 2> "$ERR" &
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
	workload_go "$name" "$noise" "$TRACED_HOOK" "${TRACED_POST_HOOK:-}" \
		"$EPID" || return 1
	kill -"$SIGNAL" "$EPID"
	if ! wait_exit "$EPID" 30; then
		fail "$name" "ext4dist did not exit within 30 s of SIG$SIGNAL" \
			"$OUT" "$ERR"
		return 1
	fi
}

# untimed FILE: per-operation sums of the calls ext4dist's warnings say
# were not timed ("N fsync calls were not timed: ...", "N fsync calls had
# not returned when tracing stopped: ...") or not counted at all ("N read
# calls were not counted: the kernel did not run the entry program ..."),
# in counts' format.
untimed() {
	sed -n -e 's/^ext4dist: warning: \(in this interval \)\{0,1\}\([0-9][0-9]*\) \([a-z]*\) calls* w[ae][rs]e* not timed: .*/\3 \2/p' \
		-e 's/^ext4dist: warning: \(in this interval \)\{0,1\}\([0-9][0-9]*\) \([a-z]*\) calls* w[ae][rs]e* not counted: .*/\3 \2/p' \
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

# The runners of the other architectures' guests (tests/vm-*/guest/*-
# scenarios.sh) build their script from this harness's scenarios.sh: its
# definitions are everything before its first top-level call.
SCENARIO_CALL_RE='^(run )?(setup_filesystems|scenario_[a-z0-9_]+)$'

# scenarios_first HARNESS: SCENARIOS_FIRST, the line of scenarios.sh's
# first top-level call; none is a failure of HARNESS (returns 1).
scenarios_first() {
	SCENARIOS_FIRST=$(grep -nE "$SCENARIO_CALL_RE" /guest/scenarios.sh | head -n 1 | cut -d: -f1)
	if [ -z "$SCENARIOS_FIRST" ]; then
		fail "$1-harness" "no top-level scenario call found in /guest/scenarios.sh"
		return 1
	fi
}

# scenarios_named HARNESS FIRST FN...: the script's lines that run each
# FN (one no file of /guest defines fails HARNESS there), then the
# closing checks of scenarios.sh (its lines after the calls).
scenarios_named() {
	local harness=$1 first=$2 fn
	shift 2
	for fn in "$@"; do
		if ! cat /guest/*.sh | grep -q "^$fn() {"; then
			echo "fail $harness-harness \"$fn is not defined in /guest/*.sh\""
			echo "exit 1"
		fi
		echo "run $fn"
	done
	tail -n +"$first" /guest/scenarios.sh | grep -vE "$SCENARIO_CALL_RE"
}

# kmem_fields FILE: what --check's output FILE says of memory, as
# "memtotal_kb=N slots=N kib=N maps=N maps_kib=N start_kib=N progs=N
# progs_kib=N vmhwm_kb=N" (the fields it lacks left out).
kmem_fields() {
	echo "memtotal_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)" \
		"$(sed -n 's/^start records  *\([0-9]*\) slots .*/slots=\1/p' "$1")" \
		"$(sed -n 's/^kernel memory  *\([0-9]*\) KiB (memlock[^:]*): \([0-9]*\) maps \([0-9]*\) KiB (the start records \([0-9]*\) KiB), \([0-9]*\) programs \([0-9]*\) KiB$/kib=\1 maps=\2 maps_kib=\3 start_kib=\4 progs=\5 progs_kib=\6/p' "$1")" \
		"$(sed -n 's/^peak RSS  *\([0-9]*\) kB .*/vmhwm_kb=\1/p' "$1")"
}
