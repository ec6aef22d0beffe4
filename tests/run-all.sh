#!/usr/bin/env bash
# Runs ext4dist's test suites and prints one closing line
# "N passed, N failed, N skipped".  Every suite prints "PASS <name>" /
# "FAIL <name>..." lines, and one "SKIP <name>: <reason>" line for each
# part it could not run (a whole arm suite without its sysroot, a kernel
# that cannot be had): skipped, never passed.  A suite that exits non-zero
# without a FAIL line (a crash) counts as one failure.
#   tests/run-all.sh [SUITE]...   (default: all but unit-cross, in this order)
#     unit      build/tests/test_* (make unit-tests)
#     host      tests/host/test_*.sh on ./ext4dist and build/ext4dist-test
#     asan      the unit tests built with ASan+UBSan into build-asan/
#     valgrind  build/ext4dist-dyn's host paths under valgrind
#     fuzz      a libFuzzer smoke of every target (tests/fuzz/run.sh smoke)
#     lint      cppcheck and clang-tidy (tests/lint.sh), and the names that
#               comments give of code (tests/lint/comment_names.py)
#     budget    one icount boot of Debian's 6.12: start-up against the
#               kernel's floor, peak and steady RSS, BPF instructions per
#               event, binary sizes, held against tests/bench/budget
#               (tests/budget/run.sh)
#     unit-cross  the unit tests built for s390x (big-endian) and mipsel
#               (32-bit), run under qemu-user (tests/unit-cross.sh); named
#               only (make check-unit-cross): two builds and 9300 checks
#               under emulation take 8 minutes on two shared cores, and
#               the unit suite reads the big-endian fixtures on the host
#     vm        the VM scenarios (tests/vm/run.sh; docs/testing.md for its
#               variables)
#     vm-arm64  the arm64 VM scenarios (tests/vm-arm64/run.sh)
#     vm-armhf  the armhf binary on Debian's armmp 6.1 with the JIT on
#               (tests/vm-armhf/run.sh; "run.sh all" for every kernel)
#     vm-cross  the s390x binary on Debian's s390x 6.1 (big-endian) and
#               the mipsel one on its malta 6.1 with the JIT on
#               (tests/vm-cross/run.sh s390x-6.1 mipsel-6.1-jit: under two
#               minutes between them; riscv64 6.12's two more are make
#               check-vm-cross's)
# make check SUITES="..." builds first, then runs these.
set -u
cd "$(dirname "$0")/.."

all_suites=(unit host asan valgrind fuzz lint budget unit-cross vm vm-arm64 vm-armhf vm-cross)
default_suites=(unit host asan valgrind fuzz lint budget vm vm-arm64 vm-armhf vm-cross)
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=("${default_suites[@]}")
# Every name checked before any suite runs: a typo must not cost a VM run.
for s in "${suites[@]}"; do
	case " ${all_suites[*]} " in
	*" $s "*) ;;
	*)
		echo "unknown suite $s (suites: ${all_suites[*]})" >&2
		exit 2
		;;
	esac
done

passed=0
failed=0
skipped=0
log_dir=build/test-logs
mkdir -p "$log_dir"

# run_suite NAME CMD... : runs CMD, echoes its output, counts PASS, FAIL
# and SKIP lines.
run_suite() {
	local name=$1 log="$log_dir/$1.log" rc p f
	shift
	echo "=== $name: $*"
	# Descriptors a caller left open (flock's lock file is fd 3) are not
	# the suites': they check the fd numbers ext4dist gets.
	"$@" >"$log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
	rc=$?
	cat "$log"
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	skipped=$((skipped + $(grep -c '^SKIP ' "$log")))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited with status $rc without reporting a failure"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

unit_tests() {
	local dir=$1 t
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		run_suite "$(basename "$t")${2:-}" "$t"
	done
}

for s in "${suites[@]}"; do
	case $s in
	unit)
		unit_tests build
		;;
	host)
		for t in tests/host/test_*.sh; do
			run_suite "$(basename "$t" .sh)" bash "$t"
		done
		;;
	asan)
		# The same unit tests, built with AddressSanitizer + UBSan.
		if make -s BUILD=build-asan \
			CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
			unit-tests >"$log_dir/asan-build.log" 2>&1; then
			ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
			UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
				unit_tests build-asan " (asan+ubsan)"
		else
			cat "$log_dir/asan-build.log"
			echo "FAIL asan: build failed"
			failed=$((failed + 1))
		fi
		;;
	valgrind)
		run_suite valgrind bash tests/host/valgrind.sh
		;;
	fuzz)
		run_suite fuzz bash tests/fuzz/run.sh smoke
		;;
	lint)
		run_suite lint bash tests/lint.sh
		run_suite lint-comments python3 tests/lint/comment_names.py
		run_suite link-cycles python3 tests/lint/link_cycles.py
		run_suite file-lines bash tests/lint/file_lines.sh
		;;
	budget)
		run_suite budget bash tests/budget/run.sh
		;;
	unit-cross)
		run_suite unit-cross bash tests/unit-cross.sh
		;;
	vm)
		run_suite vm bash tests/vm/run.sh
		;;
	vm-arm64)
		run_suite vm-arm64 bash tests/vm-arm64/run.sh
		;;
	vm-armhf)
		run_suite vm-armhf bash tests/vm-armhf/run.sh
		;;
	vm-cross)
		run_suite vm-cross bash tests/vm-cross/run.sh s390x-6.1 mipsel-6.1-jit
		;;
	esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
