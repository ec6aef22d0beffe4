#!/usr/bin/env bash
# The output blocks of README.md and docs/internals.md against what the
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
	dump-bpf-elf) "$BIN" --dump-bpf=elf ;;
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
	awk -v want="$1" -v capture="$TMP/$2.run" -v label="$2" \
		-f tests/lib/doc_outputs.awk "$TMP/$2.md"
}

# The checker itself, on a made-up page: a masked block passes against a
# run with other numbers, and fails with its lines swapped or reworded.
printf '%s\n' 'text' '' '<!-- output vm-x/self -->' '```' \
	'ext4dist: map hist created: fd 7' 'ext4dist: attached 8 probes' \
	'```' > "$TMP/self.md"
printf '%s\n' 'ext4dist: map hist created: fd 4' 'noise' \
	'ext4dist: attached 10 probes' > "$TMP/self.run"
expect_eq "doc outputs checker: masked lines found in order" \
	"$(checker vm-x/self self)" \
	"PASS self: $TMP/self.md:4 (2 lines)"
printf '%s\n' 'ext4dist: attached 10 probes' \
	'ext4dist: map hist created: fd 4' > "$TMP/self.run"
expect_eq "doc outputs checker: masked lines out of order fail" \
	"$(checker vm-x/self self)" \
	"FAIL self: $TMP/self.md:4: 1 of 2 lines not printed now, the first: ext4dist: attached 8 probes"
printf '%s\n' 'ext4dist: map hist made: fd 4' \
	'ext4dist: attached 10 probes' > "$TMP/self.run"
expect_eq "doc outputs checker: a reworded line fails" \
	"$(checker vm-x/self self)" \
	"FAIL self: $TMP/self.md:4: 1 of 2 lines not printed now, the first: ext4dist: map hist created: fd 7"
# A histogram's bucket lines vary in number from run to run: found
# anywhere, while the operations around them keep their order.
printf '%s\n' '<!-- output vm-x/hist -->' '```' "operation = 'read'" \
	'         4 -> 7          : 3        |****                |' \
	'         8 -> 15         : 9        |********************|' \
	"operation = 'write'" '```' > "$TMP/hist.md"
printf '%s\n' "operation = 'read'" \
	'         2 -> 3          : 1        |********************|' \
	"operation = 'write'" \
	'         8 -> 15         : 2        |********************|' > "$TMP/hist.run"
expect_eq "doc outputs checker: histograms of other lengths" \
	"$(checker vm-x/hist hist)" \
	"PASS hist: $TMP/hist.md:2 (4 lines)"
printf '%s\n' "operation = 'write'" \
	'         8 -> 15         : 2        |********************|' \
	"operation = 'read'" > "$TMP/hist.run"
expect_eq "doc outputs checker: operations out of order fail" \
	"$(checker vm-x/hist hist)" \
	"FAIL hist: $TMP/hist.md:2: 1 of 4 lines not printed now, the first: operation = 'write'"
