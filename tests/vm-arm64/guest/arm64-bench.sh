#!/bin/sh
# shellcheck shell=dash
# tests/vm-arm64/bench.sh's guest (ext4dist_mode=bench), booted under qemu
# -icount: every "ns" below is a guest instruction.  The JIT is always on
# (Debian's arm64: CONFIG_BPF_JIT_ALWAYS_ON).  In one boot:
#   the kernel's price of the 8 probes by place, and the profiles of
#     floor8 and of ext4dist on each kprobe path (armhf-places.sh);
#   start-up, exec to banner and SIGINT to exit (bench_probe startup):
#     floor8 (the same 8 probes without BPF) through the PMU and
#     kprobe_events, by address (where ext4dist puts them when ext4.ko is
#     where Debian installs it) and by name; ext4dist as a user starts it
#     and on each kprobe path;
#   the profile of the default run, and of --check (every program loaded,
#     none attached: the verifier's and JIT's share); the default's
#     user-space samples, for the host to name.
# Lines "BENCH <record>" to the results port.
set -eu
# shellcheck source=SCRIPTDIR/../../vm/guest/lib.sh
. /guest/lib.sh

REC=BENCH
# shellcheck source-path=SCRIPTDIR source=../../bench/guest_records.sh
. /guest/records.sh
# shellcheck source=SCRIPTDIR/../../vm-armhf/guest/armhf-places.sh
. /guest/armhf-places.sh
places_setup "$WORK/check.out"
# Which path the default takes, as --check says it.
while IFS= read -r l; do b "check_line $l"; done < "$WORK/check.out"
places_measure "$RUNS"
names="ext4_file_read_iter ext4_file_write_iter ext4_file_open ext4_sync_file"
addrs=""
for f in $names; do addrs="$addrs $(places_addr "$f")"; done
# shellcheck disable=SC2086 # the places, split
for by in addr name; do
	places=$addrs
	[ "$by" = addr ] || places=$names
	bout bench_probe startup --runs "$RUNS" --tag "floor-pmu-$by" -- /bin/floor8 $places
	bout bench_probe startup --runs "$RUNS" --tag "floor-tracefs-$by" -- \
		/bin/floor8 --tracefs --maxactive 64 $places
done
bout bench_probe startup --runs "$RUNS" --tag ext4dist-default \
	--touch /mnt/ext4/data -- /bin/ext4dist
for p in pmu tracefs; do
	bout bench_probe startup --runs "$RUNS" --tag "ext4dist-$p" \
		--touch /mnt/ext4/data -- /bin/ext4dist --attach=$p
done
bout bench_probe profile --top 25 --tag ext4dist-default \
	--touch /mnt/ext4/data -- /bin/ext4dist
# --check ends without the banner: bench_probe's status 1 is no error here.
bench_probe profile --top 25 --tag ext4dist-check -- /bin/ext4dist --check \
	> "$WORK/bout" 2>&1 || true
while IFS= read -r l; do b "$l"; done < "$WORK/bout"
# Where its user space goes, sampled finer (the host names the addresses).
bout bench_probe profile --top 5 --period 10000 --user-ips --tag ext4dist-user \
	--touch /mnt/ext4/data -- /bin/ext4dist
b "done"
