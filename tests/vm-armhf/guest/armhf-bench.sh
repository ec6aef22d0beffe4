#!/bin/sh
# shellcheck shell=dash
# make bench's armhf part, inside the VM (ext4dist_mode=bench), booted
# under qemu -icount shift=0: the guest clock counts guest instructions,
# so every "ns" below is an instruction count, the same from run to run.
# For the JIT on and then off (net.core.bpf_jit_enable, read when a
# program is loaded), in the same boot:
#   start-up: exec to banner and SIGINT to exit of floor8 (the same 8
#     kprobes through the PMU, no BPF: the kernel's own floor) and of
#     ext4dist, as a user starts it (bench_probe startup);
#   per traced call: the kernel's run_time_ns and run_cnt of ext4dist's
#     entry and return programs over a workload (bench_probe around,
#     kernel.bpf_stats_enabled=1), with their xlated and JIT sizes;
#   with the JIT on, peak RSS in every mode: a run on each kprobe path,
#     ext4slower, --check and the dumps (bench_probe startup and maxrss).
# Lines "BENCH <record>" to the results port.
set -eu
# shellcheck source=SCRIPTDIR/../../vm/guest/lib.sh
. /guest/lib.sh

REC=BENCH
# shellcheck source-path=SCRIPTDIR source=../../bench/guest_records.sh
. /guest/records.sh
# The 8 probes by name, ext4:NAME and address, and the profiles.
# shellcheck source=SCRIPTDIR/armhf-places.sh
. /guest/armhf-places.sh
# ext4.ko where Debian installs it: ext4dist makes its kprobes by
# address, as on a real system (without it, by name).
places_setup "$WORK/kmem.out"
places_measure $((RUNS * 3))
addrs=""
for f in ext4_file_read_iter ext4_file_write_iter ext4_file_open ext4_sync_file; do
	addrs="$addrs $(places_addr "$f")"
done
for jit in 1 0; do
	echo "$jit" > /proc/sys/net/core/bpf_jit_enable
	bout bench_probe startup --runs "$RUNS" --tag "floor8-jit$jit" -- /bin/floor8
	bout bench_probe startup --runs "$RUNS" --tag "ext4dist-jit$jit" \
		--touch /mnt/ext4/data -- /bin/ext4dist
	# Each kprobe path beside the floor of the same path, by name (as
	# the x86_64 guard's) and by address (as ext4dist makes them).
	if [ "$jit" = 1 ]; then
		for p in pmu tracefs; do
			opt=""
			[ "$p" = pmu ] || opt="--tracefs --maxactive 64"
			# shellcheck disable=SC2086 # options and places, split
			{
				bout bench_probe startup --runs "$RUNS" --tag "path-floor8-$p-name" -- /bin/floor8 $opt
				bout bench_probe startup --runs "$RUNS" --tag "path-floor8-$p-addr" -- /bin/floor8 $opt $addrs
			}
			bout bench_probe startup --runs "$RUNS" --tag "path-ext4dist-$p" \
				--touch /mnt/ext4/data -- /bin/ext4dist --attach=$p
		done
	fi
	# Where the kernel spends ext4dist's start-up and exit.
	[ "$jit" = 0 ] || bout bench_probe profile --top 25 --tag "ext4dist-jit$jit" \
		--touch /mnt/ext4/data -- /bin/ext4dist
	if [ "$jit" = 1 ]; then
		for p in pmu tracefs; do
			bout bench_probe startup --runs 1 --settle 300 --tag "rss-$p" \
				--touch /mnt/ext4/data -- /bin/ext4dist --attach=$p
		done
		bout bench_probe startup --runs 1 --settle 300 --tag rss-slower \
			--banner "Tracing ext4 operations slower than 10 ms" -- /bin/ext4slower
		for mode in --check --dump-bpf --dump-bpf=elf --dump-bpf=xlated \
			    --dump-bpf=refused; do
			bout bench_probe maxrss --tag "rss${mode#-}" -- /bin/ext4dist "$mode"
		done
	fi
	# The shell truncates e.out in the background job: the last
	# round's banner must not be seen meanwhile.
	rm -f "$WORK/e.out" "$WORK/e.err"
	ext4dist > "$WORK/e.out" 2> "$WORK/e.err" &
	pid=$!
	if ! wait_banner "$pid" "$WORK/e.out" 120; then
		b "error what=no-banner jit=$jit"
		kill -9 "$pid" 2>/dev/null || true
		continue
	fi
	# 50 opens, 200 reads and writes, 10 fsyncs of one file.
	bout bench_probe around --pid "$pid" --tag "jit$jit" -- \
		/bin/workload /mnt/ext4/bench 50 200 200 10
	kill -INT "$pid"
	wait_exit "$pid" 60 || true
	b "counted jit=$jit $(counts "$WORK/e.out")"
done
b "done"
