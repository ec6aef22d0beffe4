# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; MISSES_* and WORKLOAD_OPTS are read by legacy.sh and lib.sh
# The documentation's output blocks that come from a VM, held against what
# the binary prints now on this kernel: README.md and docs/*.md (in
# /guest/docs, as tests/vm/lib.sh copies them) mark each block with the
# run that prints it, "<!-- output vm-6.1/check -->"; this file makes the
# runs of this kernel's series and doc_outputs.awk judges the blocks
# (numbers and hex words masked: fds, PIDs, addresses, counts).  A failure
# shows the run's output: the block to paste, masked parts aside.  Sourced
# by scenarios.sh; needs /mnt/ext4 and legacy.sh's misses_run.

# doc_fresh: as a Debian machine after boot, where the docs' runs were made:
# the ext4 module's file where Debian installs it, tracefs not mounted.
# doc_fresh_end undoes it.
doc_fresh() {
	while grep -q ' tracefs ' /proc/mounts; do umount "$TRACEFS" || break; done
	ext4_ko_install
}
doc_fresh_end() {
	ext4_ko_remove
	ensure_tracefs
}

# doc_run NAME FILE: the run NAME of this series, its stdout and stderr
# in FILE; 1 if the run failed to happen (already reported).  The names
# are the cases below, one per line, as tests/host/test_doc_outputs.sh
# looks them up.
doc_run() {
	local rc
	case $1 in
	check)
		doc_fresh
		ext4dist --check > "$2" 2>&1 || true
		doc_fresh_end ;;
	# docs/internals.md's walkthrough: one interval on the PMU path, the
	# module's file installed as Debian installs it (kprobes by address).
	pmu-vv)
		doc_fresh
		( sleep 0.4; dd if=/dev/zero of=/mnt/ext4/doc-vv bs=4k count=1 conv=fsync 2>/dev/null ) &
		ext4dist -vv --attach=pmu --ops read,fsync 1 1 > "$2" 2>&1 || true
		wait
		doc_fresh_end ;;
	# -v of a run stopped with Ctrl-C (as docs/guide.md's excerpts).
	v)
		doc_fresh
		traced_run doc-v /mnt/ext4/doc-v 1 2 2 1 -v || { doc_fresh_end; return 1; }
		doc_fresh_end
		cat "$OUT" "$ERR" > "$2" ;;
	v-fsync)
		doc_fresh
		traced_run doc-v-fsync /mnt/ext4/doc-vf 1 0 1 1 -v --attach=tracefs --ops fsync || { doc_fresh_end; return 1; }
		doc_fresh_end
		cat "$ERR" > "$2" ;;
	# Every operation timed, with -e's line after each histogram, and
	# without it.
	demo)
		traced_run doc-demo /mnt/ext4/doc-demo 2 8 8 2 -e || return 1
		cat "$OUT" "$ERR" > "$2" ;;
	demo-plain)
		traced_run doc-demo-plain /mnt/ext4/doc-demo 2 8 8 2 || return 1
		cat "$OUT" "$ERR" > "$2" ;;
	# The asynchronous workload: 4 buffered writes, 32 Linux AIO direct
	# writes, 4 reads into a bad buffer.
	aio|aio-json|aio-prom)
		WORKLOAD_OPTS="-a 32 -E 4"
		case $1 in
		aio) traced_run doc-aio /mnt/ext4/doc-aio 1 0 4 1 ;;
		# stdout alone: the JSON line (the banner goes to stderr).
		aio-json) traced_run doc-aio /mnt/ext4/doc-aio 1 0 4 1 -j ;;
		aio-prom) traced_run doc-aio /mnt/ext4/doc-aio 1 0 4 1 --prometheus "$WORK/doc-aio.prom" ;;
		esac || { WORKLOAD_OPTS=""; return 1; }
		WORKLOAD_OPTS=""
		case $1 in
		aio-prom) cat "$WORK/doc-aio.prom" > "$2" ;;
		aio-json) cat "$OUT" > "$2" ;;
		*) cat "$OUT" "$ERR" > "$2" ;;
		esac ;;
	# 32 fsyncs at once on the kprobe PMU's return probes.
	fsync32-pmu)
		MISSES_NPROC=32 MISSES_NF=1 MISSES_WANT=some
		misses_run doc-fsync32-pmu \
			"kretprobe instances exhausted: the kprobe PMU cannot raise them; --attach=tracefs --maxactive N can" \
			--attach=pmu
		MISSES_NPROC=8 MISSES_NF=3 MISSES_WANT=some
		cat "$OUT" "$ERR" > "$2" ;;
	# 8 processes of 3 fsyncs on one return probe instance.
	maxactive1)
		MISSES_COUNT=5 misses_run doc-maxactive1 \
			"kretprobe instances exhausted: raise --maxactive" \
			--attach=tracefs --maxactive 1
		cat "$OUT" "$ERR" > "$2" ;;
	# ext4slower 1: the fsyncs after 64 KiB writes are slow under
	# emulation.
	slower)
		SLOW_NOISE=0 slow_run doc-slower /mnt/ext4/slow1 1 4 8 2 1 || return 1
		SLOW_NOISE=""
		cat "$OUT" "$ERR" > "$2" ;;
	# docs/exporter.md's two file systems in one run, and its
	# scrape of that run (fleet.sh).
	two-fs|exporter-scrape)
		fleet_doc_run "$1" "$2" || return 1 ;;
	# 4.9 as the suite emulates it (oldkernels.sh): --check, and -v
	# of a run stopped with Ctrl-C.
	check-as-49|v-as-49)
		doc_fresh
		as_4_9_doc "${1%-as-49}" "$2"
		rc=$?
		doc_fresh_end
		return $rc ;;
	# docs/learn.md's experiments (experiments.sh): the output of
	# scenario_experiments' run, or a run of their own.
	exp-pretend|exp-kprobe-events|exp-dump-maps|exp-kprobe-profile|exp-kprobe-profile-warnings|exp-trampoline)
		if [ -s "$WORK/$1.txt" ]; then
			cp "$WORK/$1.txt" "$2"
		else
			"$(echo "${1%-warnings}" | tr - _)" "$2"
			[ "$1" = "${1%-warnings}" ] || cp "$WORK/$1.txt" "$2"
		fi ;;
	# The lessons' verdicts and reasons (docs/learn.md), as the page's
	# grep shows them.
	lessons)
		[ -s "$WORK/exp-lessons.txt" ] || ext4dist --dump-bpf=refused > "$WORK/exp-lessons.txt" 2>&1
		grep -E '^(lesson |verdict: |the verifier|                       [A-Za-z])' \
			"$WORK/exp-lessons.txt" > "$2" ;;
	# One lesson whole: its listing, the verdict and the log to read.
	lesson-past-end)
		ext4dist --dump-bpf=refused --prog past_end > "$2" 2>&1 ;;
	*)
		return 2 ;;
	esac
	return 0
}

scenario_doc_outputs() {
	local series names n f rc verdict name
	if [ ! -f /guest/doc_outputs.awk ] || [ ! -f /guest/docs/README.md ]; then
		out "SKIP $KERNEL doc-outputs: the documentation is not in this guest (the x86_64 VM suite checks it)"
		return 0
	fi
	series=$(uname -r | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	names=$(awk -v list=1 -f /guest/doc_outputs.awk /guest/docs/*.md |
		awk -v s="vm-$series/" 'index($2, s) == 1 { print $2 }' | sort -u)
	if [ -z "$names" ]; then
		out "SKIP $KERNEL doc-outputs: no block of README.md or docs/*.md comes from a $series kernel"
		return 0
	fi
	for n in $names; do
		f=$WORK/doc-$(echo "$n" | tr / _).txt
		rc=0
		doc_run "${n#*/}" "$f" || rc=$?
		case $rc in
		1) continue ;;
		2) fail "doc-$n" "no run '${n#*/}' in tests/vm/guest/docs.sh"; continue ;;
		esac
		awk -v want="$n" -v capture="$f" -v label="doc-$n" -v show=1 -f /guest/doc_outputs.awk \
			/guest/docs/*.md > "$WORK/doc.verdict"
		grep '^  not printed now: ' "$WORK/doc.verdict" > "$WORK/doc.missing" || true
		while IFS= read -r verdict; do
			verdict=$(echo "$verdict" | sed 's|/guest/docs/||g')
			name=${verdict#* }
			name=${name%%: *}-$(echo "${verdict#*: }" | sed 's/[ (].*//; s/:$//')
			case $verdict in
			"PASS "*) pass "$name" ;;
			"FAIL "*) fail "$name" "${verdict#*: }" "$WORK/doc.missing" "$f" ;;
			esac
		done < "$WORK/doc.verdict"
	done
}
