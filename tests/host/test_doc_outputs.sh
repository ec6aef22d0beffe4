#!/usr/bin/env bash
# The output blocks of README.md and docs/*.md against what the
# binary prints now (tests/lib/doc_outputs.awk: every line of a block a
# line of the run, numbers and hex words masked).  Every block is marked
# with the run that prints it, or as not output; the host runs are made
# here, the VM ones by the guest's scenario_doc_outputs
# (tests/vm/guest/docs.sh), whose names are checked to exist.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

docs="README.md $(echo docs/*.md)"
# shellcheck disable=SC2086 # two file names
awk -v list=1 -f tests/lib/doc_outputs.awk $docs > "$TMP/blocks"

expect_eq "doc outputs: every output block says which run prints it" \
	"$(awk '$2 == "-" { print $1 }' "$TMP/blocks" | tr '\n' ' ')" ""
expect_eq "doc outputs: blocks checked at all" \
	"$([ "$(grep -vc ' not-output$' "$TMP/blocks")" -ge 25 ] && echo yes)" yes

# A VM run the docs name must be one the guest knows how to make.
unknown=""
for n in $(awk '$2 ~ /^vm-/ { print $2 }' "$TMP/blocks" | sort -u); do
	grep -Eq "^	([a-z0-9-]+\|)*${n#*/}(\|[a-z0-9-]+)*\)( |\$)" tests/vm/guest/docs.sh ||
		unknown="$unknown $n"
done
expect_eq "doc outputs: every VM run named is made by tests/vm/guest/docs.sh" "${unknown# }" ""

# host_capture NAME FILE: the host runs.
host_capture() {
	case $1 in
	help) "$BIN" -h ;;
	# The name make install links.
	slower-help) ln -sf "$(realpath "$BIN")" "$TMP/ext4slower" && "$TMP/ext4slower" -h ;;
	dump-bpf) "$BIN" --dump-bpf ;;
	dump-bpf-head) "$BIN" --dump-bpf | head -n 17 ;;
	dump-bpf-elf) "$BIN" --dump-bpf=elf ;;
	jited) "$BIN" --dump-bpf=jited --ops fsync --prog 'kprobe/*' ;;
	# docs/learn.md's lessons: the verdicts and reasons, as its grep
	# shows them; one lesson whole.
	lessons) "$BIN" --dump-bpf=refused |
		grep -E '^(lesson |verdict: |the verifier|                       [A-Za-z])' ;;
	lesson-past-end) "$BIN" --dump-bpf=refused --prog past_end ;;
	# fsync through ext4's tracepoints, while fsyncs happen on this
	# host's ext4 (the temporary directory's).
	tracepoint|tracepoint-vv)
		( for i in 1 2 3 4 5 6 7 8 9 10; do
			dd if=/dev/zero of="$TMP/doc-tp" bs=4k count=1 conv=fsync 2> /dev/null
			sleep 0.1
		done ) &
		if [ "$1" = tracepoint ]; then
			"$BIN" --attach=tracepoint --ops fsync 1 1
		else
			"$BIN" -vv --attach=tracepoint --ops fsync 1 1
		fi
		wait ;;
	# The build host's --check: a kernel without kprobes.
	check) "$BIN" --check ;;
	*) return 2 ;;
	esac > "$2" 2>&1
	return 0
}

for n in $(awk '$2 ~ /^host\// { print $2 }' "$TMP/blocks" | sort -u); do
	name=${n#host/}
	if [ "$name" = check ] && [ -e /sys/bus/event_source/devices/kprobe/type ]; then
		echo "SKIP doc outputs: $n: this host has kprobes, the block shows one without"
		continue
	fi
	if ! host_capture "$name" "$TMP/capture"; then
		fail "doc outputs: $n" "no such host run in tests/host/test_doc_outputs.sh"
		continue
	fi
	# shellcheck disable=SC2086 # two file names
	awk -v want="$n" -v capture="$TMP/capture" -v label="doc outputs: $n" \
		-f tests/lib/doc_outputs.awk $docs
done

# checker NAME BASE: the checker's verdict on $TMP/BASE.md's blocks
# marked NAME against the run $TMP/BASE.run, labelled BASE.
checker() {
	$AWK -v want="$1" -v capture="$TMP/$2.run" -v label="$2" \
		-f tests/lib/doc_outputs.awk "$TMP/$2.md"
}

# self_tests: the checker's verdicts on made-up pages, with $AWK.
self_tests() {

# The checker itself, on a made-up page: a masked block passes against a
# run with other fds, and fails with its lines swapped or reworded.
printf '%s\n' 'text' '' '<!-- output vm-x/self -->' '```' \
	'ext4dist: map hist created: fd 7' 'ext4dist: attached probe, perf fd 8' \
	'```' > "$TMP/self.md"
printf '%s\n' 'ext4dist: map hist created: fd 4' \
	'ext4dist: attached probe, perf fd 10' > "$TMP/self.run"
expect_eq "doc outputs checker: masked lines, the whole run" \
	"$(checker vm-x/self self)" \
	"PASS self: $TMP/self.md:4 (2 lines)"
printf '%s\n' 'ext4dist: attached probe, perf fd 10' \
	'ext4dist: map hist created: fd 4' > "$TMP/self.run"
expect_eq "doc outputs checker: lines out of order fail" \
	"$(checker vm-x/self self)" \
	"FAIL self: $TMP/self.md:4: line 1 differs: the block has ext4dist: map hist created: fd 7; the run prints ext4dist: attached probe, perf fd 10"
printf '%s\n' 'ext4dist: map hist made: fd 4' \
	'ext4dist: attached probe, perf fd 10' > "$TMP/self.run"
expect_eq "doc outputs checker: a reworded line fails" \
	"$(checker vm-x/self self)" \
	"FAIL self: $TMP/self.md:4: line 1 differs: the block has ext4dist: map hist created: fd 7; the run prints ext4dist: map hist made: fd 4"
# A block that is not an excerpt is the whole run: a line the run prints
# and the block lacks is drift.
printf '%s\n' 'ext4dist: map hist created: fd 4' 'ext4dist: a new line' \
	'ext4dist: attached probe, perf fd 10' > "$TMP/self.run"
expect_eq "doc outputs checker: a line the run has more fails a whole block" \
	"$(checker vm-x/self self)" \
	"FAIL self: $TMP/self.md:4: line 2 differs: the block has ext4dist: attached probe, perf fd 8; the run prints ext4dist: a new line"
printf '%s\n' 'ext4dist: map hist created: fd 4' \
	'ext4dist: attached probe, perf fd 10' 'ext4dist: the last' > "$TMP/self.run"
expect_eq "doc outputs checker: a last line more fails a whole block" \
	"$(checker vm-x/self self)" \
	"FAIL self: $TMP/self.md:4: the run prints 1 line(s) more, the first: ext4dist: the last"
# ... unless marked as an excerpt, whose lines need only be there.
sed 's/<!-- output vm-x\/self -->/<!-- output vm-x\/self excerpt -->/' "$TMP/self.md" > "$TMP/ex.md"
printf '%s\n' 'noise' 'ext4dist: map hist created: fd 4' 'ext4dist: a new line' \
	'ext4dist: attached probe, perf fd 10' 'more' > "$TMP/ex.run"
expect_eq "doc outputs checker: an excerpt's lines in order" \
	"$(checker vm-x/self ex)" "PASS ex: $TMP/ex.md:4 (2 lines)"
# "..." leaves lines out: an excerpt's mark, never a whole block's.
printf '%s\n' '<!-- output vm-x/dots -->' '```' 'ext4dist: map hist created: fd 7' \
	'...' '```' > "$TMP/dots.md"
printf '%s\n' 'ext4dist: map hist created: fd 4' 'more' > "$TMP/dots.run"
expect_eq "doc outputs checker: ... in a whole block fails" \
	"$(checker vm-x/dots dots)" \
	"FAIL dots: $TMP/dots.md:2: \"...\" leaves lines out: mark the block as an excerpt (<!-- output vm-x/dots excerpt -->)"
# The counts of what ext4dist is made of are compared, not masked; the
# kernel's own numbers (the JIT's bytes, ids, fds) are.
printf '%s\n' '<!-- output vm-x/counts -->' '```' \
	'ext4dist: embedded BPF object: 360056 bytes, 85 programs, 9 maps' \
	'ext4dist: program p loaded: 144 instructions, JIT 651 bytes, kernel id 10' \
	'bpf(BPF_MAP_CREATE, {key_size=4, value_size=552, max_entries=10}) = 6' \
	'```' > "$TMP/counts.md"
printf '%s\n' 'ext4dist: embedded BPF object: 360056 bytes, 85 programs, 9 maps' \
	'ext4dist: program p loaded: 144 instructions, JIT 700 bytes, kernel id 12' \
	'bpf(BPF_MAP_CREATE, {key_size=4, value_size=552, max_entries=10}) = 3' > "$TMP/counts.run"
expect_eq "doc outputs checker: same counts, other JIT bytes, ids and fds" \
	"$(checker vm-x/counts counts)" "PASS counts: $TMP/counts.md:2 (3 lines)"
sed -i 's/85 programs, 9 maps/95 programs, 10 maps/' "$TMP/counts.run"
expect_eq "doc outputs checker: other program and map counts fail" \
	"$(checker vm-x/counts counts)" \
	"FAIL counts: $TMP/counts.md:2: line 1 differs: the block has ext4dist: embedded BPF object: 360056 bytes, 85 programs, 9 maps; the run prints ext4dist: embedded BPF object: 360056 bytes, 95 programs, 10 maps"
sed -i 's/95 programs, 10 maps/85 programs, 9 maps/; s/360056 bytes/369096 bytes/' "$TMP/counts.run"
expect_eq "doc outputs checker: other sizes fail" \
	"$(checker vm-x/counts counts | sed 's/: line 1 differs.*//')" "FAIL counts: $TMP/counts.md:2"
sed -i 's/369096 bytes/360056 bytes/; s/144 instructions/158 instructions/' "$TMP/counts.run"
expect_eq "doc outputs checker: other instruction counts fail" \
	"$(checker vm-x/counts counts | sed 's/: line 2 differs.*//')" "FAIL counts: $TMP/counts.md:2"
sed -i 's/158 instructions/144 instructions/; s/value_size=552/value_size=560/' "$TMP/counts.run"
expect_eq "doc outputs checker: other map sizes fail" \
	"$(checker vm-x/counts counts | sed 's/: line 3 differs.*//')" "FAIL counts: $TMP/counts.md:2"
# A histogram's bucket rows vary in number from run to run: in a whole
# block they are one item, in an excerpt found anywhere; the operations
# around them keep their order.
printf '%s\n' '<!-- output vm-x/hist -->' '```' "operation = 'read'" \
	'         4 -> 7          : 3        |****                |' \
	'         8 -> 15         : 9        |********************|' \
	"operation = 'write'" \
	'         8 -> 15         : 2        |********************|' '```' > "$TMP/hist.md"
printf '%s\n' "operation = 'read'" \
	'         2 -> 3          : 1        |********************|' \
	"operation = 'write'" \
	'         8 -> 15         : 2        |********************|' \
	'        16 -> 31         : 1        |**********          |' > "$TMP/hist.run"
expect_eq "doc outputs checker: histograms of other lengths" \
	"$(checker vm-x/hist hist)" \
	"PASS hist: $TMP/hist.md:2 (5 lines)"
printf '%s\n' "operation = 'write'" \
	'         8 -> 15         : 2        |********************|' \
	"operation = 'read'" '         2 -> 3          : 1        |****|' > "$TMP/hist.run"
expect_eq "doc outputs checker: operations out of order fail" \
	"$(checker vm-x/hist hist)" \
	"FAIL hist: $TMP/hist.md:2: line 1 differs: the block has operation = 'read'; the run prints operation = 'write'"
# exact: unmasked.
printf '%s\n' '<!-- output vm-x/exact exact excerpt -->' '```' 'usage: x [-h]' '```' > "$TMP/exact.md"
printf '%s\n' 'usage: x [-h]' '' 'more help' > "$TMP/exact.run"
expect_eq "doc outputs checker: an exact excerpt" \
	"$(checker vm-x/exact exact)" "PASS exact: $TMP/exact.md:2 (1 lines)"
sed -i 's/-h/-v/' "$TMP/exact.run"
expect_eq "doc outputs checker: an exact excerpt, changed" \
	"$(checker vm-x/exact exact)" \
	"FAIL exact: $TMP/exact.md:2: 1 of 1 lines not printed now, the first: usage: x [-h]"
}

AWK=awk
self_tests
# The VM guest runs the checker with busybox awk: the same verdicts.
if command -v busybox > /dev/null; then
	AWK="busybox awk"
	self_tests | sed 's/^\(PASS\|FAIL\) doc outputs checker:/\1 doc outputs checker (busybox awk):/'
else
	fail "doc outputs checker (busybox awk)" "no busybox here to run the guest's awk (apt-get install busybox)"
fi
