#!/bin/sh
# fentry/fexit (5.5+ where the kernel has BTF; for ext4 as a module, its
# split BTF, 5.11+).  Sourced by scenarios.sh.
# shellcheck disable=SC3043 # busybox ash has local

MSG_NO_MODULE_BTF="ext4dist: --attach=fentry: ext4 is a module and the kernel has no BTF for modules (no /sys/kernel/btf/ext4: CONFIG_DEBUG_INFO_BTF_MODULES, 5.11+)"
MSG_NO_BTF="ext4dist: --attach=fentry: no /sys/kernel/btf/vmlinux: the kernel carries no BTF (CONFIG_DEBUG_INFO_BTF, 5.5+)"
MSG_NO_TRAMPOLINE="ext4dist: cannot attach fexit generic_file_read_iter: this kernel makes no BPF trampolines for kernel functions (error 524, ENOTSUPP: its ftrace has no direct calls, CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, which arm64 gained in 6.4)"
MSG_NO_TRAMPOLINE_READ="ext4dist: cannot attach fexit ext4_file_read_iter: this kernel makes no BPF trampolines for kernel functions (error 524, ENOTSUPP: its ftrace has no direct calls, CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, which arm64 gained in 6.4)"

# fentry_fds: ext4dist's descriptors while tracing on the fentry path:
# 4 operations, a program and a link for each entry and return, the 5
# maps, stdin/out/err (the module's BTF object is closed once the
# programs hold it).
FENTRY_FDS="link=8 map=5 other=3 prog=8 "

# fentry_peak: ext4dist's peak RSS so far (a TRACED_HOOK), in PEAK_KB.
fentry_peak() {
	PEAK_KB=$(proc_kb "$EPID" VmHWM)
}

# fentry_census: fd_census and fentry_peak.
fentry_census() {
	fd_census
	fentry_peak
}

# check_peak NAME: PEAK_KB under 4 MiB, as the stress run's bound.
check_peak() {
	check "$1" "$([ "${PEAK_KB:-99999}" -lt 4096 ] && echo under || echo "VmHWM ${PEAK_KB:-?} kB")" under
}

# --- fentry/fexit, asked for with --attach=fentry (the automatic order
# takes it only where there are no kprobes) wherever the kernel's BTF
# has every traced function.  There: exact counts on the fentry path
# (with -p, under other processes' noise), and on the generic read path;
# the link made the way the kernel takes it; the default path not
# fentry.  Where the BTF has them and the kernel makes no trampolines
# (Debian's arm64 6.1), the default run on kprobes with exact counts,
# --check its BTF, and --attach=fentry refused with why.  Where the BTF has
# not (5.10: ext4 is a module, no module BTF), a refusal that says so,
# and the generic read path alone (vmlinux's function) on fentry after
# all where the kernel makes trampolines (arm64 5.10 makes none:
# refused).  Slow mode on fentry, and getattr's fexit loaded.
scenario_fentry() {
	local row rc
	ext4dist --check > "$WORK/fentry-auto.check" 2>&1 || true
	row=$(sed -n 's/^fentry\/fexit  *//p' "$WORK/fentry-auto.check")
	# A default run makes no trampoline: where the kernel makes none,
	# --attach=fentry finds out.
	if [ "${row#yes}" != "$row" ]; then
		ext4dist --check --attach=fentry > "$WORK/fentryc.out" 2> "$WORK/fentryc.err" || true
		if has_line "$WORK/fentryc.out" "makes no BPF trampolines"; then
			row="no: ${MSG_NO_TRAMPOLINE_READ#ext4dist: }"
		fi
	fi
	case $row in
	yes*) ;;
	*"makes no BPF trampolines"*)
		# (kprobes by default: the row says what the BTF has, and
		# that the trampolines are tried only at attach.)
		check fentry-fallback-row "$(sed -n "s/^fentry\/fexit  *\(yes (the kernel's BTF has every traced function: \).*\(; the trampolines are made at attach, which may still refuse them)\)\$/\1...\2/p" "$WORK/fentry-auto.check")" \
			"yes (the kernel's BTF has every traced function: ...; the trampolines are made at attach, which may still refuse them)" \
			"$WORK/fentry-auto.check"
		check fentry-fallback-verdict "$(sed -n 's/^verdict  *//p' "$WORK/fentry-auto.check")" \
			"ext4dist can trace here" "$WORK/fentry-auto.check"
		check fentry-no-trampoline \
			"$(grep -c "^verdict  *ext4dist cannot trace here: ${MSG_NO_TRAMPOLINE_READ#ext4dist: }\$" "$WORK/fentryc.out")" 1 \
			"$WORK/fentryc.out" "$WORK/fentryc.err"
		traced_run fentry-fallback /mnt/ext4/sf $O $R $W $F -v -p @PID@ || return 0
		expect_counts fentry-fallback "$WANT"
		return 0 ;;
	*)
		rc=0
		ext4dist --attach=fentry > "$WORK/fentry.out" 2> "$WORK/fentry.err" || rc=$?
		expect_refusal fentry-unsupported "$rc" "$WORK/fentry.out" \
			"$WORK/fentry.err" "$MSG_NO_MODULE_BTF" "$MSG_NO_BTF"
		# generic_file_read_iter is vmlinux's: fentry where the
		# kernel makes trampolines (x86 5.5+; not Debian's arm64).
		rc=0
		ext4dist --check --attach=fentry --read-path=generic --ops read \
			> "$WORK/fentryg.out" 2> "$WORK/fentryg.err" || rc=$?
		if [ "$rc" = 1 ] && has_line "$WORK/fentryg.out" "makes no BPF trampolines"; then
			check fentry-generic-vmlinux-refused \
				"$(grep -c "^verdict  *ext4dist cannot trace here: ${MSG_NO_TRAMPOLINE#ext4dist: }\$" "$WORK/fentryg.out")" 1 \
				"$WORK/fentryg.out" "$WORK/fentryg.err"
			return 0
		fi
		if [ ! -e /sys/kernel/btf/vmlinux ]; then
			check fentry-generic-vmlinux-no-btf \
				"$(grep -c "^verdict  *ext4dist cannot trace here: ${MSG_NO_BTF#ext4dist: }\$" "$WORK/fentryg.out")" 1 \
				"$WORK/fentryg.out" "$WORK/fentryg.err"
			return 0
		fi
		# The BTF names the one function traced.  vmlinux's BTF
		# read through the window: the peak stays under 4 MiB, as
		# the stress run's.
		TRACED_HOOK=fentry_peak
		traced_run fentry-generic-vmlinux /mnt/ext4/sf1 $O $R $W $F \
			--attach=fentry --read-path=generic --ops read -v -p @PID@ || {
			TRACED_HOOK=""
			return 0
		}
		TRACED_HOOK=""
		check_peak fentry-generic-vmlinux-peak
		expect_counts fentry-generic-vmlinux "open=0 read=$R write=0 fsync=0"
		expect_verbose fentry-generic-vmlinux-link "$ERR" \
			"attached fexit generic_file_read_iter via BPF_RAW_TRACEPOINT_OPEN"
		return 0 ;;
	esac

	# The unit tests' BTF fixtures are this kernel's own blobs.
	case "$KERNEL" in
	6.1.0-57-amd64)
		check fentry-btf-fixtures "$(sha256sum /sys/kernel/btf/vmlinux /sys/kernel/btf/ext4 | cut -c1-64 | tr '\n' ' ')" \
			"88df2a1481426049964b47419038b1bb3322fbe608dbb7e49300451fe5ac194d 0f0e082f08732da0947ee6c3a7344601b901d98e9a5b1ff73bd99daafaa401f6 " ;;
	6.12.118+deb12-amd64)
		check fentry-btf-fixtures "$(sha256sum /sys/kernel/btf/vmlinux /sys/kernel/btf/ext4 | cut -c1-64 | tr '\n' ' ')" \
			"1360145b60eb67b7ab6a5568314c481a58ede7b9502a8e3d48d18e5a3ed67093 1291244c6fc7151e36bf7777e4c1bc86cd9540879ba242a9d344c7c5887fd59f " ;;
	esac

	FDS=""
	TRACED_HOOK=fentry_census
	traced_run fentry-exact /mnt/ext4/sf $O $R $W $F --attach=fentry -v -p @PID@ || {
		TRACED_HOOK=""
		return 0
	}
	TRACED_HOOK=""
	expect_counts fentry-exact "$WANT"
	check fentry-fds "$FDS" "$FENTRY_FDS" "$OUT" "$ERR"
	check_peak fentry-exact-peak
	expect_verbose fentry-link "$ERR" \
		"attached fexit ext4_sync_file via BPF_LINK_CREATE"

	# The default: kprobe_multi or kprobes, whose start-up and exit
	# cost the kernel less than trampolines (docs/performance.md).
	# Where the kernel refuses entry kprobes (riscv64 6.12), fentry is
	# the default: the plan was made again after the refusal.
	row=$(sed -n 's/^attach path  *//p' "$WORK/fentry-auto.check" | head -n 1)
	if grep -q 'the kernel refuses entry kprobes on traceable functions' "$WORK/fentry-auto.check"; then
		check fentry-default-no-kprobes "${row%%:*}" fentry "$WORK/fentry-auto.check"
	else
		check fentry-not-default "$row" "${row#fentry}" "$WORK/fentry-auto.check"
	fi

	traced_run fentry-generic /mnt/ext4/sf3 $O $R $W $F \
		--attach=fentry --read-path=generic -v -p @PID@ || return 0
	expect_counts fentry-generic "$WANT"
	expect_verbose fentry-generic-link "$ERR" \
		"attached fentry generic_file_read_iter via BPF_LINK_CREATE"
	traced_run fentry-generic-tmpfs /mnt/tmpfs/sf $O $R $W $F \
		--attach=fentry --read-path=generic -p @PID@ || return 0
	expect_counts fentry-generic-tmpfs "$ZERO"

	# Slow mode on fentry: each call's event (the fexit program's return
	# value, the file and offset kept at entry, the name read through
	# the discovered offsets), exactly the workload's.
	WORKLOAD_OPTS="-b 4096" slow_run fentry-slower /mnt/ext4/slow-f $O $R $W $F \
		--attach=fentry -j -p @PID@ 0 || return 0
	check fentry-slower-counts "$(slow_accounted "$OUT" "$ERR" "$WPID")" \
		"O=$O R=$R W=$W S=$F" "$OUT" "$ERR"
	check fentry-slower-fields "$(slow_bad "$OUT" "$WPID" slow-f 4096)" "" "$OUT"
	slow_end fentry-slower

	# getattr's fexit (5 arguments from 5.12, 4 before): loaded and
	# attached as a run would.
	ext4dist --check --attach=fentry --ops getattr > "$WORK/fentry-getattr.check" 2>&1 || true
	check fentry-getattr "$(sed -n 's/^verdict  *//p' "$WORK/fentry-getattr.check")" \
		"ext4dist can trace here" "$WORK/fentry-getattr.check"
}

# --- preemption.  On a preemptible kernel a thread can be preempted
# inside an fentry program; a call of the same function on that CPU
# meanwhile gets no entry program (the kernel skips a program already
# running there, 5.12+) and is in no count of ext4dist's own.  Hence:
# with preemption full (PREEMPT_DYNAMIC, switched through a debugfs
# mounted privately), the default path is kprobes, and --check says why
# (ext4dist reads sched/preempt on a debugfs mount of its own, gone when
# it is done); 4 threads preading on one CPU are counted exactly.  Forced
# onto fentry, the same runs lose calls by the thousand (each run until
# one shows some, at most 8), and ext4dist says how many: the kernel
# counts the skips (the program's recursion_misses).  The histogram plus
# the warned calls are the workload's, exactly, and the Prometheus file
# has the unseen count the warning gives.  Back to voluntary, --check
# says fentry is not passed over.
UNSEEN_WARNING="calls* w[ae][rs]e* not counted: the kernel did not run the entry program for"
PREEMPT_ROW_FULL="full (/sys/kernel/debug/sched/preempt): a task can be preempted inside an fentry program, and the kernel skips that program for other calls on its CPU meanwhile; kprobes run with preemption off"
PREEMPT_ROW_VOLUNTARY="voluntary (/sys/kernel/debug/sched/preempt): no task is preempted inside a BPF program"
scenario_fentry_unseen() {
	local dbg="$WORK/debugfs" ctl mode try=0 reads=20000 threads=4 n=0 ran=0
	local prom="$WORK/unseen.prom" want path
	want="open=$threads read=$((threads * reads)) write=$threads fsync=0"
	ext4dist --check > "$WORK/unseen.check" 2>&1 || true
	case $(sed -n 's/^fentry\/fexit  *//p' "$WORK/unseen.check") in
	yes*) ;;
	*) return 0 ;;
	esac
	mkdir -p "$dbg"
	mount -t debugfs none "$dbg" || {
		fail fentry-unseen "cannot mount debugfs"
		return 0
	}
	ctl=$dbg/sched/preempt
	# Debian's 5.10 has no PREEMPT_DYNAMIC (5.12+).
	if [ ! -e "$ctl" ]; then
		umount "$dbg"
		return 0
	fi
	mode=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' "$ctl")
	echo full > "$ctl"
	check fentry-unseen-full "$(sed -n 's/.*(\([a-z]*\)).*/\1/p' "$ctl")" full

	ext4dist --check > "$WORK/unseen-full.check" 2>&1 || true
	check preempt-full-row "$(sed -n 's/^preemption  *//p' "$WORK/unseen-full.check")" \
		"$PREEMPT_ROW_FULL" "$WORK/unseen-full.check"
	path=$(sed -n 's/^attach path  *//p' "$WORK/unseen-full.check" | head -n 1)
	check preempt-full-path "$path" "${path#fentry}" "$WORK/unseen-full.check"
	check preempt-debugfs-left "$(grep -c ' /sys/kernel/debug ' /proc/mounts)" 0
	WORKLOAD_OPTS="-t $threads -b 4096" TRACED_NOISE=0 \
		traced_run preempt-full-default /mnt/ext4/unseen 1 "$reads" 1 0 \
		-v -p @PID@ && {
		check preempt-full-default "$(counts "$OUT") $(grep -c '^ext4dist: warning:' "$ERR")" \
			"$want 0" "$OUT" "$ERR"
	}

	while [ "$n" = 0 ] && [ "$try" -lt 8 ]; do
		try=$((try + 1))
		ran=0
		WORKLOAD_OPTS="-t $threads -b 4096" TRACED_NOISE=0 \
			traced_run fentry-unseen /mnt/ext4/unseen 1 "$reads" 1 0 \
			--attach=fentry --prometheus "$prom" -p @PID@ || break
		ran=1
		n=$(grep -c "$UNSEEN_WARNING" "$ERR")
	done
	echo "$mode" > "$ctl"
	umount "$dbg"
	echo "fentry-unseen: $try run(s) of $((threads * reads)) reads, preemption back to $mode"
	ext4dist --check > "$WORK/unseen-back.check" 2>&1 || true
	check preempt-voluntary-row "$(sed -n 's/^preemption  *//p' "$WORK/unseen-back.check")" \
		"$PREEMPT_ROW_VOLUNTARY" "$WORK/unseen-back.check"
	[ "$ran" = 1 ] || return 0
	grep '^ext4dist: warning:' "$ERR" || true
	check fentry-unseen-warned "$([ "$n" -gt 0 ] && echo yes || echo "no unseen call in $try runs")" yes "$ERR"
	expect_counts fentry-unseen "$want"
	check fentry-unseen-prometheus \
		"$(sed -n 's/^ext4dist_untimed_calls_total{fs="ext4",op="read",reason="unseen"} //p' "$prom")" \
		"$(sed -n "s/^ext4dist: warning: \([0-9]*\) read $UNSEEN_WARNING.*/\1/p" "$ERR")" "$prom" "$ERR"
}
