# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# Scenarios of the legacy-kernel paths (issue 4), forced on the test
# kernels: the generic read path, ext4_file_operations from the module file
# or --fops-addr, kern_version, map fallbacks, kretprobe misses, no kprobe
# PMU, tracing under debugfs.  Sourced by scenarios.sh (uses its O R W F,
# WANT and ZERO); each function prints PASS/FAIL lines.

# has_line FILE TEXT: FILE has a line containing TEXT (fixed string).
has_line() { grep -qF -- "$2" "$1"; }

# expect_verbose NAME FILE TEXT: PASS when ext4dist's -v output FILE holds
# TEXT, else FAIL showing the -v lines that matter.
expect_verbose() {
	if has_line "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "no '$3' on stderr" "$2"
	fi
}

# --- --read-path=generic (generic_file_read_iter filtered on f_op):
# the same exact counts as the default path, nothing on tmpfs, and the f_op
# offset of this kernel's struct file.
scenario_generic_read() {
	local want_off
	traced_run generic-read-exact /mnt/ext4/sa $O $R $W $F \
		--read-path=generic -v -p @PID@ || return 0
	expect_counts generic-read-exact "$WANT"
	want_off=$(want_fop_offset)
	if [ -z "$want_off" ]; then
		fail generic-fop-offset "no expected f_op offset known for kernel $KERNEL"
	else
		expect_verbose generic-fop-offset "$ERR" \
			"f_op discovered at offset $want_off of struct file"
	fi

	traced_run generic-read-tmpfs /mnt/tmpfs/sa $O $R $W $F \
		--read-path=generic -p @PID@ || return 0
	if grep -q '^operation = ' "$OUT"; then
		fail generic-read-tmpfs "an operation was printed for tmpfs" "$OUT" "$ERR"
	else
		expect_counts generic-read-tmpfs "$ZERO"
	fi
}

# --- ext4_file_operations not in kallsyms (CONFIG_KALLSYMS_ALL off,
# --pretend=no-kallsyms-data): a clear error without another source; then
# the source this kernel offers (the ext4 module file plus
# /sys/module/ext4/sections, or for a built-in ext4
# /boot/System.map-<release>); --fops-addr.
scenario_fops_sources() {
	local real kodir rc sysmap hidden=/tmp/System.map.hidden
	kodir=/lib/modules/$KERNEL/kernel/fs/ext4
	sysmap=/boot/System.map-$KERNEL
	real=$(awk '$3 == "ext4_file_operations" { print $1; exit }' /proc/kallsyms)
	if [ -z "$real" ] || [ "$real" = 0000000000000000 ]; then
		fail fops-missing-error "precondition: no ext4_file_operations address in /proc/kallsyms"
		return 0
	fi
	if [ ! -e "$sysmap" ]; then
		fail fops-missing-error "precondition: no $sysmap in the initramfs"
		return 0
	fi
	# A plain number for the comparisons with ext4dist's %llx.
	real=$(echo "$real" | sed 's/^0*//')

	# Neither System.map nor a module file.
	rm -rf "/lib/modules/$KERNEL"
	mv "$sysmap" "$hidden"
	rc=0
	timeout 60 ext4dist --read-path=generic --pretend=no-kallsyms-data \
		> "$WORK/fopsmiss.out" 2> "$WORK/fopsmiss.err" || rc=$?
	mv "$hidden" "$sysmap"
	if [ "$rc" != 1 ]; then
		fail fops-missing-error "exit status $rc, want 1" \
			"$WORK/fopsmiss.out" "$WORK/fopsmiss.err"
	elif ! has_line "$WORK/fopsmiss.err" CONFIG_KALLSYMS_ALL ||
	     ! has_line "$WORK/fopsmiss.err" --fops-addr; then
		fail fops-missing-error "stderr does not name both CONFIG_KALLSYMS_ALL and --fops-addr" \
			"$WORK/fopsmiss.out" "$WORK/fopsmiss.err"
	elif grep -qxF "$BANNER" "$WORK/fopsmiss.out"; then
		fail fops-missing-error "printed the banner although it failed" \
			"$WORK/fopsmiss.out" "$WORK/fopsmiss.err"
	else
		pass fops-missing-error
	fi

	if ext4_builtin; then
		# No module file: the kernel's System.map, moved by the KASLR
		# slide (none here), as a distribution installs it.
		traced_run fops-from-sysmap /mnt/ext4/sb1 $O $R $W $F \
			--read-path=generic --pretend=no-kallsyms-data -v -p @PID@ || return 0
		expect_counts fops-from-sysmap "$WANT"
		expect_verbose fops-from-sysmap-verbose "$ERR" \
			"ext4_file_operations found in $sysmap: 0x$real"
	else
		# The module file where modprobe would find it (uncompressed:
		# the initramfs holds the decompressed copy insmod loaded);
		# Debian's System.map is a placeholder, hidden all the same.
		mkdir -p "$kodir"
		cp /lib/modules/ext4.ko "$kodir/ext4.ko"
		mv "$sysmap" "$hidden"
		rc=0
		traced_run fops-from-module /mnt/ext4/sb1 $O $R $W $F \
			--read-path=generic --pretend=no-kallsyms-data -v -p @PID@ || rc=1
		rm -rf "/lib/modules/$KERNEL"
		mv "$hidden" "$sysmap"
		[ "$rc" = 0 ] || return 0
		expect_counts fops-from-module "$WANT"
		expect_verbose fops-from-module-verbose "$ERR" \
			"ext4_file_operations found in $kodir/ext4.ko plus /sys/module/ext4/sections: 0x$real"
	fi

	traced_run fops-addr-option /mnt/ext4/sb2 $O $R $W $F \
		--read-path=generic --pretend=no-kallsyms-data --fops-addr "0x$real" \
		-v -p @PID@ || return 0
	expect_counts fops-addr-option "$WANT"
	expect_verbose fops-addr-option-verbose "$ERR" \
		"ext4_file_operations = 0x$real from --fops-addr"
}

# --- --check: kern_version from the vDSO note equals LINUX_VERSION_CODE
# (the Debian version in uname -v, patch level clamped to 255; for a
# vanilla kernel the code the host read from its image), and ext4dist says
# whether parsing uname (uname -v, else uname -r) agrees.
scenario_check_report() {
	local rc line got want v debian uname_code agree
	rc=0
	ext4dist --check > "$WORK/check.out" 2> "$WORK/check.err" || rc=$?
	if [ "$rc" != 0 ]; then
		fail check-verdict "exit status $rc, want 0" "$WORK/check.out" "$WORK/check.err"
	elif ! grep -qxF 'verdict                ext4dist can trace here' "$WORK/check.out"; then
		fail check-verdict "no 'verdict                ext4dist can trace here' line" \
			"$WORK/check.out" "$WORK/check.err"
	else
		pass check-verdict
	fi

	# What uname parsing gives (ext4dist's fallback): the Debian version
	# of uname -v, else the release (patch level clamped to 255).
	debian=$(uname -v | sed -n 's/.*Debian \([0-9][0-9]*\)\.\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2 \3/p')
	v=$debian
	[ -n "$v" ] ||
		v=$(uname -r | sed -n 's/^\([0-9][0-9]*\)\.\([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2 \3/p')
	if [ -z "$v" ]; then
		fail check-kern-version "precondition: no 'Debian X.Y.Z' in uname -v ($(uname -v)) and no X.Y.Z release ($(uname -r))"
		return 0
	fi
	# shellcheck disable=SC2086 # "X Y Z"
	set -- $v
	uname_code=$(printf '0x%06x' $(( ($1 << 16) | ($2 << 8) | ($3 > 255 ? 255 : $3) )))
	# The kernel's LINUX_VERSION_CODE: a Debian kernel's is its Debian
	# version's; a vanilla one's was read from its image on the host
	# (/guest/linux-version-code: the 4.4-4.19 stable branches build
	# 255 in as the patch level, so 4.19.222 is 0x0413ff).
	if [ -n "$debian" ]; then
		want=$uname_code
	elif [ -s /guest/linux-version-code ]; then
		want=$(cat /guest/linux-version-code)
	else
		fail check-kern-version "precondition: no 'Debian X.Y.Z' in uname -v and no /guest/linux-version-code from the host"
		return 0
	fi
	agree=agrees
	[ "$uname_code" = "$want" ] || agree=differs
	line=$(grep '^kern_version ' "$WORK/check.out" || true)
	got=$(echo "$line" | awk '{ print $2 }')
	case "$line" in
	*"from the vDSO note; uname parsing $agree")
		check check-kern-version "$got" "$want" "$WORK/check.out" ;;
	*)
		fail check-kern-version "kern_version line does not end with 'from the vDSO note; uname parsing $agree' (uname gives $uname_code, the kernel $want): '$line'" \
			"$WORK/check.out" "$WORK/check.err" ;;
	esac
}

# bpf_prog_syms: the names of the BPF programs in kallsyms now (JIT'ed
# programs appear as bpf_prog_<tag> or bpf_prog_<tag>_<name>, with a
# "[bpf]" module column since 5.x, without one before: the 16 hex digits
# of the tag tell them from kernel functions such as bpf_prog_alloc).
BPF_SYMS=$WORK/bpf-syms
bpf_prog_syms() {
	awk '$3 ~ /^bpf_prog_[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f](_|$)/ &&
	     ($4 == "[bpf]" || $4 == "") { print $3 }' /proc/kallsyms > "$BPF_SYMS"
}

# jit_symbols_on: the kernel lists JIT'ed programs in kallsyms
# (bpf_jit_kallsyms, 4.13+), so their names can be seen: JIT and its
# symbols switched on for the run (restored by jit_symbols_restore; off
# by default on kernels without CONFIG_BPF_JIT_ALWAYS_ON).  False on a
# kernel that cannot list programs at all.
JIT_SAVED=""
jit_symbols_on() {
	local d=/proc/sys/net/core
	[ -e "$d/bpf_jit_kallsyms" ] || return 1
	JIT_SAVED="$(cat "$d/bpf_jit_enable") $(cat "$d/bpf_jit_kallsyms")"
	echo 1 > "$d/bpf_jit_enable" 2>/dev/null || true
	echo 1 > "$d/bpf_jit_kallsyms"
}
jit_symbols_restore() {
	local d=/proc/sys/net/core
	[ -n "$JIT_SAVED" ] || return 0
	# shellcheck disable=SC2086 # "enable kallsyms"
	set -- $JIT_SAVED
	echo "$2" > "$d/bpf_jit_kallsyms"
	echo "$1" > "$d/bpf_jit_enable" 2>/dev/null || true
	JIT_SAVED=""
}

# --- the map fallbacks of old kernels (--pretend): histograms in a
# plain array, no names, no kprobe_multi (so kprobes carry the programs);
# exact counts all the same.
scenario_forced_fallbacks() {
	local named jit=0
	! jit_symbols_on || jit=1
	TRACED_HOOK=bpf_prog_syms
	traced_run forced-fallbacks /mnt/ext4/sd $O $R $W $F \
		-v --pretend=no-percpu,no-names,no-multi -p @PID@ || {
		TRACED_HOOK=""
		jit_symbols_restore
		return 0
	}
	TRACED_HOOK=""
	jit_symbols_restore
	expect_counts forced-fallbacks "$WANT"
	# Not a fallback: 5.2+ reads the interval's word by address all the same.
	expect_verbose forced-fallbacks-ctl-by-address "$ERR" \
		"map values by address (BPF_PSEUDO_MAP_VALUE): taken: a one-entry map's lookup of key 0 reads the value at its address, no call"
	if ! has_line "$ERR" "map hist: percpu_array taken as array, as on a kernel without it"; then
		fail forced-fallbacks-array "no 'map hist: percpu_array taken as array, as on a kernel without it' on stderr" "$ERR"
	elif ! grep -q '^map hist created: type array, ' "$ERR" &&
	     ! has_line "$ERR" "map hist created: type array, "; then
		fail forced-fallbacks-array "no 'map hist created: type array, ...' on stderr" "$ERR"
	else
		pass forced-fallbacks-array
	fi
	# No names: -v says nothing about them, the kernel's symbols for the
	# programs (kallsyms, taken while they were loaded) show it.
	named=$(grep -v '^bpf_prog_[0-9a-f]\{16\}$' "$BPF_SYMS" || true)
	if [ "$jit" = 0 ]; then
		# No bpf_jit_kallsyms (before 4.13): the kernel shows no program
		# by name, so only ext4dist's word for it can be checked.
		expect_verbose forced-fallbacks-names "$ERR" \
			"map and program names off, as before 4.15"
	elif [ ! -s "$BPF_SYMS" ]; then
		fail forced-fallbacks-names "no bpf_prog_ symbol in /proc/kallsyms while ext4dist ran (bpf_jit_kallsyms off?)" "$ERR"
	elif [ -n "$named" ]; then
		fail forced-fallbacks-names "programs loaded with names: $(echo "$named" | tr '\n' ' ')" "$BPF_SYMS"
	else
		pass forced-fallbacks-names
	fi
}

# --- return probes exhausted: 8 processes fsync at once on one vCPU,
# so returns are missed; every fsync is either in a histogram or in a
# "missed" warning (whose reason names the path), never silently lost.
# misses_run NAME REASON EXT4DIST_ARGS...: one such run.
# MISSES_NPROC processes (8) do MISSES_NF fsyncs each (3); MISSES_WANT
# says what the kernel must have missed: "some" (at least one), "none", or
# "any" (whatever it missed is reported: the sum is checked alone).
# MISSES_COUNT: ext4dist's one-second intervals, which must outlast the
# workloads (3; a slower guest raises it).
MISSES_NPROC=8 MISSES_NF=3 MISSES_WANT=some MISSES_COUNT=${MISSES_COUNT:-3}
misses_run() {
	local name=$1 reason=$2 go i pids="" p wrc=0 late="" miss hist left
	local nproc=$MISSES_NPROC nf=$MISSES_NF
	shift 2
	go=$WORK/go-$name
	rm -f "$go"
	i=1
	while [ "$i" -le "$nproc" ]; do
		workload -g "$go" -b 65536 "/mnt/ext4/$name$i" 1 0 4 $nf \
			> "$WORK/$name.wl$i" 2>&1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	rm -f "$OUT" "$ERR"
	ext4dist "$@" --ops fsync 1 "$MISSES_COUNT" > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "$name" "no banner from 'ext4dist $* --ops fsync 1 $MISSES_COUNT' within 60 s" \
			"$OUT" "$ERR"
		touch "$go"
		for p in $pids; do wait "$p" 2>/dev/null || true; done
		kill -9 "$EPID" 2>/dev/null || true
		wait "$EPID" 2>/dev/null || true
		return 0
	fi
	touch "$go"
	for p in $pids; do wait "$p" || wrc=$?; done
	running "$EPID" || late="the workloads ended after ext4dist's $MISSES_COUNT intervals"
	if ! wait_exit "$EPID" 30; then
		fail "$name" "'ext4dist ... 1 $MISSES_COUNT' still running 30 s after the workloads" "$OUT" "$ERR"
		return 0
	fi
	left=$(our_events "${EPID}_")
	# Every fsync that is not in a histogram is in one warning line:
	# "... N fsync calls were not timed: the return probe never ran
	# (REASON)" when the thread's next fsync showed it, "N fsync calls
	# had not returned when tracing stopped: ..." for the last ones.
	miss=$(sed -n -e 's/^ext4dist: warning: \(in this interval \)\{0,1\}\([0-9][0-9]*\) fsync calls* w[ae][rs]e* not timed: the return probe never ran .*/\2/p' \
		-e 's/^ext4dist: warning: \([0-9][0-9]*\) fsync calls* had not returned when tracing stopped: .*/\1/p' "$ERR" |
		awk '{ s += $1 } END { print s + 0 }')
	hist=$(counts "$OUT" | sed 's/.*fsync=\([0-9]*\).*/\1/')
	echo "$name: $hist fsyncs in the histograms, $miss missed; $(grep -c 'warning: ' "$ERR") warning lines"
	if [ "$wrc" != 0 ]; then
		fail "$name" "a workload exited $wrc" "$WORK/$name.wl1"
	elif [ -n "$late" ]; then
		fail "$name" "$late (the test's timing assumption broke)" "$OUT" "$ERR"
	elif [ "$RC" != 0 ]; then
		fail "$name" "ext4dist exited $RC" "$OUT" "$ERR"
	elif [ -n "$left" ]; then
		fail "$name" "kprobe_events still holds: $(echo "$left" | tr '\n' ' ')" "$OUT" "$ERR"
	elif [ "$MISSES_WANT" = some ] && [ "$miss" -eq 0 ]; then
		fail "$name" "no missed probe hit reported (fsyncs in histograms: $hist of $((nproc * nf))): the kernel never ran out of return probes" \
			"$OUT" "$ERR"
	elif [ "$MISSES_WANT" = none ] && [ "$miss" -ne 0 ]; then
		fail "$name" "$miss of $((nproc * nf)) fsyncs missed where ext4dist sized the return probes itself" \
			"$OUT" "$ERR"
	elif [ "$miss" -ne 0 ] && ! grep -qF "the return probe never ran ($reason)" "$ERR"; then
		fail "$name" "no warning with the reason '$reason'" "$OUT" "$ERR"
	else
		check "$name" "histogram $hist + missed $miss = $((hist + miss))" \
			"histogram $hist + missed $miss = $((nproc * nf))" "$OUT" "$ERR"
	fi
}

scenario_kretprobe_misses() {
	local path sized before
	ext4dist --check > "$WORK/check.out" 2>&1 || true
	path=$(sed -n 's/^attach path  *//p' "$WORK/check.out")
	sized=$(grep -c ' return probes per function' "$WORK/check.out" || true)
	before=$(cat "$TRACEFS/kprobe_events")
	if ext4dist --check --maxactive 1 > "$WORK/ma.out" 2>&1; then
		misses_run kretprobe-misses \
			"kretprobe instances exhausted: raise --maxactive" --maxactive 1
	else
		# Before 4.12 kprobe_events cannot size return probes: the
		# trial "r1:" line makes an event of the kernel's naming,
		# which ext4dist must remove again.
		check kretprobe-misses "$(sed -n 's/^verdict  *//p' "$WORK/ma.out")" \
			"ext4dist cannot trace here: --maxactive: return probes cannot be sized here: kprobe_events ignores \"rN:\" (kernel before 4.12)" \
			"$WORK/ma.out"
		check maxactive-unsupported-clean \
			"kprobe_events: $(cat "$TRACEFS/kprobe_events")" \
			"kprobe_events: $before"
		remove_events_since "$before"
	fi
	# 32 fsyncs at the same moment, one per process: on the kprobe PMU
	# the kernel's default number of return probes (1 per possible CPU
	# before 6.0, 10 on 6.1) cannot hold them; 6.12's pool may.  Either
	# way every fsync is in the histogram or in a warning.
	MISSES_NPROC=32 MISSES_NF=1 MISSES_WANT=any
	if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
		misses_run pmu-misses \
			"kretprobe instances exhausted: the kprobe PMU cannot raise them; --attach=tracefs --maxactive N can" \
			--attach=pmu
	fi
	# kprobe_multi (fprobe) keeps the kernel's number of return hooks
	# (2 per CPU and function on 6.12): what it misses is reported.
	if grep -q '^kprobe_multi  *yes' "$WORK/check.out"; then
		MISSES_WANT=some
		misses_run multi-misses "kprobe_multi return hooks exhausted: --attach=tracefs --maxactive N allows more" \
			--attach=multi
	fi
	# fentry taken by default: tracefs with the return probes ext4dist
	# sizes, forced, misses nothing either.
	if [ "$path" = fentry ] &&
		ext4dist --check --attach=tracefs 2>&1 | grep -q ' return probes per function'; then
		MISSES_WANT=none
		misses_run tracefs-misses "kretprobe instances exhausted: raise --maxactive" \
			--attach=tracefs
	fi
	# By default ext4dist sizes them itself where kprobe_events lets it,
	# and fexit has no limit: nothing missed.  kprobe_events before 4.12
	# keeps the kernel's numbers: what it misses is reported.
	if [ "$path" = fentry ] || { [ "$path" = tracefs ] && [ "$sized" = 1 ]; }; then
		MISSES_WANT=none
	else
		MISSES_WANT=some
	fi
	misses_run default-misses "$(case $path in
		fentry) echo "fexit has no instance limit: a return goes uncounted only when its program did not run (the kernel skips a program already running on that CPU)" ;;
		kprobe_multi) echo "kprobe_multi return hooks exhausted: --attach=tracefs --maxactive N allows more" ;;
		tracefs) if [ "$sized" = 1 ]; then
				echo "kretprobe instances exhausted: raise --maxactive"
			else
				echo "kretprobe instances exhausted: kprobe_events cannot raise the kernel's default before 4.12"
			fi ;;
		*) echo "kretprobe instances exhausted: the kprobe PMU cannot raise them; --attach=tracefs --maxactive N can" ;;
		esac)"
	MISSES_NPROC=8 MISSES_NF=3 MISSES_WANT=some
}

# --- no kprobe PMU (before 4.17, so no kprobe_multi either): tracefs
# kprobe_events instead.
scenario_no_pmu() {
	traced_run no-kprobe-pmu /mnt/ext4/sf1 $O $R $W $F \
		--pretend=no-pmu,no-multi,no-fentry -v -p @PID@ || return 0
	expect_counts no-kprobe-pmu "$WANT"
	expect_verbose no-kprobe-pmu-verbose "$ERR" "attach path: tracefs"
}

# tracing_mounts: the debugfs and tracefs lines of /proc/mounts.
tracing_mounts() {
	awk '$3 == "debugfs" || $3 == "tracefs" { print $2, $3 }' /proc/mounts
}

# unmount_tracing: neither tracefs nor debugfs mounted anywhere.
unmount_tracing() {
	local m i=0
	while [ -n "$(tracing_mounts)" ] && [ "$i" -lt 5 ]; do
		tracing_mounts | awk '{ print $1 }' | sort -r |
			while read -r m; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
		i=$((i + 1))
	done
}

# --- before 4.1 there was no tracefs: only debugfs's tracing dir.
# Simulated with tracefs unmounted and --pretend=no-tracefs; ext4dist
# mounts debugfs and must leave /proc/mounts as it found it.
scenario_debugfs_only() {
	local before after
	unmount_tracing
	before=$(tracing_mounts)
	if [ -n "$before" ]; then
		fail debugfs-only "precondition: cannot unmount $(echo "$before" | tr '\n' ' ')"
		return 0
	fi
	traced_run debugfs-only /mnt/ext4/sf2 $O $R $W $F \
		--pretend=no-tracefs -v --attach=tracefs -p @PID@ || {
		unmount_tracing
		return 0
	}
	after=$(tracing_mounts)
	# (expect_counts mounts tracefs to look at kprobe_events.)
	expect_counts debugfs-only "$WANT"
	# (The VM's kernels are 5.2+: fsmount(), a mount no path shows.)
	if ! has_line "$ERR" "mounted debugfs for this process alone (fsmount(): never attached to a path"; then
		fail debugfs-only-verbose "no 'mounted debugfs for this process alone (fsmount()...' on stderr" "$ERR"
	else
		expect_verbose debugfs-only-verbose "$ERR" "tracing dir /sys/kernel/debug/tracing"
	fi
	if [ -n "$after" ]; then
		fail debugfs-only-unmounted "mounted after ext4dist exited (none before): $(echo "$after" | tr '\n' ',')" "$ERR"
	else
		pass debugfs-only-unmounted
	fi
	unmount_tracing
}
