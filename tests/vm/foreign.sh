# shellcheck shell=bash
# What the VM tests of the other architectures share (tests/vm-arm64,
# tests/vm-armhf, tests/vm-cross; sourced by their lib.sh after
# tests/vm/lib.sh; bash): the cross-built guest helpers, the user space
# every guest boots, and one guest booted and judged.  The harness sets:
#   FOREIGN_CC        its cross compiler
#   FOREIGN_TOOLS     where the helpers are built
#   FOREIGN_IS        a function: FILE is a static executable of the arch
#   FOREIGN_ARCH      the make ARCH= that builds the binary (messages)
#   FOREIGN_BIN, FOREIGN_TEST_BIN  ext4dist and its test build

# vm_build_tools: the x86 harness's guest helpers (workload, runas),
# static, with FOREIGN_CC.
vm_build_tools() {
	local src out
	mkdir -p "$FOREIGN_TOOLS"
	for src in "$VM_DIR/workload.c" "$VM_DIR/runas.c"; do
		out=$FOREIGN_TOOLS/$(basename "$src" .c)
		if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
			"$FOREIGN_CC" -static -pthread -O2 -Wall -Wextra \
				-D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -o "$out" "$src" ||
				return 1
		fi
	done
}

# foreign_build_bench_tools SYSROOT: make bench's guest tools, static, with
# FOREIGN_CC into FOREIGN_TOOLS: tests/vm-armhf/floor8.c (the 8 probes
# without BPF) and tests/bench/bench_probe.c, the latter linked with the
# library and libraries of make ARCH=FOREIGN_ARCH SYSROOT=SYSROOT.
foreign_build_bench_tools() {
	local sysroot=$1 lib=$VM_TOP/build-$FOREIGN_ARCH/libext4dist.a link
	mkdir -p "$FOREIGN_TOOLS"
	"$FOREIGN_CC" -static -O2 -Wall -Wextra -o "$FOREIGN_TOOLS/floor8" \
		"$VM_TOP/tests/vm-armhf/floor8.c" || return 1
	# The Makefile's own library directories and libraries.
	link=$(make -s -C "$VM_TOP" --no-print-directory ARCH="$FOREIGN_ARCH" SYSROOT="$sysroot" \
		print-XLDFLAGS print-STATIC_LDLIBS | tr '\n' ' ') || return 1
	# shellcheck disable=SC2086 # the Makefile's list of flags
	"$FOREIGN_CC" -static -O2 -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
		-D_TIME_BITS=64 -Wall -Wextra -I"$VM_TOP/include" -I"$VM_TOP/src" \
		-idirafter "$sysroot/usr/include" \
		-o "$FOREIGN_TOOLS/bench_probe" "$VM_TOP/tests/bench/bench_probe.c" "$lib" \
		$link
}

# foreign_bench_ready NAME QEMU DEB_ARCH: what a bench of NAME (armhf,
# arm64) needs, or the script's end: "SKIP NAME bench: <reason>" and exit
# 0 without QEMU, FOREIGN_CC, the DEB_ARCH sysroot or busybox-static;
# "FAIL ..." and exit 1 when the binary or the guest's tools do not
# build.  Sets sysroot and busybox.
foreign_bench_ready() {
	local name=$1 qemu=$2 arch=$3
	command -v "$qemu" > /dev/null ||
		{ echo "SKIP $name bench: $qemu is not installed"; exit 0; }
	command -v "$FOREIGN_CC" > /dev/null ||
		{ echo "SKIP $name bench: $FOREIGN_CC is not installed (make deps)"; exit 0; }
	sysroot=$("$VM_TOP/tools/sysroot.sh" "$arch") ||
		{ echo "SKIP $name bench: no $arch sysroot (tools/sysroot.sh $arch, see above)"; exit 0; }
	make -s -C "$VM_TOP" ARCH="$FOREIGN_ARCH" SYSROOT="$sysroot" > /dev/null ||
		{ echo "FAIL $name bench: make ARCH=$FOREIGN_ARCH"; exit 1; }
	vm_build_tools && foreign_build_bench_tools "$sysroot" ||
		{ echo "FAIL $name bench: cannot build the guest tools"; exit 1; }
	busybox=$(vm_busybox_of "$arch") ||
		{ echo "SKIP $name bench: no busybox-static:$arch"; exit 0; }
}

# foreign_bench_records NAME WHAT OUT QEMU_RC: the BENCH records of the
# boot whose logs are in OUT, into OUT/records, its error records shown;
# 1 (and the console's tail) when the guest did not say it was done.
foreign_bench_records() {
	local name=$1 what=$2 out=$3 rc=$4
	vm_results "$out/results.log" | sed -n 's/^BENCH //p' > "$out/records"
	if ! grep -q '^done' "$out/records"; then
		echo "FAIL $name bench: $what: the guest did not finish (qemu $rc); console tail:"
		tail -n 20 "$out/console.log" | sed 's/^/    | /'
		return 1
	fi
	grep '^error' "$out/records" | sed "s/^/$name bench: /" || true
}

# foreign_stage KDIR STAGE BUSYBOX HDIR NAME SCENARIOS: in STAGE (made
# anew) the user space of every harness: BUSYBOX (its applet links made
# by /init: this host cannot run it), ext4dist and ext4slower (the name
# make install links), the test build when there is one, the helpers, the
# x86 harness's guest scripts and kcall_compare.awk, then HDIR's /init and NAME-*.sh, the
# scenarios asked for in NAME-scenarios.list, and KDIR's modules.
foreign_stage() {
	local kdir=$1 stage=$2 busybox=$3 hdir=$4 name=$5 scenarios=$6 f
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,guest,lib/modules}
	for f in "$busybox" "$FOREIGN_BIN"; do
		if [ ! -f "$f" ]; then
			vm_log "$f does not exist (make ARCH=$FOREIGN_ARCH)"
			return 1
		fi
		if ! "$FOREIGN_IS" "$f"; then
			vm_log "$f is not a static executable of make ARCH=$FOREIGN_ARCH"
			return 1
		fi
	done
	cp "$busybox" "$stage/bin/busybox"
	cp "$FOREIGN_BIN" "$stage/bin/ext4dist"
	ln -s ext4dist "$stage/bin/ext4slower"
	[ ! -f "$FOREIGN_TEST_BIN" ] || cp "$FOREIGN_TEST_BIN" "$stage/bin/ext4dist-test"
	cp "$FOREIGN_TOOLS/workload" "$FOREIGN_TOOLS/runas" "$stage/bin/"
	chmod 755 "$stage"/bin/*

	cp "$VM_DIR"/guest/*.sh "$VM_TOP/tests/lib/kcall_compare.awk" "$stage/guest/"
	cp "$VM_TOP/tests/bench/guest_records.sh" "$stage/guest/records.sh"
	cp "$hdir/guest/init" "$stage/init"
	cp "$hdir/guest/$name"-*.sh "$stage/guest/"
	echo "$scenarios" > "$stage/guest/$name-scenarios.list"
	chmod 755 "$stage/init" "$stage"/guest/*.sh

	# shellcheck disable=SC2086 # lists of module names
	vm_copy_modules "$kdir" "$stage/lib/modules" early.list $VM_EARLY_MODULES &&
	vm_copy_modules "$kdir" "$stage/lib/modules" ext4.list $VM_EXT4_MODULES
}

# foreign_boot TAG KDIR OUT BUSYBOX MODE [SPEC]: one guest in OUT: its
# initramfs (vm_build_initramfs), images, the boot (vm_boot, with SPEC
# where the harness names kernels by spec), then in MODE check the
# verdict on its lines, each named TAG-<kernel>; else its raw results.
# Returns 1 when anything failed; FOREIGN_SECS: the boot's seconds.
foreign_boot() {
	local tag=$1 kdir=$2 out=$3 busybox=$4 mode=$5 spec=${6:-} kver start
	local rc=0 results
	local -a spec_arg=()
	FOREIGN_SECS=0
	[ -z "$spec" ] || spec_arg=("$spec")
	kver=$(vm_kernel_version "$kdir")
	mkdir -p "$out"
	if ! vm_build_initramfs "$kdir" "$out/initramfs.cpio.gz" "$busybox"; then
		echo "FAIL $tag-$kver initramfs: cannot build the initramfs (see above)"
		return 1
	fi
	if ! vm_make_images "$out/images"; then
		echo "FAIL $tag-$kver images: mkfs failed (see above)"
		return 1
	fi
	echo "vm-${tag%%-*}: booting $kver (${spec:+$spec, }tcg), log in $out/console.log" >&2
	start=$(date +%s)
	vm_boot "$kdir" "$out/initramfs.cpio.gz" "$mode" "$out/console.log" \
		"$out/results.log" "${spec_arg[@]}" "$out/images/ext4.img" \
		"$out/images/ext3.img" "$out/images/ext2.img" \
		"$out/images/bare.img" "$out/images/odd.img" || rc=$?
	FOREIGN_SECS=$(( $(date +%s) - start ))
	echo "vm-${tag%%-*}: ${spec:+$spec }$kver finished in $FOREIGN_SECS s" >&2
	if [ "$mode" != check ]; then
		vm_results "$out/results.log"
		grep -E 'Break instruction|Oops|Kernel panic|BUG:' "$out/console.log" | head -n 5 || true
		return 0
	fi
	results=$(vm_results "$out/results.log" |
		sed -E "s/^(PASS|FAIL|EXT4DIST-VM-START|EXT4DIST-VM-END) /\\1 $tag-/")
	vm_judge "$results" "$rc" "$tag-$kver" "$out/console.log"
}
