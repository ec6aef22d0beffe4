# shellcheck shell=sh
# Sourced by the measuring guests (tests/budget/guest.sh, tests/ab/guest.sh,
# the armhf and arm64 benches' guests; installed beside them as
# /guest/records.sh) after /guest/lib.sh, with REC set to their records'
# prefix.

b() { out "$REC $*"; }
# bout CMD...: runs CMD, each output line a record.
bout() {
	"$@" > "$WORK/bout" 2> "$WORK/bout.err" || {
		b "error what=command-failed rc=$? cmd=\"$*\""
		out_file "$WORK/bout.err" "    | "
	}
	while IFS= read -r line; do b "$line"; done < "$WORK/bout"
}

# ext4 loaded and its module file where a distribution installs it (the
# initramfs holds the copy insmod loaded): ext4dist then probes by
# address, as it would on an installed system.  The disk on /mnt/ext4,
# tracefs, bpf_stats on.
records_setup() {
	load_modules /lib/modules/ext4.list
	ext4_ko_install
	mkdir -p /mnt/ext4
	mount -t ext4 -o nobarrier /dev/vda /mnt/ext4
	ensure_tracefs
	echo 1 > /proc/sys/kernel/bpf_stats_enabled
}

# start_traced WHAT CMD...: CMD in the background, its output in
# $WORK/e.out and e.err; 0 once its banner is there (PID its pid), else
# (120 s, or it exited) a record "error what=no-banner WHAT" with its
# stderr, CMD killed, and 1.
start_traced() {
	what=$1
	shift
	# The shell truncates e.out in the background job: the last run's
	# banner must not be seen meanwhile.
	rm -f "$WORK/e.out" "$WORK/e.err"
	"$@" > "$WORK/e.out" 2> "$WORK/e.err" &
	PID=$!
	wait_banner "$PID" "$WORK/e.out" 120 && return 0
	b "error what=no-banner $what"
	out_file "$WORK/e.err" "    | "
	kill -9 "$PID" 2> /dev/null || true
	return 1
}
