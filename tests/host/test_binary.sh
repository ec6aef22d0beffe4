#!/usr/bin/env bash
# The ext4dist binary on this host, whose kernel has no kprobes: the clear
# error, exit codes, nothing left behind, argument errors, static linking,
# make install.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

NO_KPROBES="ext4dist: this kernel has no kprobes: there is no kprobe PMU (/sys/bus/event_source/devices/kprobe) and no kprobe_events in /sys/kernel/tracing; ext4dist needs a kernel built with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y"

if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	echo "SKIP host: this kernel has kprobes: the no-kprobes checks do not apply"
else
	mounts_before=$(grep -c -E ' (tracefs|debugfs) ' /proc/self/mounts)
	run_bin "$BIN"
	expect_eq "no kprobes: exit status" "$RC" 1
	expect_eq "no kprobes: message" "$ERR" "$NO_KPROBES"
	expect_eq "no kprobes: nothing on stdout" "$OUT" ""
	expect_eq "no kprobes: tracefs mounts as before" \
		"$(grep -c -E ' (tracefs|debugfs) ' /proc/self/mounts)" "$mounts_before"
	run_bin "$BIN" --attach=tracefs -p 1 -m 1 1
	expect_eq "no kprobes, --attach=tracefs: same message" "$ERR" "$NO_KPROBES"
	run_bin "$BIN" --attach=pmu
	expect_eq "no kprobes, --attach=pmu: same message" "$ERR" "$NO_KPROBES"
fi

if command -v setpriv > /dev/null; then
	run_bin setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all "$BIN"
	expect_eq "unprivileged: exit status" "$RC" 1
	expect_eq "unprivileged: message" "$ERR" \
		"ext4dist: permission denied: ext4dist loads BPF programs and creates kprobes; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)"
else
	fail "unprivileged" "setpriv (util-linux) is missing"
fi

run_bin "$BIN" 0
expect_eq "interval 0: exit status" "$RC" 1
expect_eq "interval 0: message" "$ERR" "ERROR: interval 0. Exiting."

run_bin "$BIN" -p abc
expect_eq "pid not a number: exit status" "$RC" 2
expect_eq "pid not a number: message" "$ERR" "usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]
ext4dist: error: argument -p/--pid: invalid int value: 'abc'"

run_bin "$BIN" -5
expect_eq "negative interval: exit status" "$RC" 2

run_bin "$BIN" 1 2 3
expect_eq "three positionals: exit status" "$RC" 2
expect_eq "three positionals: message" "$(echo "$ERR" | tail -n 1)" \
	"ext4dist: error: unrecognized arguments: 3"

# --version: the Makefile's version and the commit, as git says it (a
# dist tarball: as its .tarball-version says).
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
	commit=$(git rev-parse --short=12 HEAD)
	git diff --quiet HEAD -- || commit=$commit-dirty
else
	commit=$(cut -d' ' -f1 .tarball-version 2>/dev/null)
fi
VERSION_TEXT="$(sed -n 's/^VERSION *:= *//p' Makefile) (commit ${commit:-unknown})"
run_bin "$BIN" --version
expect_eq "--version" "$OUT" "ext4dist $VERSION_TEXT"

# Output that cannot be written is an error, said on stderr: a full
# device, a closed stdout (whatever the mode), under another name too.
"$BIN" --version > /dev/full 2> "$TMP/err"
expect_eq "--version > /dev/full: exit status" "$?" 1
expect_eq "--version > /dev/full: message" "$(cat "$TMP/err")" \
	"ext4dist: cannot write to standard output: No space left on device"
ln -sf "$(realpath "$BIN")" "$TMP/xfsdist"
"$TMP/xfsdist" --help > /dev/full 2> "$TMP/err"
expect_eq "xfsdist --help > /dev/full: exit status" "$?" 1
expect_eq "xfsdist --help > /dev/full: message" "$(cat "$TMP/err")" \
	"xfsdist: cannot write to standard output: No space left on device"
closed="ext4dist: cannot write to standard output: it is closed; open it (to /dev/null to discard the output)"
for args in --help --version --check --dump-bpf "-p 1"; do
	# shellcheck disable=SC2086 # args: words
	"$BIN" $args >&- 2> "$TMP/err"
	expect_eq "$args >&-: exit status" "$?" 1
	expect_eq "$args >&-: message" "$(cat "$TMP/err")" "$closed"
done
"$BIN" --check > /dev/full 2> "$TMP/err"
expect_eq "--check > /dev/full: exit status" "$?" 1
expect_eq "--check > /dev/full: message" "$(cat "$TMP/err")" \
	"ext4dist: cannot write to standard output: No space left on device"
# A stderr nobody reads (--verifier-log writes some 700 KB there, a
# pipe holds 64 KiB): --check waits for its reader, and SIGTERM ends the
# wait: it stops after its start-up, gives the rest 1 s, and exits 1
# (output lost, said to the same stuck stderr), its report (queued
# behind the stuck messages) not written.  It used to wait for good.
rm -f "$TMP/stall.fifo"
mkfifo "$TMP/stall.fifo"
sleep 60 < "$TMP/stall.fifo" &
reader=$!
timeout -s KILL 30 "$BIN" --check --verifier-log > "$TMP/stall.out" 2> "$TMP/stall.fifo" &
pid=$!
sleep 2
start=$(date +%s%N)
kill -TERM "$pid"
wait "$pid"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
kill "$reader" 2> /dev/null
wait "$reader" 2> /dev/null
expect_eq "--check, stderr never read, SIGTERM: exit status 1 (output lost), not killed" "$rc" 1
expect_eq "--check, stderr never read, SIGTERM: ended within 5 s of it" "$([ "$ms" -lt 5000 ] && echo yes || echo "no: $ms ms")" yes
expect_eq "--check, stderr never read, SIGTERM: the report behind the stuck messages not written" "$(wc -c < "$TMP/stall.out")" 0
# Closed stdin and stderr take no descriptor of ext4dist's: --check's
# report is whole (to its verdict and the verdict's second line, the way
# left on this host: the tracepoints).
"$BIN" --check <&- 2>&- > "$TMP/out"
expect_eq "--check <&- 2>&-: the report to its verdict" \
	"$(tail -n 2 "$TMP/out" | cut -c1-40)" "verdict                ext4dist cannot t
                       fsync alone can b"

run_bin "$BIN" -h
expect_eq "-h: exit status" "$RC" 0
expect_eq "-h: first line" "$(echo "$OUT" | head -n 1)" \
	"usage: ext4dist [-h] [-T] [-m] [-p PID] [interval] [count]"

if readelf -l "$BIN" | grep -q 'program interpreter'; then
	fail "static binary" "$BIN has a program interpreter"
else
	pass "static binary"
fi
expect_eq "ldd says not dynamic" "$(ldd "$BIN" 2>&1 | tr -d '\t ')" "notadynamicexecutable"

make -s install DESTDIR="$TMP/root" PREFIX=/usr > "$TMP/install.log" 2>&1
expect_eq "make install: binary" "$(cmp -s "$BIN" "$TMP/root/usr/sbin/ext4dist" && echo same)" same
expect_eq "make install: man page" "$(test -s "$TMP/root/usr/share/man/man8/ext4dist.8" && echo present)" present
expect_eq "make install: ext4slower is a link to ext4dist" \
	"$(readlink "$TMP/root/usr/sbin/ext4slower")" ext4dist
expect_eq "make install: ext4slower's man page" \
	"$(test -s "$TMP/root/usr/share/man/man8/ext4slower.8" && echo present)" present
for n in xfsdist xfsslower btrfsdist btrfsslower f2fsdist f2fsslower; do
	expect_eq "make install: $n is a link to ext4dist" \
		"$(readlink "$TMP/root/usr/sbin/$n")" ext4dist
	expect_eq "make install: $n's man page" \
		"$(test -s "$TMP/root/usr/share/man/man8/$n.8" && echo present)" present
done
run_bin "$TMP/root/usr/sbin/xfsdist" --bogus
expect_eq "xfsdist: its own usage line" "$(head -1 "$TMP/err")" \
	"usage: xfsdist [-h] [-T] [-m] [-p PID] [interval] [count]"

# ext4slower: BCC ext4slower's command line, from the same binary.
SLOWER="$TMP/root/usr/sbin/ext4slower"
run_bin "$SLOWER" -h
expect_eq "ext4slower -h: exit status" "$RC" 0
expect_eq "ext4slower -h: BCC's usage line" "$(head -1 "$TMP/out")" \
	"usage: ext4slower [-h] [-j] [-p PID] [min_ms]"
run_bin "$SLOWER" -x
expect_eq "ext4slower -x: exit status 2" "$RC" 2
expect_eq "ext4slower -x: argparse's message" "$ERR" \
	"usage: ext4slower [-h] [-j] [-p PID] [min_ms]
ext4slower: error: unrecognized arguments: -x"
run_bin "$SLOWER" 1 2
expect_eq "ext4slower 1 2: one positional only" "$ERR" \
	"usage: ext4slower [-h] [-j] [-p PID] [min_ms]
ext4slower: error: unrecognized arguments: 2"
run_bin "$SLOWER" ten
expect_eq "ext4slower ten: exit status 2" "$RC" 2
expect_eq "ext4slower ten: message" "$(tail -1 "$TMP/err")" \
	"ext4slower: error: argument min_ms: invalid int value: 'ten'"
run_bin "$SLOWER" -j --json
expect_eq "ext4slower -j --json: refused" "$(tail -1 "$TMP/err")" \
	"ext4slower: error: argument --json: not allowed with argument -j/--csv"
run_bin "$SLOWER" --ring-pages 3
expect_eq "ext4slower --ring-pages 3: refused" "$(tail -1 "$TMP/err")" \
	"ext4slower: error: argument --ring-pages: not a power of two: '3'"
run_bin "$SLOWER" --version
expect_eq "ext4slower --version" "$OUT" "ext4slower $VERSION_TEXT"
run_bin "$BIN" --slower 5 -m
expect_eq "ext4dist --slower with -m: exit status 2" "$RC" 2
expect_eq "ext4dist --slower with -m: message" "$(tail -1 "$TMP/err")" \
	"ext4dist: error: argument --slower: not allowed with -T, -m, -e, --prometheus, --listen, interval or count (the histogram mode's)"
run_bin "$BIN" --slower 1 1
expect_eq "ext4dist --slower with an interval: exit status 2" "$RC" 2

# --check on this host: it must explain that kprobes are off.
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	kmaj=$(uname -r | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	run_bin "$BIN" --check
	expect_eq "--check: exit status" "$RC" 1
	expect_eq "--check: privileges" "$(grep '^privileges ' "$TMP/out")" \
		"privileges             yes"
	# A run stops before loading programs here; --check still hands the
	# verifier the 8 programs a kprobe run would load (read, write, open,
	# fsync: return and entry), patched as a run patches them: every
	# instruction of theirs was given but the jumps by 0 of the loader's
	# rewrites (--dump-bpf=xlated's "sent" and its lines "-:"), and the
	# verifier walked at least as many (with the placeholders unpatched
	# it proves the PID test false and walks 14 of each).
	"$BIN" --dump-bpf > "$TMP/dump"
	"$BIN" --dump-bpf=xlated > "$TMP/xl"
	given=$(awk '$2 == "section" && $3 ~ /^k(ret)?probe\/(read|write|open|fsync),$/ { n += $4 } END { print n }' "$TMP/dump")
	sent=$(awk '/^program k(ret)?probe\/(read|write|open|fsync):/ { p = 1; next } /^program / { p = 0 } p && $1 == "sent:" { n += $2 } p && $1 == "-:" { d++ } END { print n + 0, d + 0 }' "$TMP/xl")
	expect_eq "--dump-bpf=xlated: the 8 programs sent without the jumps by 0 dropped" \
		"$((${sent% *} + ${sent#* }))" "$given"
	given=${sent% *}
	progs=$(sed -n 's/^bpf programs  *yes: \([0-9]*\) programs patched as a run patches them and verified: \([0-9]*\) instructions given to the verifier, \([0-9]*\) processed; .*/\1 \2 \3/p' "$TMP/out")
	expect_eq "--check: 8 programs verified with every instruction of theirs" \
		"${progs% *}" "8 $given"
	expect_eq "--check: the verifier walked the patched code, not 14 instructions each" \
		"$([ -n "$progs" ] && [ "${progs##* }" -ge "$given" ] && echo yes)" yes
	expect_eq "--check: programs unattached" "$(grep -A1 '^bpf programs ' "$TMP/out" | tail -n 1)" \
		"                       loaded for this check alone and closed again: a run stops before loading them (see the verdict)"
	expect_eq "--check: kprobe_multi" "$(grep '^kprobe_multi ' "$TMP/out")" \
		"kprobe_multi           no: no kprobe_multi links here: a test link on one address that cannot be read was refused with \"Operation not supported\" before that address was looked at (they need 5.18+ with CONFIG_FPROBE)"
	expect_eq "--check: kprobe PMU" "$(grep '^kprobe PMU ' "$TMP/out")" \
		"kprobe PMU             no: /sys/bus/event_source/devices/kprobe/type missing: kernel $kmaj has it only with kprobes (CONFIG_KPROBES, CONFIG_KPROBE_EVENTS): built without them"
	# -v says the same, not "kernel before 4.17" on a kernel after it.
	"$BIN" -v --check > /dev/null 2> "$TMP/verr"
	expect_eq "-v --check: why no kprobe PMU" "$(grep '^ext4dist: no kprobe PMU' "$TMP/verr")" \
		"ext4dist: no kprobe PMU (/sys/bus/event_source/devices/kprobe/type absent: kernel $kmaj has it only with kprobes (CONFIG_KPROBES, CONFIG_KPROBE_EVENTS): built without them)"
	expect_eq "--check: kprobe_events" "$(grep '^kprobe_events ' "$TMP/out")" \
		"kprobe_events          no: no kprobe_events in /sys/kernel/tracing"
	expect_eq "--check: attach path" "$(grep '^attach path ' "$TMP/out")" \
		"attach path            none"
	# No path: nothing under it, the memory rows and the verdict next
	# (fentry was planned and refused at attach, then no other path fit).
	expect_eq "--check: the memory rows and the verdict right after 'attach path none'" \
		"$(grep -A4 '^attach path ' "$TMP/out" | cut -c1-22 | sed 's/ *$//' | tr '\n' ,)" \
		"attach path,start records,kernel memory,peak RSS,verdict,"
	expect_eq "--check: verdict" "$(grep '^verdict ' "$TMP/out")" \
		"verdict                ext4dist cannot trace here: ${NO_KPROBES#ext4dist: }"
	expect_eq "--check: tracefs mounts as before" \
		"$(grep -c -E ' (tracefs|debugfs) ' /proc/self/mounts)" "$mounts_before"
	# fentry/fexit: where the kernel refuses the program to root (this
	# host: 6.18 without ftrace says EPERM before its verifier), the
	# reason is not a capability, and the message must not say it is.
	row=$(grep '^fentry/fexit ' "$TMP/out")
	case "$row" in
	*"Operation not permitted"*)
		refused="cannot load BPF program fexit/read: Operation not permitted (this process has the capabilities: the kernel refuses it for another reason, a security module, lockdown or how it was built)"
		expect_eq "--check: fentry/fexit refused to root, not for a capability" \
			"$row" "fentry/fexit           no: $refused"
		run_bin "$BIN" --attach=fentry
		expect_eq "--attach=fentry refused to root: exit status" "$RC" 1
		expect_eq "--attach=fentry refused to root: message" "$ERR" "ext4dist: $refused"
		;;
	*)
		expect_eq "--check: an fentry/fexit row" "${row:+yes}" yes ;;
	esac
fi

# --dump-bpf: the object's maps and every program, placeholders named.
run_bin "$BIN" --dump-bpf
expect_eq "--dump-bpf: exit status" "$RC" 0
# 6 kprobe pairs and 2 kprobe_multi pairs (each with one copy of the code
# per operation), every program with its atomic twin, and both again in
# slow mode but getattr's (60); the f_op scan and the name discovery's
# peek; the 9 lessons, broken on purpose.  Then fentry and fexit of the
# same 6 functions, slow mode's but getattr's, no atomic twins (22), and
# the 2 fsync tracepoints'.
expect_eq "--dump-bpf: programs listed" "$(grep -c ': section [ks]' "$TMP/out")" 71
expect_eq "--dump-bpf: lessons listed" "$(grep -c ': section kprobe/lesson/' "$TMP/out")" 9
expect_eq "--dump-bpf: tracepoint programs listed" \
	"$(grep -c ': section tracepoint/fsync/e[nx][ti][et]r*, ' "$TMP/out")" 2
expect_eq "--dump-bpf: fentry and fexit programs listed" \
	"$(grep -c ': section f' "$TMP/out")" 22
expect_eq "--dump-bpf: PID filter placeholder named" \
	"$(grep -c 'PATCH_TGID ll' "$TMP/out")" $((124 + 22 + 2))
expect_eq "--dump-bpf: map references named" \
	"$(grep -c '= map\[hist\] ll' "$TMP/out")" $((62 + 11 + 1))
expect_eq "--dump-bpf: function addresses named" \
	"$(grep -c '= PATCH_IP_[A-Z]* ll' "$TMP/out")" 40
expect_eq "--dump-bpf: slow mode's threshold named" \
	"$(grep -c '= PATCH_SLOW_NS ll' "$TMP/out")" $((26 + 5))
# Each fexit program's argument count (twice in slow mode's: the event
# has the return value too).
expect_eq "--dump-bpf: fexit argument counts named" \
	"$(grep -c '= PATCH_NARGS_[A-Z]* ll' "$TMP/out")" 16
expect_eq "--dump-bpf: nothing undecoded" "$(grep -c '\.insn' "$TMP/out")" 0

run_bin "$BIN" -p 4194304
expect_eq "-p of no process: exit status" "$RC" 1
expect_eq "-p of no process: message" "$ERR" \
	"ext4dist: no process with PID 4194304 (-p): nothing to trace"

# --dump-bpf=xlated: the programs of --check, as sent and as the kernel
# keeps them, the maps named by fd and by id, the patched constants named.
run_bin "$BIN" --dump-bpf=xlated --ops open
expect_eq "--dump-bpf=xlated: exit status" "$RC" 0
expect_eq "--dump-bpf=xlated: both programs of open" \
	"$(grep -c '^program k\(ret\)\{0,1\}probe/open: kernel id [0-9]*, tag [0-9a-f]\{16\}, JIT [0-9]* bytes$' "$TMP/out")" 2
expect_eq "--dump-bpf=xlated: each as sent" \
	"$(grep -c '^  sent: [0-9]* instructions' "$TMP/out")" 2
expect_eq "--dump-bpf=xlated: each as the kernel keeps it" \
	"$(grep -c '^  kernel: [0-9]* instructions after the verifier (BPF_OBJ_GET_INFO_BY_FD, xlated_prog_insns)$' "$TMP/out")" 2
expect_eq "--dump-bpf=xlated: map hist by its fd as sent" \
	"$(grep -c 'r1 = map_fd\[[0-9]*\] ll  *; map hist: its fd, as the relocation put it' "$TMP/out")" 1
expect_eq "--dump-bpf=xlated: map hist by its id as kept" \
	"$(grep -c 'r1 = map_fd\[[0-9]*\] ll  *; map hist: the kernel keeps its address here and shows its id [0-9]*$' "$TMP/out")" 1
expect_eq "--dump-bpf=xlated: the PID filter patched, named" \
	"$(grep -c 'r[0-9] = 0x0 ll  *; PATCH_TGID patched: 0$' "$TMP/out")" 2
# The return's lookup of ctl, the entry's of calls and both programs' of
# start sent as the value's address (5.2+), each key's pointer, call and
# null test as jumps by 0, which the loader drops before sending them
# (the return's ctl test two: clang's "if r0 != 0 goto +1; goto out").
expect_eq "--dump-bpf=xlated: ctl's value by address as sent" \
	"$(grep -c "r0 = map_value_fd\[[0-9]*\] + 0 ll  *; map ctl's value by its address, for the object's lookup (src_reg 2, BPF_PSEUDO_MAP_VALUE, 5.2+)$" "$TMP/out")" 1
expect_eq "--dump-bpf=xlated: ctl's value by address as kept" \
	"$(grep -c "r0 = map_value_fd\[[0-9]*\] + 0 ll  *; map ctl's value: the kernel keeps its address here and shows the map's id [0-9]*$" "$TMP/out")" 1
expect_eq "--dump-bpf=xlated: start's value by address as sent" \
	"$(grep -c "r0 = map_value_fd\[[0-9]*\] + 0 ll  *; map start's value by its address, for the object's lookup (src_reg 2, BPF_PSEUDO_MAP_VALUE, 5.2+)$" "$TMP/out")" 2
expect_eq "--dump-bpf=xlated: start's value by address as kept" \
	"$(grep -c "r0 = map_value_fd\[[0-9]*\] + 0 ll  *; map start's value: the kernel keeps its address here and shows the map's id [0-9]*$" "$TMP/out")" 2
expect_eq "--dump-bpf=xlated: calls' value by address as sent" \
	"$(grep -c "r0 = map_value_fd\[[0-9]*\] + 0 ll  *; map calls's value by its address, for the object's lookup (src_reg 2, BPF_PSEUDO_MAP_VALUE, 5.2+)$" "$TMP/out")" 1
expect_eq "--dump-bpf=xlated: calls' value by address as kept" \
	"$(grep -c "r0 = map_value_fd\[[0-9]*\] + 0 ll  *; map calls's value: the kernel keeps its address here and shows the map's id [0-9]*$" "$TMP/out")" 1
# Each key's set-up: its pointer (two), and where nothing else reads
# the key's bytes its store and the value stored (two more; the
# return's ctl key has them too): 4 lookups, 4 instructions and a call each.
expect_eq "--dump-bpf=xlated: the lookups' key set-ups and calls as jumps by 0" \
	"$(grep -c "^     -: goto +0  *; was the lookup's \(key's set-up\|call\): a jump by 0, dropped before sending$" "$TMP/out")" 20
expect_eq "--dump-bpf=xlated: no key's store left of a lookup read by address" \
	"$(sed -n '/^program kprobe\/open:/,/^  kernel:/p' "$TMP/out" | grep -c '^ *[0-9]*: \*(u32 \*)(r10 - 4) = r1')" 0
expect_eq "--dump-bpf=xlated: the lookups' null tests as jumps by 0" \
	"$(grep -c "^     -: goto +0  *; was the lookup's null test (the address is never null): a jump by 0, dropped before sending$" "$TMP/out")" 5
expect_eq "--dump-bpf=xlated: no jump by 0 sent" \
	"$(sed -n '/^  sent:/,/^  kernel:/p' "$TMP/out" | grep -c '^ *[0-9]*: goto +0 ')" 0
expect_eq "--dump-bpf=xlated: how many dropped, said" \
	"$(grep -c '^  sent: [0-9]* instructions (the object.s, placeholders patched, map references relocated, the 1[23] jumps by 0 of its rewrites dropped)$' "$TMP/out")" 2
expect_eq "--dump-bpf=xlated: no jump by 0 kept" \
	"$(sed -n '/^  kernel:/,/^  summary:/p' "$TMP/out" | grep -c ': goto +0 ')" 0
expect_eq "--dump-bpf=xlated: the summary says so" \
	"$(grep -c '; 2 lookups sent as the value.s address, no call;' "$TMP/out")" 2
# The CPU's id for the calls row: a helper call before 6.10, a load of
# the per-CPU variable after on x86_64.
kmm=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 * 100 + \2/')
if [ "$(uname -m)" = x86_64 ] && [ $((kmm)) -ge 610 ]; then
	expect_eq "--dump-bpf=xlated: the CPU's id inlined, said" \
		"$(grep -c "^  summary: 47 instructions sent, [0-9]* kept; helper calls 3 sent, 2 kept: bpf_get_smp_processor_id#8 inlined as a load of this CPU's id (x86_64, 6.10+);" "$TMP/out")" 1
else
	expect_eq "--dump-bpf=xlated: the CPU's id by a helper call" \
		"$(grep -c "^  summary: 47 instructions sent, [0-9]* kept; helper calls 3 sent, 3 kept;" "$TMP/out")" 1
fi
expect_eq "--dump-bpf=xlated: nothing undecoded" "$(grep -c '\.insn' "$TMP/out")" 0

# --verifier-log: the log of every accepted load, framed, on stderr.
run_bin "$BIN" --check --verifier-log --ops open
expect_eq "--verifier-log: one log per program" \
	"$(grep -c '^--- verifier log of k\(ret\)\{0,1\}probe/open (accepted: [0-9]* instructions given, [0-9]* processed) ---$' "$TMP/err")" 2
expect_eq "--verifier-log: the verifier's own count in each" \
	"$(grep -c '^processed [0-9]* insns' "$TMP/err")" 2

# --dump-bpf=elf against llvm-objdump of the same object (the one make
# embeds): every section's index, name and size, every relocation's
# section, offset and symbol; and one relocated instruction's bytes.
if command -v llvm-objdump > /dev/null && [ -f build/ext4dist.bpf.o ]; then
	run_bin "$BIN" --dump-bpf=elf
	expect_eq "--dump-bpf=elf: exit status" "$RC" 0
	llvm-objdump -h build/ext4dist.bpf.o | awk '$1 ~ /^[0-9]+$/ && $1 > 0 { print $1, $2, $3 }' |
		while read -r i n s; do printf '%d %s %x\n' "$i" "$n" "0x$s"; done > "$TMP/sections.llvm"
	sed -n 's/^  \[ *\([0-9]*\)\] \([^ ]*\)  *[A-Z_]*  *[-A][-X] size 0x\([0-9a-f]*\).*/\1 \2 \3/p' "$TMP/out" > "$TMP/sections.ours"
	expect_eq "--dump-bpf=elf: sections as llvm-objdump -h lists them" \
		"$(diff "$TMP/sections.llvm" "$TMP/sections.ours" > "$TMP/sections.diff" && echo same || head -5 "$TMP/sections.diff")" same
	llvm-objdump -r build/ext4dist.bpf.o | awk '
		/^RELOCATION RECORDS FOR \[/ { sec = substr($4, 2, length($4) - 3); next }
		$2 ~ /^R_BPF/ { print sec, $1, $3 }' |
		while read -r s o v; do printf '%s 0x%x %s\n' "$s" "0x$o" "$v"; done > "$TMP/relocs.llvm"
	awk '/^relocations of / { sec = $3; next }
		$1 == "offset" && $3 == "R_BPF_64_64" { sub(/:$/, "", $4); print sec, $2, $4 }' "$TMP/out" > "$TMP/relocs.ours"
	expect_eq "--dump-bpf=elf: relocations as llvm-objdump -r lists them" \
		"$(diff "$TMP/relocs.llvm" "$TMP/relocs.ours" > "$TMP/relocs.diff" && echo same || head -5 "$TMP/relocs.diff")" same
	expect_eq "--dump-bpf=elf: a relocated instruction's bytes before and after" \
		"$(grep -m1 -A2 '^  offset 0x[0-9a-f]* R_BPF_64_64 start: instruction [0-9]* loads map start$' "$TMP/out" | tail -2 |
			sed 's/^ *\(before\|after\): *\(.\{48\}\).*(\(src_reg.*\))$/\1 \2 \3/; s/^ *\(before\): *\(.\{48\}\).*/\1 \2/')" \
		"before 18 01 00 00 00 00 00 00  00 00 00 00 00 00 00 00
after 18 11 00 00 03 00 00 00  00 00 00 00 00 00 00 00 src_reg 0 -> 1 BPF_PSEUDO_MAP_FD, imm 0 -> fd 3"
else
	fail "--dump-bpf=elf against llvm-objdump" "llvm-objdump (llvm) or build/ext4dist.bpf.o missing"
fi

# --dump-bpf's C lines (.BTF.ext line_info of the embedded object) against
# llvm-objdump -S -l of the same compile before stripping (its DWARF line
# table; run from the repository root, where it finds the sources): in
# every program, the same file:line and text above the same instruction.
# Where a line comes back after instructions of no line, each prints it
# only as its own source says so, hence a line equal to the one before it
# is dropped on both sides.  Instruction 0 is left out: where DWARF gives
# it no line, or the line of the opening brace, BTF gives it the
# function's own line (the kernel wants one there), which the unit test
# requires of every program.
if command -v llvm-objdump > /dev/null && [ -f build/ext4dist.bpf.debug.o ]; then
	"$BIN" --dump-bpf | awk '
		/: section / { sec = $3; sub(/,$/, "", sec); last = ""; next }
		/^; / { loc = $2; sub(/:$/, "", loc); src = $0
			sub(/^; [^:]*:[0-9]*: ?/, "", src); pend = 1; next }
		/^ *[0-9]+: / && pend { n = $1; sub(/:$/, "", n); pend = 0
			if (loc == last) next; last = loc; print sec, n, loc, src }' > "$TMP/lines.ours"
	llvm-objdump -S -l --no-show-raw-insn build/ext4dist.bpf.debug.o 2> "$TMP/lines.warn" | awk '
		/^Disassembly of section / { sec = $4; sub(/:$/, "", sec); last = ""; next }
		/^; (\.\/)*[^ ]*:[0-9]+$/ { loc = $2; sub(/^(\.\/)*/, "", loc); next }
		/^; .*\(\):$/ { next }
		/^; / { src = $0; sub(/^; */, "", src); sub(/^[ \t]*/, "", src); pend = 1; next }
		/^ *[0-9]+:\t/ && pend { n = $1; sub(/:$/, "", n); pend = 0
			if (loc == last) next; last = loc; print sec, n, loc, src }' > "$TMP/lines.llvm"
	expect_eq "--dump-bpf lines: llvm-objdump found every source" "$(cat "$TMP/lines.warn")" ""
	expect_eq "--dump-bpf lines: over 4000 lines shown" \
		"$([ "$(wc -l < "$TMP/lines.ours")" -gt 4000 ] && echo yes)" yes
	expect_eq "--dump-bpf lines: as llvm-objdump -S prints them (but at instruction 0)" \
		"$(diff <(awk '$2 != 0' "$TMP/lines.llvm") <(awk '$2 != 0' "$TMP/lines.ours") | head -5)" ""
	# fentry's attach_btf_id and attach_btf_obj_fd name the kernel's
	# BTF; nothing sends the object's own (.BTF, line and func info).
	expect_eq "--dump-bpf lines: the embedded object sends no BTF (the loader has no prog_btf_fd, func_info or line_info)" \
		"$(grep -c 'prog_btf_fd\|line_info\|func_info' src/loader/obj/bpf_sys.c)" 0
else
	fail "--dump-bpf lines against llvm-objdump -S" "llvm-objdump (llvm) or build/ext4dist.bpf.debug.o missing"
fi
