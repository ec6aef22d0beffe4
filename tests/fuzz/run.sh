#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ and runs each for a bounded
# time.  Prints one "PASS fuzz_<target>: N execs" or "FAIL fuzz_<target>:
# <reason>" line per target (tests/run-all.sh counts them) and exits
# non-zero when any target failed: a crash, a leak, a sanitizer report, a
# regression input that still crashes, or a build failure.
#
#   tests/fuzz/run.sh [smoke|full|build] [target...]
#     smoke   FUZZ_SMOKE_SECONDS per target (default 5)
#     full    FUZZ_SECONDS per target (default 60)
#     build   only build the fuzzers
#   targets: elf_obj kallsyms sysmap args btf perf_ring http (default: all)
#
# Needs clang with the libFuzzer runtime (Debian: clang, libclang-rt-14-dev)
# and libelf-dev, zlib1g-dev; liblzma-dev and libzstd-dev are used when
# their headers are there (xz/zstd module decompression in fuzz_sysmap).
# Everything it writes goes to build/fuzz/: binaries, logs, the growing
# corpora (seeded from tests/fuzz/corpus/<target>/, which is only read) and
# crash artifacts (build/fuzz/artifacts/<target>-crash-*, leak-*, ...).
set -u
cd "$(dirname "$0")/../.." || exit 2

mode=${1:-smoke}
[ $# -gt 0 ] && shift
case $mode in
smoke) secs=${FUZZ_SMOKE_SECONDS:-5} ;;
full) secs=${FUZZ_SECONDS:-60} ;;
build) secs=0 ;;
*)
	echo "usage: $0 [smoke|full|build] [elf_obj|kallsyms|sysmap|args|btf|perf_ring|http]..." >&2
	exit 2
	;;
esac
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(elf_obj kallsyms sysmap args btf perf_ring http)

FUZZ_CC=${FUZZ_CC:-clang}
out=build/fuzz
mkdir -p "$out/bin" "$out/artifacts" "$out/corpus" "$out/logs"

# shellcheck disable=SC2054 # the commas belong to -fsanitize=
cflags=(-g -O1 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -Isrc
	'-DEXT4DIST_VERSION="fuzz"'
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-fno-omit-frame-pointer)

has_header() {
	echo "#include <$1>" | "$FUZZ_CC" -E -x c - >/dev/null 2>&1
}

# sources_of TARGET: the project files each fuzzer is linked from.
sources_of() {
	case $1 in
	elf_obj) echo src/loader/obj/elf_obj.c src/loader/obj/obj_store.c src/loader/obj/btf_lines.c \
		src/loader/util/errbuf.c \
		src/loader/util/kcall.c src/loader/util/vlog.c ;;
	kallsyms) echo src/loader/ksym/kallsyms.c ;;
	sysmap) echo src/loader/ksym/sysmap.c src/loader/ksym/kallsyms.c \
		src/loader/ksym/modsym.c src/loader/ksym/module_file.c \
		src/loader/util/errbuf.c ;;
	# args.c picks a file system's table (every src/tool/fs/fs*.c).
	# args.c checks --listen with serve/listen.c; -h prints args_help.c's
	# texts, --attach's default from plan/attach_order.c.
	args) echo src/tool/cli/args.c src/tool/cli/args_help.c src/tool/cli/args_named.c src/tool/cli/argparse.c \
		src/tool/plan/attach_order.c src/tool/fs/fs*.c src/serve/listen.c \
		src/output/ops.c src/loader/util/errbuf.c ;;
	http) echo src/serve/http_request.c ;;
	btf) echo src/loader/btf/btf.c src/loader/btf/btf_names.c \
		src/loader/btf/btf_src.c src/loader/btf/btf_stream.c \
		src/loader/util/errbuf.c ;;
	perf_ring) echo src/loader/events/perf_ring.c ;;
	esac
}

libs_of() {
	case $1 in
	elf_obj) echo -lelf -lz ;;
	sysmap)
		echo -lelf -lz
		has_header lzma.h && echo -DEXT4DIST_WITH_XZ -llzma
		has_header zstd.h && echo -DEXT4DIST_WITH_ZSTD -lzstd
		;;
	esac
}

# build TARGET: writes build/fuzz/bin/fuzz_TARGET, log in build/fuzz/logs/.
build() {
	local t=$1 bin=$out/bin/fuzz_$1
	# shellcheck disable=SC2046
	"$FUZZ_CC" "${cflags[@]}" -o "$bin" "tests/fuzz/fuzz_$t.c" \
		$(sources_of "$t") $(libs_of "$t") \
		>"$out/logs/build-$t.log" 2>&1
}

# The first sanitizer or libFuzzer verdict in a log, on one line.
reason_in() {
	grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: UndefinedBehaviorSanitizer|Assertion|==[0-9]+== ?ERROR' "$1" |
		sed -e 's/^==[0-9]*==//' -e 's/^ *//' | cut -c1-200
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=0
for t in "${targets[@]}"; do
	name=fuzz_$t
	bin=$out/bin/$name
	log=$out/logs/$t.log
	if [ ! -f "tests/fuzz/$name.c" ]; then
		echo "FAIL $name: no such target (tests/fuzz/$name.c)"
		failed=1
		continue
	fi
	if ! build "$t"; then
		tail -n 20 "$out/logs/build-$t.log"
		echo "FAIL $name: build failed (see $out/logs/build-$t.log; needs clang and libclang-rt-14-dev)"
		failed=1
		continue
	fi
	[ "$mode" = build ] && { echo "built $bin"; continue; }

	# Known bugs first: every regression input must now run clean.
	bad=
	for f in tests/fuzz/regressions/"$t"/*; do
		[ -f "$f" ] || continue
		if ! "$bin" -runs=1 "$f" >"$out/logs/$t-regression.log" 2>&1; then
			bad=$f
			break
		fi
	done
	if [ -n "$bad" ]; then
		echo "FAIL $name: regression input $bad still fails: $(reason_in "$out/logs/$t-regression.log") (log $out/logs/$t-regression.log)"
		failed=1
		continue
	fi

	corpus=$out/corpus/$t
	mkdir -p "$corpus"
	opts=(-max_total_time="$secs" -timeout=25 -rss_limit_mb=2560
		-print_final_stats=1 -artifact_prefix="$out/artifacts/$t-")
	[ -f "tests/fuzz/$name.dict" ] && opts+=(-dict="tests/fuzz/$name.dict")
	"$bin" "${opts[@]}" "$corpus" "tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n1)
	reason=$(reason_in "$log")
	if [ "$rc" -ne 0 ] || [ -n "$artifact" ] || grep -q 'runtime error:' "$log"; then
		echo "FAIL $name: ${reason:-exit status $rc}${artifact:+, input $artifact} (log $log)"
		failed=1
	else
		echo "PASS $name: ${execs:-?} execs in ${secs}s, corpus $(find "$corpus" -type f | wc -l) files"
	fi
done
exit "$failed"
