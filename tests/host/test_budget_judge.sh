#!/usr/bin/env bash
# The budget guard's judge (tests/budget/judge.awk) on records made up
# here, no VM: a figure at its limit passes, one over it fails with the
# figure, the limit and the why, one the boot did not measure fails, one
# the machine could not measure is skipped with its reason; start-up and
# exit are ratios to the floor (exit from the least of the runs), the peak
# the largest of the high-water marks and the sampled page-table walk,
# per event the programs that ran for every pread alone.  And the
# committed budget's every figure is one the judge knows how to make.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

cat > "$TMP/budget" <<'EOF'
# comment lines and blank ones are no figures

binary.x86_64        1000     bytes  size why
binary.armhf         1000     bytes  armhf why
startup.pmu          1.10     x      start-up why
exit.pmu             2.00     x      exit why
peak_rss.default     1536     kB     peak why
peak_rss.check       1536     kB     check why
steady_rss.default   1400     kB     steady why
insns_per_event.pmu  400      insns  per-event why
pread_ratio.pmu      1.250    x      ratio why
startup.fentry       2.00     x      never measured
EOF
cat > "$TMP/records" <<'EOF'
binary arch=x86_64 bytes=1000
skip binary.armhf no arm-linux-gnueabihf-gcc
env kernel=6.12 paths=pmu default=pmu
startup mode=floor-pmu banner_ms=80.00 exit_ms=230.00 exit_ms_min=200.00 rss_kb=700 maxrss_kb=600
startup mode=pmu banner_ms=88.80 exit_ms=500.00 exit_ms_min=400.00 rss_kb=1500 maxrss_kb=1530
startup mode=default banner_ms=40.00 exit_ms=170.00 exit_ms_min=170.00 rss_kb=1500 maxrss_kb=1520
startup_run mode=default run=0 smaps_rss_kb=1400
startup_run mode=default run=1 smaps_rss_kb=1404
maxrss mode=check maxrss_kb=1500 sampled_peak_kb=1540 status=0
op mode=untraced name=pread_4k ns=1000.0 iters=2000
op mode=pmu name=pread_4k ns=1250.0 iters=2000
prog mode=pmu run_cnt=2000 ns_per_run=150.0
prog mode=pmu run_cnt=2000 ns_per_run=250.0
prog mode=pmu run_cnt=3 ns_per_run=9000.0
EOF
out=$(awk -f tests/budget/judge.awk -v series=6.12 "$TMP/budget" "$TMP/records")
verdicts=$(echo "$out" | grep -E '^(PASS|FAIL|SKIP) budget ')
# The verdicts are this test's own output too: prefixed, not counted.
expect_eq "budget judge: one verdict per figure, in the budget's order" \
	"$(echo "$verdicts" | sed 's/^/    | /')" \
"    | PASS budget binary.x86_64: 1000 bytes (at most 1000)
    | SKIP budget binary.armhf: no arm-linux-gnueabihf-gcc
    | FAIL budget startup.pmu: 1.110 x, over its budget of 1.10 x (start-up why)
    | PASS budget exit.pmu: 2.000 x (at most 2.00)
    | PASS budget peak_rss.default: 1520 kB (at most 1536)
    | FAIL budget peak_rss.check: 1540 kB, over its budget of 1536 kB (check why)
    | FAIL budget steady_rss.default: 1404 kB, over its budget of 1400 kB (steady why)
    | PASS budget insns_per_event.pmu: 400 insns (at most 400)
    | PASS budget pread_ratio.pmu: 1.250 x (at most 1.250)
    | FAIL budget startup.fentry: not measured (6.12 budget 2.00 x: never measured)"
expect_eq "budget judge: the boot's line" "$(echo "$out" | head -n 1)" \
	"budget: 6.12, paths pmu, default pmu; every figure measured:"

# Every figure the committed budget names, the judge can make: a name
# it does not know would fail every boot as "not measured".
unknown=$(awk '!/^[ \t]*(#|$)/ { split($1, a, "."); print a[1] }' tests/bench/budget |
	sort -u | grep -vxE 'binary|startup|exit|peak_rss|steady_rss|insns_per_event|pread_ratio' | tr '\n' ' ')
expect_eq "budget: every figure of tests/bench/budget is one judge.awk makes" "$unknown" ""
expect_eq "budget: every line of tests/bench/budget has a limit, a unit and a why" \
	"$(awk '!/^[ \t]*(#|$)/ && (NF < 4 || $2 !~ /^[0-9.]+$/)' tests/bench/budget)" ""
