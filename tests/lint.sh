#!/usr/bin/env bash
# Static analysis of ext4dist: cppcheck and clang-tidy (checks in
# .clang-tidy) on src/ and tests/fuzz/.  Prints every finding as
#   FILE:LINE:COL: TOOL CHECK: MESSAGE
# and exits 1 when there is a finding that is neither suppressed inline
# (/* cppcheck-suppress ID */, /* NOLINT(check) */) nor listed in
# tests/lint-baseline.txt, 2 when a tool is missing, else 0.
#
#   tests/lint.sh [--with-tests] [--baseline-candidates]
#     --with-tests            also lint tests/unit/ and tests/test.c
#     --baseline-candidates   print the new findings as baseline lines
#
# The baseline names a finding by file, check and the text of its source
# line (not the line number), so it survives edits elsewhere in the file.
# It is meant for triaged false positives in files whose owners have not
# yet added an inline suppression; a real bug belongs in an issue, not in
# the baseline.
set -u
cd "$(dirname "$0")/.." || exit 2

with_tests=0
candidates=0
for a in "$@"; do
	case $a in
	--with-tests) with_tests=1 ;;
	--baseline-candidates) candidates=1 ;;
	*) echo "usage: $0 [--with-tests] [--baseline-candidates]" >&2; exit 2 ;;
	esac
done

CPPCHECK=${CPPCHECK:-cppcheck}
CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
for t in "$CPPCHECK" "$CLANG_TIDY"; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "lint: $t not found (Debian: apt-get install cppcheck clang-tidy)" >&2
		exit 2
	fi
done

baseline=tests/lint-baseline.txt
out=build/lint
mkdir -p "$out"
rm -f "$out"/*.txt

files=$(find src tests/fuzz -name '*.c' | sort)
[ "$with_tests" = 1 ] && files="$files $(find tests/unit tests/test.c -name '*.c' | sort)"

defs=(-D_GNU_SOURCE '-DEXT4DIST_VERSION="lint"')
# tests/test.h wants the source tree, as the Makefile gives it.
[ "$with_tests" = 1 ] && defs+=("-DTEST_SRCDIR=\"$PWD\"")
# The xz/zstd decoders of module_file.c are compiled in when their headers exist.
for h in lzma:EXT4DIST_WITH_XZ zstd:EXT4DIST_WITH_ZSTD; do
	echo "#include <${h%%:*}.h>" | cc -E -x c - >/dev/null 2>&1 &&
		defs+=("-D${h#*:}")
done
incs=(-Iinclude -Isrc -Itests)

# --- cppcheck: warnings, not style (the kernel style declares at the top).
# shellcheck disable=SC2086
"$CPPCHECK" --quiet --std=c11 --enable=warning,performance,portability \
	--inline-suppr -D__x86_64__ -D__linux__ "${defs[@]}" "${incs[@]}" \
	--suppress=missingIncludeSystem \
	--template='{file}:{line}:{column}: cppcheck {id}: {message}' \
	$files 2>"$out/cppcheck.txt" >/dev/null
cppcheck_rc=$?

# --- clang-tidy, one process per file, in parallel.
export CLANG_TIDY
tidy_one() {
	"$CLANG_TIDY" --quiet "$1" -- -std=c11 "${@:2}" 2>/dev/null |
		sed -n -E 's#^([^: ][^:]*):([0-9]+):([0-9]+): (warning|error): (.*) \[([^]]+)\]$#\1:\2:\3: clang-tidy \6: \5#p'
}
export -f tidy_one
# shellcheck disable=SC2086
printf '%s\n' $files | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} \
	bash -c 'tidy_one "$@"' _ {} "${defs[@]}" "${incs[@]}" >"$out/clang-tidy.txt"
tidy_rc=$?

# Findings of both tools, paths relative to the repository, one per line.
sed -e "s#^$PWD/##" "$out/cppcheck.txt" "$out/clang-tidy.txt" |
	grep -E '^[^:]+:[0-9]+:[0-9]+: ' | sort -u -t: -k1,1 -k2,2n >"$out/all.txt"

# baseline_key FILE LINE CHECK: "FILE<TAB>CHECK<TAB>trimmed source line".
baseline_key() {
	local text
	text=$(sed -n "$2p" "$1" 2>/dev/null | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
	printf '%s\t%s\t%s\n' "$1" "$3" "$text"
}

grep -v -e '^#' -e '^[[:space:]]*$' "$baseline" 2>/dev/null >"$out/baseline.txt" || true
new=0
known=0
: >"$out/used.txt"
while IFS= read -r f; do
	file=${f%%:*}
	rest=${f#*:}
	line=${rest%%:*}
	check=$(echo "$f" | sed -E 's/^[^:]+:[0-9]+:[0-9]+: [a-z-]+ ([^:]+):.*/\1/')
	key=$(baseline_key "$file" "$line" "$check")
	if grep -qxF -- "$key" "$out/baseline.txt"; then
		known=$((known + 1))
		echo "$key" >>"$out/used.txt"
		continue
	fi
	new=$((new + 1))
	echo "$f"
	[ "$candidates" = 1 ] && echo "  baseline: $key"
done <"$out/all.txt"

stale=$(grep -cvxF -f "$out/used.txt" "$out/baseline.txt" 2>/dev/null)
echo "lint: $new new finding(s), $known known (in $baseline), $stale stale baseline line(s)"
[ "$stale" -gt 0 ] && grep -vxF -f "$out/used.txt" "$out/baseline.txt" | sed 's/^/lint: stale: /'
if [ "$cppcheck_rc" -ne 0 ] || [ "$tidy_rc" -gt 1 ]; then
	echo "lint: a tool failed (cppcheck $cppcheck_rc, clang-tidy $tidy_rc)" >&2
	exit 2
fi
if [ "$new" -eq 0 ]; then
	echo "PASS lint: cppcheck and clang-tidy, no new finding"
else
	echo "FAIL lint: $new new finding(s), listed above"
	exit 1
fi
