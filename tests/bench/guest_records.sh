# shellcheck shell=sh
# Sourced by the measuring guests (tests/budget/guest.sh, tests/ab/guest.sh,
# installed beside them as /guest/records.sh) after /guest/lib.sh, with
# REC set to their records' prefix.

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
