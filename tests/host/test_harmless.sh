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
