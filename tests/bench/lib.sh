# shellcheck shell=bash
# Sourced by tests/bench/run.sh (make bench) and tests/budget/run.sh (the
# guard of make check), after tests/vm/lib.sh: the guest's measuring
# tools, and the boot of one guest that runs them.
#
# bench_build_tools OUT: OUT/opbench, OUT/bench_floor and OUT/bench_probe
# (static; bench_probe is linked with build/libext4dist.a and
# BENCH_LDLIBS, the Makefile's STATIC_LDLIBS when make runs it), and, with
# clang, OUT/variants.bpf.o.  Needs TOP, BENCH_DIR, CC and CLANG.
bench_build_tools() {
	local out=$1
	mkdir -p "$out"
	rm -f "$out/variants.bpf.o"
	if [ -n "${CLANG:-}" ] && command -v "$CLANG" > /dev/null; then
		"$CLANG" -target bpf -O2 -Wall -Werror -I"$TOP/include" -I"$TOP/bpf" \
			-D__TARGET_ARCH_x86 -idirafter "/usr/include/$("$CC" -print-multiarch)" \
			-c "$BENCH_DIR/variants.bpf.c" -o "$out/variants.bpf.o" || return 1
	fi
	"$CC" -static -O2 -Wall -Wextra -Werror -o "$out/opbench" "$BENCH_DIR/opbench.c" &&
	"$CC" -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-o "$out/bench_floor" "$BENCH_DIR/bench_floor.c" &&
	# shellcheck disable=SC2046,SC2086 # word lists
	"$CC" -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-I"$TOP/include" -I"$TOP/src" -o "$out/bench_probe" \
		"$BENCH_DIR/bench_probe.c" "$TOP/build/libext4dist.a" \
		${BENCH_LDLIBS:-$(pkg-config --static --libs libelf 2>/dev/null || echo -lelf -lz) -llzma -lzstd}
}

# bench_boot NAME MARKER QEMU_ARGS...: one boot of OUT/initramfs.cpio.gz
# with kernel KDIR and disk OUT/images/ext4.img, in mode demo (the
# overlay's /guest/demo.sh), by lib.sh's vm_boot with accelerator
# QEMU_ARGS; console and results in OUT/NAME-console.log and
# OUT/NAME-results.log.  1, with the console's tail on stderr, when the
# results lack the line MARKER.  Needs OUT, KDIR; BENCH_DISKS (an array)
# names images to attach after it (the guest mounts them read-only).
bench_boot() {
	local name=$1 marker=$2 rc=0 start
	shift 2
	echo "booting $(vm_kernel_version "$KDIR") ($name); console in $OUT/$name-console.log" >&2
	start=$(date +%s)
	VM_ACCEL="$*" vm_boot "$KDIR" "$OUT/initramfs.cpio.gz" demo \
		"$OUT/$name-console.log" "$OUT/$name-results.log" \
		"$OUT/images/ext4.img" ${BENCH_DISKS[@]+"${BENCH_DISKS[@]}"} || rc=$?
	echo "$name: the guest finished in $(( $(date +%s) - start )) s (qemu status $rc)" >&2
	if ! vm_results "$OUT/$name-results.log" | grep -qx "$marker"; then
		echo "the $name guest did not finish (qemu status $rc); console tail:" >&2
		tr -d '\r' < "$OUT/$name-console.log" | tail -n 30 | sed 's/^/    | /' >&2
		vm_results "$OUT/$name-results.log" | grep -A3 'error\|^    ' >&2 || true
		return 1
	fi
}

# bench_overlay_boot NAME STAGE MARKER: lib.sh's initramfs of $KDIR with
# $BIN, STAGE's files packed over it (a later file of the concatenation
# wins), booted once under -icount shift=0 (a guest instruction is a ns
# of the guest's clock) until the guest prints MARKER.
bench_overlay_boot() {
	local name=$1 stage=$2 marker=$3
	if ! EXT4DIST_BIN=$BIN vm_build_initramfs "$KDIR" "$OUT/base.cpio.gz" ||
	   ! vm_make_images "$OUT/images"; then
		echo "FAIL $name: cannot build the initramfs or the disk images (see above)"
		return 1
	fi
	(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$OUT/overlay.cpio.gz"
	cat "$OUT/base.cpio.gz" "$OUT/overlay.cpio.gz" > "$OUT/initramfs.cpio.gz"
	if ! VM_TIMEOUT=${EXT4DIST_VM_TIMEOUT:-1200} bench_boot "$name" "$marker" \
		-accel tcg -cpu max -icount shift=0,sleep=on; then
		echo "FAIL $name: the guest did not finish (see above)"
		return 1
	fi
}
