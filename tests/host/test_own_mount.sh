#!/usr/bin/env bash
# A tracing file system mounted for ext4dist alone (loader/util/own_mount.c)
# never shows in this mount namespace: with fsopen()/fsmount() (5.2+) no
# mount(2) at all; without (fsopen failing with ENOSYS, injected by
# strace), a child mounts it in a private namespace of its own.  Either
# way another's mount on the same path, made while ext4dist mounts its
# own (strace holds the call for 1.5 s), is left as it was: a mount on the
# path and a detach of it took whichever was on top.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

if ! command -v strace > /dev/null; then
	fail own-mount "strace is missing"
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "SKIP own-mount: needs root (mounts)"
	exit 0
fi
D=$TMP/mnt
mkdir -p "$D/tracing" "$D/debug"
hooks=(--test-tracing-dir "$D/tracing" --test-debugfs-dir "$D/debug")

# mounts_under: mount points under $D, with their type.
mounts_under() {
	awk -v d="$D" '$5 == d || index($5, d "/") == 1 { for (i = 7; $i != "-"; i++); print $5, $(i + 1) }' /proc/self/mountinfo
}

# race NAME INJECT: another tmpfs mounted on $D/tracing while ext4dist's
# own mount call is held; afterwards the tmpfs is there, nothing else.
race() {
	local name=$1 inject=$2 pid
	strace -f -o "$TMP/$name.strace" -e trace=mount,umount2,fsopen,fsmount,unshare \
		$inject "$TEST_BIN" "${hooks[@]}" --attach=tracefs --check \
		> "$TMP/$name.out" 2>&1 &
	pid=$!
	sleep 0.7
	mount -t tmpfs -o size=1m ext4dist-test-other "$D/tracing"
	wait "$pid"
	expect_eq "$name: another's mount made meanwhile is left, nothing of ext4dist's" \
		"$(mounts_under)" "$D/tracing tmpfs"
	expect_eq "$name: ext4dist found its own tracefs all the same" \
		"$(grep -c "^kprobe_events  *no: no kprobe_events in $D/tracing\$" "$TMP/$name.out")" 1
	umount "$D/tracing" 2>/dev/null
	while [ -n "$(mounts_under)" ]; do umount -l "$(mounts_under | head -n 1 | cut -d' ' -f1)" || break; done
}

if grep -qw tracefs /proc/filesystems && [ ! -e /sys/kernel/tracing/kprobe_events ]; then
	# fsmount: the path is never mounted on.  (debugfs's sched/preempt
	# is read where debugfs is, if anywhere: only tracefs's calls are
	# certain.)  strace pads the PID before a call to five places and a
	# space: one space or more follows it.
	strace -f -o "$TMP/fs.strace" -e trace=mount,umount2,fsopen,fsmount \
		"$TEST_BIN" "${hooks[@]}" --attach=tracefs --check > "$TMP/fs.out" 2>&1
	calls=$(sed -n -e 's/^[0-9]\+ \+\(fsopen\)("\([a-z]*\)".*/\1 \2/p' \
		-e 's/^[0-9]\+ \+\([a-z0-9]*\)(.*/\1/p' "$TMP/fs.strace" |
		grep -v -e '^fsopen debugfs$' | uniq | head -n 3 | tr '\n' ' ')
	expect_eq "fsmount: tracefs by fsopen and fsmount, no mount(2)" \
		"$calls" "fsopen tracefs fsmount "
	grep -q '^[0-9]\+ \+\(mount\|umount2\)(' "$TMP/fs.strace" &&
		fail "fsmount: no mount(2)" "$(grep '^[0-9]\+ \+\(mount\|umount2\)(' "$TMP/fs.strace" | head -n 2)" ||
		pass "fsmount: no mount(2)"
	expect_eq "fsmount: nothing mounted under the path" "$(mounts_under)" ""
	race fsmount "-e inject=fsmount:delay_exit=1500000"
	# Before 5.2: a child in a private namespace, never this process.
	race namespace "-e inject=fsopen:error=ENOSYS -e inject=mount:delay_exit=1500000"
	main=$(head -n 1 "$TMP/namespace.strace" | cut -d' ' -f1)
	expect_eq "namespace: every mount(2) in a child in a namespace of its own" \
		"$(awk -v m="$main" '$2 ~ /^(mount|umount2)\(/ { print ($1 == m ? "ext4dist itself" : "child") }' "$TMP/namespace.strace" | sort | uniq -c | tr -s ' ')" \
		" 4 child"
	expect_eq "namespace: each child unshared its mount namespace first" \
		"$(grep -c 'unshare(CLONE_NEWNS) *= 0' "$TMP/namespace.strace")" 2
else
	echo "SKIP own-mount: no tracefs here, or it has kprobe_events (the checks read the no-kprobe_events row)"
fi
