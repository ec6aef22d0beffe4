#!/usr/bin/env bash
# What ext4dist refuses before it traces, so that a run cannot do harm:
# --prometheus targets it must not replace or cannot write, -p values it
# cannot honour (a thread id; a PID inside a PID namespace).  These checks
# run before tracing starts, so they hold on this kprobe-less host too.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

NO_KPROBES="ext4dist: this kernel has no kprobes: there is no kprobe PMU (/sys/bus/event_source/devices/kprobe) and no kprobe_events in /sys/kernel/tracing; ext4dist needs a kernel built with CONFIG_KPROBES=y and CONFIG_KPROBE_EVENTS=y"
HAS_KPROBES=0
[ ! -e /sys/bus/event_source/devices/kprobe/type ] || HAS_KPROBES=1
NOT_REGULAR="not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one"

# refused NAME PATH WANT_ERR: --prometheus PATH stops with status 1 and
# WANT_ERR, before anything is traced.
refused() {
	run_bin "$BIN" --prometheus "$2" 1 1
	expect_eq "--prometheus $1: exit status" "$RC" 1
	expect_eq "--prometheus $1: message" "$ERR" "$3"
}

# --- --prometheus: device nodes, links, directories, unwritable places.
refused /dev/full /dev/full "ext4dist: --prometheus /dev/full: a character device, $NOT_REGULAR"
expect_eq "--prometheus /dev/full: still a character device" \
	"$(stat -c %F /dev/full)" "character special file"
refused /dev/null /dev/null "ext4dist: --prometheus /dev/null: a character device, $NOT_REGULAR"
refused /dev/stdout /dev/stdout "ext4dist: --prometheus /dev/stdout: a symbolic link, $NOT_REGULAR"
echo old > "$TMP/real.prom"
ln -s real.prom "$TMP/link.prom"
refused "a symbolic link" "$TMP/link.prom" "ext4dist: --prometheus $TMP/link.prom: a symbolic link, $NOT_REGULAR"
expect_eq "--prometheus a symbolic link: still a link" \
	"$(readlink "$TMP/link.prom")" real.prom
refused "a directory" "$TMP" "ext4dist: --prometheus $TMP: a directory, $NOT_REGULAR"
refused "a missing directory" /nonexistent/x.prom \
	"ext4dist: --prometheus /nonexistent/x.prom: cannot open its directory /nonexistent: No such file or directory; give a path in an existing, writable directory"
refused /proc/self/mem /proc/self/mem \
	"ext4dist: --prometheus /proc/self/mem: cannot create a file in /proc/self: No such file or directory; ext4dist writes every output to a new file there and renames it over mem, so give a path in a writable directory"
if command -v setpriv > /dev/null; then
	chmod 755 "$TMP"
	mkdir "$TMP/ro"
	chmod 555 "$TMP/ro"
	run_bin setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=-all "$BIN" --prometheus "$TMP/ro/x.prom"
	expect_eq "--prometheus in a directory not writable: message" "$ERR" \
		"ext4dist: --prometheus $TMP/ro/x.prom: cannot create a file in $TMP/ro: Permission denied; ext4dist writes every output to a new file there and renames it over x.prom, so give a path in a writable directory"
fi

# A good target passes the check and leaves nothing behind; tracing then
# fails here for want of kprobes.
if [ "$HAS_KPROBES" = 0 ]; then
	mkdir "$TMP/prom"
	name=$(printf 'n%.0s' $(seq 255))
	run_bin "$BIN" --prometheus "$TMP/prom/$name" 1 1
	expect_eq "--prometheus NAME_MAX name: passes the check" "$ERR" "$NO_KPROBES"
	echo old > "$TMP/prom/kept.prom"
	chmod 600 "$TMP/prom/kept.prom"
	run_bin "$BIN" --prometheus "$TMP/prom/kept.prom" 1 1
	expect_eq "--prometheus existing file: passes the check" "$ERR" "$NO_KPROBES"
	expect_eq "--prometheus: the check leaves nothing behind" \
		"$(ls -A "$TMP/prom")" kept.prom
	expect_eq "--prometheus: the check leaves the old file as it was" \
		"$(stat -c '%a %s' "$TMP/prom/kept.prom")" "600 4"
fi

# --- -p with a thread id: refused, naming the process to use instead.
# The VM's workload program: -t 2 starts two threads once GOFILE exists.
if gcc -O2 -pthread -o "$TMP/workload" tests/vm/workload.c 2> "$TMP/gcc.err"; then
	"$TMP/workload" -g "$TMP/go" -t 2 -n 200 -s 50 "$TMP/wl" 1 1 1 0 > /dev/null 2>&1 &
	wpid=$!
	touch "$TMP/go"
	tid=""
	for _ in $(seq 100); do
		for t in /proc/"$wpid"/task/*; do
			[ "${t##*/}" = "$wpid" ] || [ ! -e "$t" ] || tid=${t##*/}
		done
		[ -z "$tid" ] || break
		sleep 0.05
	done
	if [ -z "$tid" ]; then
		fail "-p thread id" "no thread appeared in the workload"
	else
		run_bin "$BIN" -p "$tid"
		expect_eq "-p thread id: exit status" "$RC" 1
		expect_eq "-p thread id: message" "$ERR" \
			"ext4dist: -p $tid is a thread of process $wpid, not a process: -p keeps one process (all its threads); use -p $wpid"
		# Inside a PID namespace with its own /proc: the kernel says
		# (pidfd_open refuses a thread) what /proc cannot.
		run_bin unshare -fp --mount-proc sh -c \
			"'$TMP/workload' -g '$TMP/go' -t 2 -n 200 -s 50 '$TMP/wl2' 1 1 1 0 > /dev/null 2>&1 & w=\$!
			for i in \$(seq 100); do t=\$(ls /proc/\$w/task | grep -vx \$w | head -n 1); [ -z \"\$t\" ] || break; sleep 0.05; done
			'$BIN' -p \$t; echo \"rc=\$? tid=\$t\" >&2; kill \$w"
		expect_eq "-p thread id in a PID namespace: message" \
			"$(echo "$ERR" | head -n 1 | sed 's/-p [0-9]* is/-p T is/')" \
			"ext4dist: -p T is a thread, not a process: -p keeps one process (all its threads); give the PID of its process"
		expect_eq "-p thread id in a PID namespace: exit status" \
			"$(echo "$ERR" | sed -n 's/^rc=\([0-9]*\) .*/\1/p')" 1
	fi
	kill "$wpid" 2> /dev/null
	wait "$wpid" 2> /dev/null
else
	fail "-p thread id" "cannot build tests/vm/workload.c: $(head -c 300 "$TMP/gcc.err")"
fi

# --- -p inside a PID namespace: BPF compares the initial namespace's
# PIDs.  With its own /proc the PID cannot be translated: refused.
run_bin unshare -fp --mount-proc "$BIN" -p 1
expect_eq "-p in a PID namespace with its own /proc: exit status" "$RC" 1
expect_eq "-p in a PID namespace with its own /proc: message" "$ERR" \
	"ext4dist: -p 1 cannot be honoured: ext4dist runs in a PID namespace of its own, the BPF programs compare the PIDs of the initial one, and this /proc shows the PIDs of another namespace; run ext4dist in the initial PID namespace (on the host) with the PID seen there"
# With the initial namespace's /proc (unshare -fp alone), exactly: the
# PID it names has the namespace's PID as its last NSpid.  That needs
# ptrace access to PID 1 (stat of /proc/1/ns/pid), which a root without
# CAP_SYS_PTRACE lacks: then it is refused, with that reason.
run_bin unshare -fp sh -c "sleep 30 & l=\$!
	'$BIN' -v -p \$l 2>&1 | sed -n 's/^ext4dist: -p [0-9]* is PID \([0-9]*\) in the initial PID namespace (pidfd fdinfo)\$/\1/p' > '$TMP/global'
	'$BIN' -p \$l 2> '$TMP/nserr'
	g=\$(cat '$TMP/global')
	echo \"local=\$l global=\$g\"
	[ -z \"\$g\" ] || grep '^NSpid:' /proc/\$g/status
	kill \$l"
if stat -L /proc/1/ns/pid > /dev/null 2>&1; then
	local_pid=$(echo "$OUT" | sed -n 's/^local=\([0-9]*\) .*/\1/p')
	global_pid=$(echo "$OUT" | sed -n 's/.* global=\([0-9]*\)$/\1/p')
	expect_eq "-p in a PID namespace, /proc of the initial one: translated" \
		"$(echo "$OUT" | grep '^NSpid:' | tr '\t' ' ')" "NSpid: $global_pid $local_pid"
	expect_eq "-p in a PID namespace, /proc of the initial one: then traces" \
		"$(cat "$TMP/nserr")" "$NO_KPROBES"
else
	expect_eq "-p in a PID namespace, /proc of the initial one, no ptrace access to PID 1: refused" \
		"$(sed 's/-p [0-9]* cannot/-p L cannot/' "$TMP/nserr")" \
		"ext4dist: -p L cannot be honoured: ext4dist runs in a PID namespace of its own, the BPF programs compare the PIDs of the initial one, and it cannot tell whether /proc shows those (stat /proc/1/ns/pid: Permission denied); run ext4dist in the initial PID namespace (on the host) with the PID seen there"
fi

# --- ext4dist's own PID, which its programs compare to leave its own
# file operations out and to serve its own probes (PATCH_SELF): the
# initial namespace's, also as PID 1 of a namespace with its own /proc
# (getpid() says 1 there).  Its output fills a FIFO nobody reads yet, so
# that its PID can be looked up from outside while it waits.
mkfifo "$TMP/xl.fifo"
exec 3<> "$TMP/xl.fifo"
unshare -fp --mount-proc "$BIN" -v --dump-bpf=xlated > "$TMP/xl.fifo" 2> "$TMP/xl.err" &
u=$!
k=""
for _ in $(seq 1 200); do
	for st in /proc/[0-9]*/stat; do
		[ "$(cut -d' ' -f4 "$st" 2>/dev/null)" = "$u" ] && k=${st#/proc/} && k=${k%/stat}
	done
	[ -z "$k" ] || break
	sleep 0.05
done
exec 4< "$TMP/xl.fifo"
exec 3<&-
cat <&4 > "$TMP/xl.out"
exec 4<&-
wait "$u"
expect_eq "own PID in a PID namespace with its own /proc: the initial namespace's in every program" \
	"$(sed -n 's/.*; PATCH_SELF patched: \([0-9]*\)$/\1/p' "$TMP/xl.out" | sort -u | tr '\n' ' ')" "$k "
expect_eq "own PID in a PID namespace with its own /proc: -v says where it came from" \
	"$(grep '^ext4dist: own PID: ' "$TMP/xl.err")" \
	"ext4dist: own PID: $k in the initial PID namespace (asked through BPF), 1 in ext4dist's own"
