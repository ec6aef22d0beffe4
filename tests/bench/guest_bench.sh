#!/bin/sh
# make bench, inside the VM (busybox sh).  tests/bench/run.sh installs this
# file as /guest/demo.sh through a second cpio archive and boots mode demo.
# Every result goes to the results port as "BENCH <record> key=value ...".
# Parameters come from /bench/params (written by run.sh).
set -eu
# shellcheck source-path=SCRIPTDIR source=../vm/guest/lib.sh
. /guest/lib.sh
# shellcheck disable=SC1091 # written by run.sh
. /bench/params		# OPS_N OPS_REPS ROUNDS VAR_ITERS VAR_ROUNDS START_RUNS SECTIONS STATS HOLD_VARIANTS

# want SECTION: true when SECTION is one of the parts asked for.
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }

b() { out "BENCH $*"; }
# bout CMD...: run CMD, every output line as a BENCH record.
bout() {
	"$@" > "$WORK/bout" 2> "$WORK/bout.err" || {
		rc=$?
		b "error what=command-failed rc=$rc cmd=\"$*\""
		out_file "$WORK/bout.err" "    | "
	}
	while IFS= read -r line; do b "$line"; done < "$WORK/bout"
}

# skip WHAT REASON: a part this kernel cannot measure, said in the report.
skip() { b "skip what=$1 reason=\"$2\""; }

load_modules /lib/modules/ext4.list
# The module file where a distribution installs it (the initramfs holds
# the copy insmod loaded): ext4dist then probes by address, as it would on
# an installed system.
ext4_ko_install
mkdir -p /mnt/ext4
# nobarrier: fsync then costs CPU only, no cache flush of the host's disk,
# so the loop measures the tracing overhead rather than host I/O.
mount -t ext4 -o nobarrier /dev/vda /mnt/ext4
ensure_tracefs
# The peers (tests/bench/peers.sh), on /dev/vdb where run.sh attached
# their disk: libbpf-tools' ext4dist and a bpftrace script, each run in
# that root by chroot, its stdout line-buffered by stdbuf.
peers=""
if [ -b /dev/vdb ] && mkdir -p /peers && mount -o ro /dev/vdb /peers &&
   mount -t proc proc /peers/proc && mount -t sysfs sysfs /peers/sys &&
   mount -t devtmpfs devtmpfs /peers/dev && mount -t tmpfs tmpfs /peers/tmp &&
   mount -t tracefs nodev /peers/sys/kernel/tracing; then
	peers="libbpf bpftrace"
fi
# bpftrace's func on a kretprobe needs the kernel's get_func_ip for
# kprobes (5.15); before it the script keyed by probe (peers.sh).
bt=ext4dist.bt
case $(uname -r) in
[1-4].*|5.[0-9].*|5.1[0-4].*) bt=ext4dist-probe.bt ;;
esac
# peer_cmd NAME: the command line of peer NAME.
peer_cmd() {
	case $1 in
	libbpf) echo "/bin/chroot /peers /usr/bin/stdbuf -oL /usr/sbin/ext4dist-libbpf" ;;
	bpftrace) echo "/bin/chroot /peers /usr/bin/stdbuf -oL /usr/bin/bpftrace /bench/$bt" ;;
	esac
}

# Per-program run time (kernel.bpf_stats_enabled, 5.1+), unless STATS=0:
# its two clock reads per program run are then out of every ratio.
stats=0
if [ "${STATS:-1}" = 1 ] && [ -e /proc/sys/kernel/bpf_stats_enabled ]; then
	echo 1 > /proc/sys/kernel/bpf_stats_enabled
	stats=1
fi

# kprobe_multi links (5.18+ with CONFIG_FPROBE): measured where they
# exist; the kprobe PMU (4.17+) where it exists; tracefs everywhere.
multi=0
if /bin/ext4dist --check | grep -q '^kprobe_multi  *yes'; then multi=1; fi
pmu=0
if [ -e /sys/bus/event_source/devices/kprobe/type ]; then pmu=1; fi
modes="tracefs"
if [ "$pmu" = 1 ]; then modes="pmu $modes"; fi
if [ "$multi" = 1 ]; then modes="$modes multi"; fi
# fentry/fexit where the kernel's BTF has every traced function.
if /bin/ext4dist --check | grep -q '^fentry/fexit  *yes'; then modes="$modes fentry"; fi

# What ext4dist picks without --attach: kprobe_multi, else the PMU, else
# tracefs.
# What ext4dist picks without --attach, as its --check says.
default_mode=$(/bin/ext4dist --check | sed -n 's/^attach path  *//p')
case "$default_mode" in
kprobe_multi) default_mode=multi ;;
esac

# Its read function: ext4_file_read_iter (4.10+), else generic_file_read_iter.
read_func=generic_file_read_iter
if awk '$3 == "ext4_file_read_iter" { f = 1 } END { exit !f }' /proc/kallsyms; then
	read_func=ext4_file_read_iter
fi

# The ops table's floors: the empty programs (tests/bench/variants.bpf.c's
# "null") on the same four functions, held by bench_probe hold: what the
# dispatch alone costs, on a BPF trampoline and on the kprobe PMU.
# HOLD_VARIANTS adds other fentry/fexit pairs of that file, pieces of
# ext4dist's programs, to see what each piece costs.
floors=""
if [ "$read_func" = ext4_file_read_iter ]; then
	if [ "$pmu" = 1 ]; then floors="null-pmu"; fi
	case " $modes " in
	*" fentry "*)
		for v in ${HOLD_VARIANTS:-null}; do floors="$floors $v-fentry"; done ;;
	esac
fi

# Slow mode's columns (section slower): "slow", ext4slower with a
# threshold no call reaches (its programs, no event), and "slowall",
# ext4slower 0 (an event per call, read and printed as CSV).
slowmodes=""
if want slower; then slowmodes="slow slowall"; fi

b "env kernel=$KERNEL cpus=$(grep -c ^processor /proc/cpuinfo)" \
	"clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" \
	"bpf_jit_enable=$(cat /proc/sys/net/core/bpf_jit_enable)" \
	"bpf_stats_enabled=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo none)" \
	"binary_bytes=$(stat -c %s /bin/ext4dist)" \
	"modes=$(echo $modes $floors $slowmodes $peers | tr ' ' ,) default_mode=$default_mode read_func=$read_func" \
	"ftrace_functions=$(wc -l < "$TRACEFS/available_filter_functions")"
if [ "${STATS:-1}" = 0 ]; then
	skip prog-stats "BENCH_STATS=0: bpf_stats left off, no per-program run time"
elif [ "$stats" = 0 ]; then
	skip prog-stats "no kernel.bpf_stats_enabled (5.1+): no per-program run time"
fi

# --- ns per operation: untraced, PMU, tracefs (multi); ROUNDS interleaved
# rounds.  Per-program kernel stats of ext4dist's programs over the same
# workload.
r=0
want ops || r=$ROUNDS
while [ "$r" -lt "$ROUNDS" ]; do
	bout opbench /mnt/ext4 "$OPS_N" "$OPS_REPS" "untraced"
	for mode in $modes $floors $peers; do
		# The shell truncates e.out in the background job: the last
		# run's banner must not be there to be seen meanwhile (on 5.10
		# start-up takes 1.4 s of guest time: opbench ran while the
		# probes were still being made).
		rm -f "$WORK/e.out" "$WORK/e.err"
		case "$mode" in
		*-fentry|*-pmu)
			bench_probe hold /bench/variants.bpf.o "${mode##*-}" "${mode%-*}" \
				> "$WORK/e.out" 2> "$WORK/e.err" & ;;
		libbpf|bpftrace)
			# shellcheck disable=SC2046 # a command line
			$(peer_cmd "$mode") > "$WORK/e.out" 2> "$WORK/e.err" & ;;
		*)
			ext4dist --attach=$mode > "$WORK/e.out" 2> "$WORK/e.err" & ;;
		esac
		pid=$!
		if ! wait_banner "$pid" "$WORK/e.out" 60; then
			b "error what=no-banner mode=$mode"
			out_file "$WORK/e.err" "    | "
			kill -9 "$pid" 2>/dev/null || true
			continue
		fi
		if [ "$stats" = 1 ]; then
			bout bench_probe around --pid "$pid" --tag "$mode" -- \
				/bin/opbench /mnt/ext4 "$OPS_N" "$OPS_REPS" "$mode"
		else
			bout opbench /mnt/ext4 "$OPS_N" "$OPS_REPS" "$mode"
		fi
		b "rss mode=$mode round=$r vmhwm_kb=$(awk '/^VmHWM/ {print $2}' /proc/$pid/status)" \
			"vmrss_kb=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status)"
		kill -INT "$pid"
		wait_exit "$pid" 30 || true
		[ "$RC" = 0 ] || b "error what=ext4dist-exit mode=$mode rc=$RC"
		# The histogram totals it printed (the workload's ops are in).
		case "$mode" in
		*-fentry|*-pmu|libbpf|bpftrace) ;;
		*) b "counted mode=$mode round=$r $(counts "$WORK/e.out")" ;;
		esac
	done
	r=$((r + 1))
done

# --- slow mode (ext4slower), on the default attach path: ns per
# operation and per program as above, and for slowall the events sent,
# read and lost (-v's count) over the same workload on this one CPU.
r=0
want slower || r=$ROUNDS
while [ "$r" -lt "$ROUNDS" ]; do
	for mode in $slowmodes; do
		rm -f "$WORK/s.out" "$WORK/s.err"
		min_ms=100000
		[ "$mode" = slow ] || min_ms=0
		ext4slower -v -j --attach=$default_mode $min_ms > "$WORK/s.out" 2> "$WORK/s.err" &
		pid=$!
		i=0
		while ! grep -q '^ENDTIME_us,' "$WORK/s.out" 2>/dev/null; do
			i=$((i + 1))
			if ! running "$pid" || [ "$i" -gt 1200 ]; then break; fi
			sleep 0.05
		done
		if ! running "$pid"; then
			b "error what=no-header mode=$mode"
			out_file "$WORK/s.err" "    | "
			continue
		fi
		if [ "$stats" = 1 ]; then
			bout bench_probe around --pid "$pid" --tag "$mode" -- \
				/bin/opbench /mnt/ext4 "$OPS_N" "$OPS_REPS" "$mode"
		else
			bout opbench /mnt/ext4 "$OPS_N" "$OPS_REPS" "$mode"
		fi
		kill -INT "$pid"
		wait_exit "$pid" 30 || true
		[ "$RC" = 0 ] || b "error what=ext4slower-exit mode=$mode rc=$RC"
		sed -n "s/^ext4slower: events: \([0-9]*\) sent, \([0-9]*\) received, \([0-9]*\) refused by the kernel.*/slowevents mode=$mode round=$r sent=\1 received=\2 refused=\3/p" \
			"$WORK/s.err" > "$WORK/s.rec"
		lost=$(sed -n 's/^ext4slower: warning: \([0-9]*\) events* lost.*/\1/p' "$WORK/s.err")
		while IFS= read -r line; do b "$line lost=${lost:-0} printed=$(($(wc -l < "$WORK/s.out") - 1))"; done < "$WORK/s.rec"
	done
	r=$((r + 1))
done

# --- the memory a default run holds, as its --check shows it: the start
# records (sized by MemTotal), the kernel memory of its maps and programs
# (memlock in fdinfo), its peak RSS.
if want startup; then
	ext4dist --check > "$WORK/kmem.out" 2>&1 || true
	b "kmem $(kmem_fields "$WORK/kmem.out")"
fi

# --- start-up: exec to banner, SIGINT to exit, peak RSS, system calls.
# "floor": bench_floor makes the 8 probes ext4dist makes by default here,
# the same way (PMU or tracefs), without BPF, prints the banner and waits
# for SIGINT: the kernel's price of the probes.  "exec": a static program
# (bench_probe banner) that only prints the banner: fork + exec + pipe.
# After the banner, bench_probe opens and reads one ext4 file, so
# ext4dist has a histogram to print at SIGINT.
if want startup; then
	# The floor takes ext4dist's default path; kprobe_multi has no
	# floor of its own (one link, no per-probe price): the PMU's then.
	floor_how=tracefs floor_opt=--tracefs
	if [ "$default_mode" != tracefs ] && [ "$pmu" = 1 ]; then
		floor_how=pmu floor_opt=""
	fi
	b "floor how=$floor_how functions=$read_func,ext4_file_write_iter,ext4_file_open,ext4_sync_file"
	bout bench_probe startup --runs "$START_RUNS" --tag exec -- \
		/bin/bench_probe banner
	bout bench_probe startup --runs "$START_RUNS" --tag floor \
		--touch /mnt/ext4/data -- /bin/bench_floor $floor_opt "$read_func" \
		ext4_file_write_iter ext4_file_open ext4_sync_file
	# "default": no --attach, as a user starts it.
	bout bench_probe startup --runs "$START_RUNS" --tag default \
		--touch /mnt/ext4/data -- /bin/ext4dist
	for mode in $modes; do
		bout bench_probe startup --runs "$START_RUNS" --tag "$mode" \
			--touch /mnt/ext4/data -- /bin/ext4dist --attach=$mode
	done
	for p in $peers; do
		# shellcheck disable=SC2046 # a command line
		bout bench_probe startup --runs "$START_RUNS" --tag "$p" \
			--touch /mnt/ext4/data -- $(peer_cmd "$p")
	done
fi

# --- where start-up and exit go: a sampled kernel profile of one run each.
if want profile; then
	for mode in $modes; do
		bout bench_probe profile --top 60 --tag "$mode" --touch /mnt/ext4/data \
			-- /bin/ext4dist --attach=$mode
	done
fi

# --- the comparison program set, on ext4_file_read_iter.
if want variants; then
	if [ "$stats" = 0 ]; then
		skip variants "no bpf_stats (BENCH_STATS=0, or a kernel before 5.1): the designs are compared by run time"
	elif [ "$read_func" != ext4_file_read_iter ]; then
		skip variants "no ext4_file_read_iter (before 4.10): the designs are attached there"
	else
		bout bench_probe variants /bench/variants.bpf.o /mnt/ext4/variants.dat \
			"$VAR_ITERS" "$VAR_ROUNDS"
	fi
fi

b "done"
