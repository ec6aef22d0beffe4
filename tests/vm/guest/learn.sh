# shellcheck shell=dash disable=SC3043 # busybox ash has local
# What a learner reads, checked against the kernel: -v narrates every
# kernel call as strace records it, over real traced runs on every attach
# path this kernel has (kprobe_multi links, the kprobe PMU, tracefs
# kprobe_events).  Sourced by scenarios.sh; needs /mnt/ext4.

# kcalls_judge FILE: the comparer's PASS/FAIL lines (on stdin) as this
# suite's, FILE shown with a failure.
kcalls_judge() {
	local verdict name
	while IFS= read -r verdict; do
		case $verdict in
		"PASS "*) name=${verdict#PASS }; pass "${name%%:*}" ;;
		"FAIL "*) name=${verdict#FAIL }; fail "${name%%:*}" "${name#*: }" "$1" ;;
		esac
	done
}

# One traced run per attach path under strace: the maps, the loads, the
# probes (perf_event_open and its ioctls, or kprobe_events and the
# tracepoint, or the links), one interval's map reads, the teardown.
scenario_kcalls_strace() {
	local path name n paths=""
	if ! command -v strace > /dev/null; then
		# The host's strace is put in x86_64 guests, Debian's
		# strace:armhf in armhf's (tests/vm-armhf/lib.sh).
		if [ "$(uname -m)" = x86_64 ]; then
			fail kcalls-strace "no strace in the guest: the host had none to put in the initramfs (apt-get install strace)"
		elif [ "$(uname -m)" = armv7l ]; then
			fail kcalls-strace "no strace in the guest: the host could not fetch Debian's strace:armhf (see its log: vm_foreign_strace)"
		else
			out "SKIP $KERNEL kcalls-strace: no strace for $(uname -m) in this guest (the host's strace is x86_64); the x86_64 VM and the host test run it"
		fi
		return 0
	fi
	ext4dist --check > "$WORK/kcalls.check" 2>&1 || true
	grep -q '^kprobe_multi  *yes' "$WORK/kcalls.check" && paths="multi"
	grep -q '^kprobe PMU  *yes' "$WORK/kcalls.check" && paths="$paths pmu"
	grep -q '^kprobe_events  *yes' "$WORK/kcalls.check" && paths="$paths tracefs"
	[ -n "$paths" ] || fail kcalls-strace "--check offers no attach path" "$WORK/kcalls.check"
	for path in $paths; do
		name=kcalls-strace-$path
		( sleep 0.4; dd if=/dev/zero of=/mnt/ext4/kcalls bs=4k count=1 conv=fsync 2>/dev/null ) &
		strace -f -o "$WORK/$name.strace" -v -s 256 \
			-e trace=bpf,perf_event_open,ioctl,close \
			ext4dist -vv --attach=$path --ops read,fsync 1 1 \
			> "$WORK/$name.out" 2> "$WORK/$name.err" || {
			fail "$name" "ext4dist -vv --attach=$path under strace exited $?" "$WORK/$name.err"
			wait
			continue
		}
		wait
		awk -v label="$name" -f /guest/kcall_compare.awk \
			"$WORK/$name.strace" "$WORK/$name.err" > "$WORK/$name.verdict"
		kcalls_judge "$WORK/$name.strace" < "$WORK/$name.verdict"
		# The calls a learner looks for on this path are there at all.
		case $path in
		# config1 names the function, or is 0 where config2 is its
		# address (6.2+ asks the kernel; before, the module file).
		pmu) check "$name-pmu-opens" "$(grep -cE '^ext4dist: perf_event_open\(\{type=0x[0-9a-f]+, config=0(x1)?, .*config1=(0|0x[0-9a-f]+), config2=' "$WORK/$name.err")" 4 "$WORK/$name.err" ;;
		# At least the 4 probes' own (4.9 adds the f_op probe's and a
		# return probe by name after one by address was refused).
		tracefs) check "$name-definitions" "$([ "$(grep -c '^ext4dist: write(/sys/kernel/tracing/kprobe_events, "[pr][0-9]*:kprobes/.*) = [0-9]*$' "$WORK/$name.err")" -ge 4 ] && echo 4+)" 4+ "$WORK/$name.err" ;;
		multi) check "$name-links" "$(grep -c '^ext4dist: bpf(BPF_LINK_CREATE, .*cnt=2, ' "$WORK/$name.err")" 2 "$WORK/$name.err" ;;
		esac
		n=$(grep -c '^ext4dist: ioctl([0-9]*, PERF_EVENT_IOC_SET_BPF, [0-9]*) = 0$' "$WORK/$name.err" || true)
		if [ "$path" = multi ]; then
			check "$name-set-bpf" "$n" 0 "$WORK/$name.err"
		else
			check "$name-set-bpf" "$([ "$n" -ge 4 ] && echo 4+)" 4+ "$WORK/$name.err"
		fi
		check "$name-map-reads" "$([ "$(grep -c '^ext4dist: bpf(BPF_MAP_LOOKUP_ELEM, ' "$WORK/$name.err")" -gt 0 ] && echo yes)" yes "$WORK/$name.err"
	done
	rm -f /mnt/ext4/kcalls
}

# kernel_at_least A B: the running kernel is A.B or later.
kernel_at_least() {
	local v
	v=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
	[ "${v% *}" -gt "$1" ] || { [ "${v% *}" -eq "$1" ] && [ "${v#* }" -ge "$2" ]; }
}

# What the kernel made of the programs: --dump-bpf=xlated shows each one
# as sent and as kept, maps by fd and by id; --verifier-log the verifier's
# log of each accepted load; --check how many instructions it walked.
scenario_kernel_views() {
	local name=xlated
	ext4dist --dump-bpf=xlated --ops open > "$WORK/$name.out" 2> "$WORK/$name.err" ||
		{ fail "$name" "exit $?" "$WORK/$name.err"; return 0; }
	# BPF_OBJ_GET_INFO_BY_FD arrived in 4.13: before, the dump says so.
	if ! kernel_at_least 4 13; then
		check "$name-unreadable-before-4.13" "$(grep -c '^  kernel: its translated instructions cannot be read (BPF_OBJ_GET_INFO_BY_FD: 4.13+' "$WORK/$name.out")" 2 "$WORK/$name.out"
		verifier_views
		return 0
	fi
	check "$name-programs" "$(grep -c '^program k\(ret\)\{0,1\}probe/open: kernel id [0-9]*, tag [0-9a-f]\{16\}, JIT [0-9]* bytes$' "$WORK/$name.out")" 2 "$WORK/$name.out"
	check "$name-kept" "$(grep -c '^  kernel: [0-9]* instructions after the verifier' "$WORK/$name.out")" 2 "$WORK/$name.out"
	# The return's hist by the map's id; the entry's calls by its
	# value's address from 5.2 on (as start and ctl), by the map's id
	# before.
	if kernel_at_least 5 2; then
		check "$name-map-ids" "$(grep -c '; map hist: the kernel keeps its address here and shows its id [0-9]*$' "$WORK/$name.out")" 1 "$WORK/$name.out"
		check "$name-calls-value" "$(grep -c "; map calls's value: the kernel keeps its address here and shows the map's id [0-9]*$" "$WORK/$name.out")" 1 "$WORK/$name.out"
	else
		check "$name-map-ids" "$(grep -c '; map \(calls\|hist\): the kernel keeps its address here and shows its id [0-9]*$' "$WORK/$name.out")" 2 "$WORK/$name.out"
	fi
	check "$name-pid-filter" "$(grep -c '; PATCH_TGID patched: 0$' "$WORK/$name.out")" 2 "$WORK/$name.out"
	check "$name-decoded" "$(grep -c '\.insn' "$WORK/$name.out")" 0 "$WORK/$name.out"
	jited_views
	verifier_views
}

# --dump-bpf=jited: the machine code of both programs of open where the
# JIT is on, every byte the kernel says it made; else none, said so.
jited_views() {
	local name=jited want
	ext4dist --dump-bpf=jited --ops open > "$WORK/$name.out" 2> "$WORK/$name.err" ||
		{ fail "$name" "exit $?" "$WORK/$name.err"; return 0; }
	if [ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 0 ]; then
		check "$name-interpreted" "$(grep -c '^  not compiled: the kernel interprets it' "$WORK/$name.out")" 2 "$WORK/$name.out"
		return 0
	fi
	want=$(sed -n 's/^  JIT: \([0-9]*\) bytes of machine code$/\1/p' "$WORK/$name.out" |
		awk '{ n += $1; k++ } END { print k + 0, n + 0 }')
	check "$name-programs" "${want% *}" 2 "$WORK/$name.out"
	check "$name-bytes" "$(awk '/^  [0-9a-f][0-9a-f]( |$)/ { gsub(/ /, ""); n += length($0) / 2 } END { print n + 0 }' "$WORK/$name.out")" \
		"${want#* }" "$WORK/$name.out"
}

# --verifier-log and --check's counts (the verifier says what it walked
# from 5.16; before, --check says it does not).
verifier_views() {
	local name=verifier-log processed='[0-9]* processed'
	kernel_at_least 5 16 || processed='the kernel does not say how many it processed (verified_insns: 5.16+)'

	ext4dist --check --verifier-log --ops fsync > "$WORK/$name.out" 2> "$WORK/$name.err" ||
		{ fail "$name" "--check exit $?" "$WORK/$name.out" "$WORK/$name.err"; return 0; }
	check "$name-framed" "$(grep -c '^--- verifier log of \(k\(ret\)\{0,1\}probe\|fentry\|fexit\)\(/fsync\|\.multi/every_op/ip\) (accepted: [0-9]* instructions given, [0-9]* processed) ---$' "$WORK/$name.err")" 2 "$WORK/$name.err"
	check "$name-counts" "$(grep -c '^processed [0-9]* insns' "$WORK/$name.err")" 2 "$WORK/$name.err"
	check "$name-check-row" "$(grep -c "^bpf programs  *yes: 2 programs patched as a run patches them and verified: [0-9]* instructions given to the verifier, $processed; " "$WORK/$name.out")" 1 "$WORK/$name.out"
}
