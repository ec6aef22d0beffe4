#!/bin/bash
# Several ext4dist binaries side by side in one boot of one kernel under
# qemu -icount shift=0 (guest instructions: deterministic, immune to the
# host's load), for a change's before and after: start-up against the
# kernel's floor and BPF instructions per traced pread, each binary on
# each attach path, in rounds that interleave the binaries.  A
# developer's tool, not a test: make bench is the full report, the guard
# of make check (tests/budget) holds the figures.
#
#   tests/ab/run.sh SERIES NAME=BINARY...
#   e.g. tests/ab/run.sh 6.1 main=/tmp/main/ext4dist new=./ext4dist
#
# Environment: AB_MODES (default "default pmu tracefs": "default" is the
# binary's own choice, the rest --attach=), AB_RUNS (start-up runs per
# binary, mode and round; 3), AB_ROUNDS (2), AB_OPS_N (preads per binary
# and path; 0 skips the per-event part).  Prints one line per figure
# ("own": the process's own instructions to the banner, schedstat's run
# time, without idle time and other tasks' work); the records are in
# build/ab/ab-results.log.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/ab
# shellcheck source-path=SCRIPTDIR source=../bench/measure.sh
. "$TOP/tests/bench/measure.sh"

if [ $# -lt 2 ]; then
	sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
series=$1
shift
mkdir -p "$OUT"
names=""
BIN=
for nb in "$@"; do
	name=${nb%%=*}
	bin=${nb#*=}
	case $name in
	'' | *[!A-Za-z0-9_-]* | "$nb") echo "ab: '$nb' is not NAME=BINARY (NAME of letters, digits, - and _)" >&2; exit 2 ;;
	esac
	[ -x "$bin" ] || { echo "ab: $bin: not an executable" >&2; exit 2; }
	names="$names $name"
	BIN=${BIN:-$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")}
done
[ -f "$TOP/build/libext4dist.a" ] || { echo "ab: build/libext4dist.a not built (make)" >&2; exit 1; }
if ! bench_build_tools "$OUT" > "$OUT/tools.log" 2>&1 || ! vm_build_tools; then
	cat "$OUT/tools.log" >&2
	echo "ab: cannot build the guest's tools" >&2
	exit 1
fi
# shellcheck disable=SC2034 # bench_overlay_boot boots KDIR
KDIR=$(vm_fetch_kernel "$series") || { echo "ab: cannot get $(vm_series_source "$series")" >&2; exit 1; }
measure_stage "$TOP/tests/ab/guest.sh" ab
for nb in "$@"; do
	mkdir -p "$stage/ab/${nb%%=*}"
	cp "${nb#*=}" "$stage/ab/${nb%%=*}/ext4dist"
done
printf 'NAMES="%s"\nMODES="%s"\nRUNS=%s\nROUNDS=%s\nOPS_N=%s\n' "${names# }" \
	"${AB_MODES:-default pmu tracefs}" "${AB_RUNS:-3}" "${AB_ROUNDS:-2}" \
	"${AB_OPS_N:-2000}" > "$stage/ab/params"
chmod 755 "$stage"/ab/*/ext4dist
bench_overlay_boot ab "$stage" "AB done" || exit 1
# Per mode: the median of each round's runs, their mean against the
# floors' means; per path: the read programs' instructions per run.
vm_results "$OUT/ab-results.log" | sed -n 's/^AB //p' | awk '
function field(k,   i, kv) {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] }
	return ""
}
/^startup / {
	m = field("mode"); b = field("banner_ms")
	if (!(m in n)) order[++modes] = m
	ms[m] = ms[m] sprintf(" %.2f", b); sum[m] += b; n[m]++
	own[m] += field("own_ms")
	next
}
/^prog / && field("name") ~ /_read$/ { per[field("mode")] += field("ns_per_run"); next }
/^error/ || /^env/ { print }
END {
	fp = n["floor-pmu"] ? sum["floor-pmu"] / n["floor-pmu"] : 0
	ft = n["floor-tracefs"] ? sum["floor-tracefs"] / n["floor-tracefs"] : 0
	for (k = 1; k <= modes; k++) {
		m = order[k]; a = sum[m] / n[m]
		printf "startup %-24s %7.2f M (rounds:%s)", m, a, ms[m]
		if (fp && ft && m !~ /^floor/)
			printf "  %.3fx floor-pmu  %.3fx floor-tracefs", a / fp, a / ft
		printf "  own %.2f M\n", own[m] / n[m]
	}
	for (m in per) printf "per-pread %-22s %.1f insns\n", m, per[m]
}'
