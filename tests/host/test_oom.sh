#!/usr/bin/env bash
# Out of memory at every allocation in turn (tests/lib/failmalloc.c
# preloaded into build/ext4dist-dyn: the Nth allocation fails, and every
# one after it): no crash, and every failure says what it could not do
# ("ext4dist: " and nothing else was the dumps' answer); where a mode
# goes on, nothing it prints may blame the kernel for what memory did.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh
BIN=build/ext4dist-dyn

[ -x "$BIN" ] || { fail oom "$BIN not built (make $BIN)"; exit 1; }
if ! cc -O1 -shared -fPIC -o "$TMP/failmalloc.so" tests/lib/failmalloc.c; then
	fail oom "cannot build tests/lib/failmalloc.c"
	exit 1
fi

# allocations ARGS...: how many a run with ARGS makes.
allocations() {
	FAILMALLOC_COUNT=$TMP/count LD_PRELOAD=$TMP/failmalloc.so \
		"$BIN" "$@" > /dev/null 2>&1 < /dev/null
	cat "$TMP/count"
}

# sweep NAME ARGS...: the run failing at each allocation; its stderr
# lines when it exited 1 into $TMP/NAME.lines, problems into
# $TMP/NAME.bad.
sweep() {
	local name=$1 n total rc
	shift
	total=$(allocations "$@")
	: > "$TMP/$name.lines"
	: > "$TMP/$name.bad"
	for n in $(seq 1 "$total"); do
		FAILMALLOC_NTH=$n LD_PRELOAD=$TMP/failmalloc.so \
			"$BIN" "$@" > "$TMP/o" 2> "$TMP/e" < /dev/null
		rc=$?
		case $rc in
		0) ;;
		1) cat "$TMP/e" >> "$TMP/$name.lines"
		   [ "$(wc -l < "$TMP/e")" = 1 ] ||
			echo "allocation $n: $(wc -l < "$TMP/e") lines on stderr" >> "$TMP/$name.bad" ;;
		*) echo "allocation $n: exit status $rc" >> "$TMP/$name.bad" ;;
		esac
	done
	echo "$name: $total allocations" > "$TMP/$name.total"
}

# The dumps' messages, exactly (prefixes for those naming a part).
dump_message_ok() {
	case $1 in
	"ext4dist: out of memory" | \
	"ext4dist: out of memory: zlib cannot inflate the embedded BPF object" | \
	"ext4dist: BPF object: libelf cannot read it: out of memory" | \
	"ext4dist: --dump-bpf=elf: libelf: out of memory" | \
	"ext4dist: out of memory reading the BPF object: its source lines (.BTF.ext)" | \
	"ext4dist: out of memory reading the BPF object: the program table, at "?* | \
	"ext4dist: out of memory reading the BPF object: the instructions of "?* | \
	"ext4dist: out of memory reading the BPF object: the map table, at "?* | \
	"ext4dist: out of memory reading the BPF object: the relocations of "?*) return 0 ;;
	esac
	return 1
}

for mode in text elf; do
	sweep "dump-$mode" --dump-bpf="$mode"
	expect_eq "--dump-bpf=$mode out of memory: no crash, one line" \
		"$(head -n 3 "$TMP/dump-$mode.bad")" ""
	bad=$(sort -u "$TMP/dump-$mode.lines" | while IFS= read -r l; do
		dump_message_ok "$l" || echo "$l"
	done)
	expect_eq "--dump-bpf=$mode out of memory: every failure says what" \
		"$bad" ""
	# The first allocation is the command line's; then zlib's for the
	# embedded object, which libelf then reads where it was inflated
	# (the instructions stay there: no allocation of theirs to fail).
	for want in "ext4dist: out of memory" \
		"ext4dist: out of memory: zlib cannot inflate the embedded BPF object" \
		"ext4dist: out of memory reading the BPF object: the map table, at start"; do
		expect_eq "--dump-bpf=$mode out of memory: '$want' among them" \
			"$(grep -cxF "$want" "$TMP/dump-$mode.lines" | sed 's/^[1-9][0-9]*$/yes/')" yes
	done
done

# Modes that go on after a failed allocation, or stop with the kernel's
# verdict: every line that differs from a run with memory names memory
# (or says the start-up stopped before it; fentry was planned when the
# attach ran out).  Every 3rd allocation (--dump-bpf=xlated: 10th), to
# keep the time.
for args in "--dump-bpf=refused" "--dump-bpf=xlated" "--check" "-p 1"; do
	# shellcheck disable=SC2086 # args: words
	run_both normal "$BIN" $args
	# shellcheck disable=SC2086
	total=$(allocations $args)
	step=3
	[ "$args" != --dump-bpf=xlated ] || step=10
	blamed=""
	for n in $(seq 1 "$step" "$total"); do
		# shellcheck disable=SC2086
		run_both o env FAILMALLOC_NTH="$n" LD_PRELOAD="$TMP/failmalloc.so" "$BIN" $args
		[ "$RC" -lt 2 ] || { blamed="$blamed allocation $n: exit status $RC;"; continue; }
		l=$(new_lines "$TMP/normal" "$TMP/o" | grep -vi -e memory \
			-e '^[^ ].* not asked (start-up stopped before)$' \
			-e '^fentry/fexit  *yes ' -e '^attach path  *fentry$' \
			-e '^  *fentry/fexit (no kprobes here): BPF trampolines' | head -n 1)
		[ -z "$l" ] || blamed="$blamed allocation $n: '$l';"
	done
	expect_eq "$args out of memory at each of $total allocations (every $step): nothing blamed on the kernel" \
		"$(echo "${blamed# }" | cut -d';' -f1-3)" ""
done
