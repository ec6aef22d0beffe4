#!/bin/sh
# shellcheck shell=dash
# The kernel's price of ext4dist's 8 probes (entry and return of its 4
# functions) made by name, as ext4's symbol (ext4:NAME) and by address
# (from /proc/kallsyms), through the kprobe PMU and kprobe_events with
# "r64:": floor8 --time, the places taken in turn, run after run; then
# floor8's and ext4dist's profiles to the banner on each path.  Sourced
# by armhf-bench.sh, by tests/vm-arm64/guest/arm64-bench.sh and by
# tests/vm-armhf/places-x86.sh's guest on x86_64, after ext4 is mounted
# on /mnt/ext4; the caller's b and bout send the records.

# places_setup CHECK_OUT: the ARM benches' start (after records.sh):
# RUNS from the kernel's command line (ext4dist_runs=, 5 by default),
# ext4, its module file and tracefs (records_setup), the kernel's record,
# and what a default run's --check (its output in CHECK_OUT) says of the
# memory it holds.
places_setup() {
	RUNS=$(sed -n 's/.*ext4dist_runs=\([0-9]*\).*/\1/p' /proc/cmdline)
	RUNS=${RUNS:-5}
	records_setup
	b "kernel release=$KERNEL machine=$(uname -m)"
	ext4dist --check > "$1" 2>&1 || true
	b "kmem $(kmem_fields "$1")"
}

# places_addr FUNC: FUNC's address in ext4, 0x-prefixed.
places_addr() {
	awk -v f="$1" '$3 == f && $4 == "[ext4]" { print "0x" $1 }' /proc/kallsyms
}

# places_measure RUNS
places_measure() {
	local names mods="" addrs="" f i=0 how opt by places r
	names="ext4_file_read_iter ext4_file_write_iter ext4_file_open ext4_sync_file"
	for f in $names; do
		mods="$mods ext4:$f"
		addrs="$addrs $(places_addr "$f")"
	done
	while [ "$i" -lt "$1" ]; do
		for how in pmu tracefs; do
			opt=""
			[ "$how" = pmu ] || opt="--tracefs --maxactive 64"
			for by in name mod addr; do
				case $by in
				name) places=$names ;;
				mod) places=$mods ;;
				addr) places=$addrs ;;
				esac
				# shellcheck disable=SC2086 # options and places, split
				r=$(floor8 --time $opt $places 2>&1) || r="error rc=$? $r"
				b "place how=$how by=$by run=$i ${r#probes }"
			done
		done
		i=$((i + 1))
	done
	# Where the kernel spends it, by each place.
	# shellcheck disable=SC2086 # the places, split
	{
		bout bench_probe profile --top 25 --tag floor8-pmu-addr -- /bin/floor8 $addrs
		bout bench_probe profile --top 25 --tag floor8-pmu-name -- /bin/floor8 $names
		bout bench_probe profile --top 25 --tag floor8-tracefs-addr -- /bin/floor8 --tracefs --maxactive 64 $addrs
		bout bench_probe profile --top 25 --tag floor8-tracefs-name -- /bin/floor8 --tracefs --maxactive 64 $names
		bout bench_probe profile --top 25 --tag floor8-tracefs-mod -- /bin/floor8 --tracefs --maxactive 64 $mods
	}
	for how in pmu tracefs; do
		bout bench_probe profile --top 25 --tag "ext4dist-$how" \
			--touch /mnt/ext4/data -- /bin/ext4dist --attach=$how
	done
}
