#!/usr/bin/env bash
# bpf/prebuilt: the BPF objects that builds without clang embed (a
# packager's build, make release).  They must be what clang makes of bpf/
# now: the source hashes in bpf/prebuilt/SOURCES must be the tree's
# (whatever the clang: a change to bpf/ without make bpf-prebuilt fails
# here), and with the clang named there, make bpf-prebuilt into a scratch
# folder must give bpf/prebuilt again byte for byte.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

# sources_now DIR: SOURCES's hash lines for the tree in DIR.
sources_now() {
	local inputs
	inputs=$(make -s -C "$1" --no-print-directory print-BPF_INPUTS)
	# shellcheck disable=SC2086 # a list of file names
	(cd "$1" && sha256sum $inputs)
}

expect_eq "bpf/prebuilt: one object per kernel architecture" \
	"$(cd bpf/prebuilt && ls ./*.bpf.o | tr '\n' ' ')" \
	"./ext4dist-arm.bpf.o ./ext4dist-arm64.bpf.o ./ext4dist-mips.bpf.o ./ext4dist-riscv.bpf.o ./ext4dist-s390.bpf.o ./ext4dist-x86.bpf.o "
expect_eq "bpf/prebuilt/SOURCES: the hashes of bpf/ and include/ as they are (else: make bpf-prebuilt)" \
	"$(grep -E '^[0-9a-f]{64}  ' bpf/prebuilt/SOURCES)" "$(sources_now .)"

# The comparison must be able to fail: a copy whose source changed.
mkdir -p "$TMP/copy"
cp -r Makefile bpf include "$TMP/copy/"
echo "/* changed */" >> "$TMP/copy/bpf/ext4dist.bpf.c"
expect_eq "bpf/prebuilt/SOURCES: a changed bpf/ext4dist.bpf.c is seen" \
	"$([ "$(grep -E '^[0-9a-f]{64}  ' bpf/prebuilt/SOURCES)" != "$(sources_now "$TMP/copy")" ] && echo seen)" seen

made_with=$(sed -n 's/^clang: //p' bpf/prebuilt/SOURCES)
clang_now=$(clang --version 2>/dev/null | head -n 1)
if [ -z "$clang_now" ]; then
	fail "bpf/prebuilt: byte for byte" "no clang to rebuild them (make deps installs it)"
elif [ "$clang_now" != "$made_with" ]; then
	echo "SKIP prebuilt bytes: they were made by $made_with, this is $clang_now: only the sources are compared"
else
	mkdir -p "$TMP/prebuilt"
	make -s --no-print-directory BUILD="$TMP/build" BPF_PREBUILT_DIR="$TMP/prebuilt" \
		BPF_TWIN_FIXTURE="$TMP/prebuilt/twin.bpf.o.gz" \
		bpf-prebuilt > "$TMP/make.log" 2>&1
	# The s390 object's little-endian twin, a unit test's fixture.
	if [ -s "$TMP/prebuilt/twin.bpf.o.gz" ] &&
	   cmp -s tests/unit/fixtures/ext4dist-s390-bpfel.bpf.o.gz "$TMP/prebuilt/twin.bpf.o.gz"; then
		pass "tests/unit/fixtures/ext4dist-s390-bpfel.bpf.o.gz as make bpf-prebuilt makes it now"
	else
		fail "tests/unit/fixtures/ext4dist-s390-bpfel.bpf.o.gz as make bpf-prebuilt makes it now" \
			"differs or missing; make bpf-prebuilt and commit it"
	fi
	rm -f "$TMP/prebuilt/twin.bpf.o.gz"
	for f in bpf/prebuilt/*; do
		if [ -s "$TMP/prebuilt/${f##*/}" ] && cmp -s "$f" "$TMP/prebuilt/${f##*/}"; then
			pass "bpf/prebuilt: ${f##*/} as make bpf-prebuilt makes it now"
		else
			fail "bpf/prebuilt: ${f##*/} as make bpf-prebuilt makes it now" \
				"differs or missing; make bpf-prebuilt and commit bpf/prebuilt ($(tail -n 3 "$TMP/make.log" | tr '\n' ' '))"
		fi
	done
	expect_eq "bpf/prebuilt: nothing more made" "$(ls "$TMP/prebuilt" | wc -l)" "$(ls bpf/prebuilt | wc -l)"
fi
