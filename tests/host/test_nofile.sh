#!/usr/bin/env bash
# RLIMIT_NOFILE exhausted: said as such ("too many open files: ...: raise
# the limit (ulimit -n)"), never as a kernel feature missing (a verifier
# refusal, an unknown attach type, no CONFIG_FTRACE, no CONFIG_BPF_JIT).
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

if ! command -v prlimit > /dev/null; then
	fail nofile "prlimit (util-linux) is missing"
	exit 1
fi
full="all 8 file descriptors RLIMIT_NOFILE allows this process are in use; raise the limit (ulimit -n) and try again"

if [ ! -e /sys/bus/event_source/devices/kprobe/type ] && [ -e /sys/kernel/btf/vmlinux ]; then
	# This host: the kprobe_multi and kprobe questions come before the
	# object is read (their answers say which programs are kept): with
	# stdin, stdout and stderr alone the first finds no descriptor; with
	# 8 the tracing dir asked for kprobe_events keeps 3, the maps take 4
	# to 7, and the fifth map (open_scan) finds none left.
	run_bin prlimit --nofile=3 "$BIN" --check
	expect_eq "--check, 3 descriptors: exit status" "$RC" 1
	expect_eq "--check, 3 descriptors: the verdict" \
		"$(echo "$OUT" | grep '^verdict ')" \
		"verdict                ext4dist cannot trace here: too many open files: cannot load the kprobe_multi question's program: ${full/8 file/3 file}"
	run_bin prlimit --nofile=8 "$BIN" --check
	expect_eq "--check, 8 descriptors: exit status" "$RC" 1
	expect_eq "--check, 8 descriptors: the report" \
		"$(echo "$OUT" | sed -e '1s/^\(kernel  *\).*/\1RELEASE/' -e '2s/ [0-9a-fx]* ([0-9.]*) / CODE /')" \
		"kernel                 RELEASE
kern_version           CODE from the vDSO note; uname parsing agrees
privileges             yes
verdict                ext4dist cannot trace here: too many open files: cannot create BPF map open_scan: $full"
	run_bin prlimit --nofile=8 "$BIN"
	expect_eq "a run, 8 descriptors: exit status" "$RC" 1
	expect_eq "a run, 8 descriptors: message" "$ERR" \
		"ext4dist: too many open files: cannot create BPF map open_scan: $full"
	# A soft limit below the hard one is raised: nothing to say.
	run_bin prlimit --nofile=8:256 "$BIN" --check
	expect_eq "--check, soft limit 8, hard 256: the host's own verdict" \
		"$(echo "$OUT" | grep '^verdict ')" \
		"verdict                ext4dist cannot trace here: this kernel has no kprobes: there is no kprobe PMU (/sys/bus/event_source/devices/kprobe) and no kprobe_events in /sys/kernel/tracing; ext4dist needs a kernel built with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y"
fi

# Every limit from 3 descriptors (only stdin, stdout and stderr) to 40:
# whatever differs from a run with room names the full table (or, in
# --dump-bpf=elf, shows the fd -1 of maps it said it could not create).
for args in "--check" "-p 1" "--slower 0" "--attach=tracefs" \
	"--dump-bpf=xlated" "--dump-bpf=refused" "--dump-bpf=elf"; do
	# shellcheck disable=SC2086 # args: words
	run_both normal "$BIN" $args
	wrong=""
	for v in $(seq 3 40); do
		# shellcheck disable=SC2086
		run_both o prlimit --nofile="$v" "$BIN" $args
		[ "$RC" -lt 2 ] || { wrong="$wrong $v: exit status $RC;"; continue; }
		minus1=nothing
		! grep -q '^(maps not created, too many open files: ' "$TMP/o" ||
			minus1='map_fd\[-N\] ll  (src_reg N -> N BPF_PSEUDO_MAP_FD, imm N -> fd -N)$'
		l=$(new_lines "$TMP/normal" "$TMP/o" | grep -v -e 'too many open files' \
			-e "$minus1" | head -n 1)
		[ -z "$l" ] || wrong="$wrong $v: '$l';"
	done
	expect_eq "$args with 3 to 40 descriptors: every difference says 'too many open files'" \
		"$(echo "${wrong# }" | cut -d';' -f1-3)" ""
done
