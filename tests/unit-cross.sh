#!/usr/bin/env bash
# The unit tests on the other kinds of CPU, without a VM: built with the
# cross compilers (make ARCH=s390x, ARCH=mipsel; static) and run under
# qemu's user-mode emulation (qemu-s390x, qemu-mipsel: package
# qemu-user).  s390x is big-endian, mipsel 32-bit: every reader of
# kernel data meets its own byte order and word size there, and the
# little-endian fixtures as the other order.  Prints the tests' lines
# with the architecture in front ("PASS s390x: ..."), and one SKIP line
# for what cannot run: a missing compiler, sysroot or qemu; the cases
# that need the running kernel (qemu-user passes no bpf() through and
# gives these guests no vDSO).  Exit status 1 when a test failed.
#
#   tests/unit-cross.sh [ARCH...]     default: s390x mipsel
set -u
cd "$(dirname "$0")/.."
. tools/apt.sh

# Cases that need the running kernel, per test: "test_x" all of it,
# "test_x:case" one case.
kernel_only="test_loader_host test_vdso_version:this_process"
status=0
[ $# -gt 0 ] || set -- s390x mipsel
for arch in "$@"; do
	case $arch in
	s390x) cc=s390x-linux-gnu-gcc ;;
	mipsel) cc=mipsel-linux-gnu-gcc ;;
	*) echo "FAIL unit-cross: unknown architecture $arch (s390x, mipsel)"; exit 1 ;;
	esac
	if ! command -v "qemu-$arch" > /dev/null; then
		echo "SKIP unit-$arch: qemu-$arch is not installed (apt-get install qemu-user): NO $arch UNIT TESTS WERE RUN"
		continue
	fi
	if ! command -v "$cc" > /dev/null; then
		echo "SKIP unit-$arch: $cc is not installed (make deps does): NO $arch UNIT TESTS WERE RUN"
		continue
	fi
	if ! sysroot=$(tools/sysroot.sh "$arch" 2> /dev/null); then
		echo "SKIP unit-$arch: no $arch sysroot (tools/sysroot.sh $arch): NO $arch UNIT TESTS WERE RUN"
		continue
	fi
	build=build-$arch-unit
	mkdir -p "$build"
	if ! make -s -j2 ARCH="$arch" SYSROOT="$sysroot" BUILD="$build" \
		LDFLAGS=-static WERROR=1 unit-tests > "$build/make.log" 2>&1; then
		echo "FAIL unit-$arch: make ARCH=$arch unit-tests failed:"
		tail -n 20 "$build/make.log" | sed 's/^/    | /'
		status=1
		continue
	fi
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
		name=$(basename "$t")
		cases=()
		case " $kernel_only " in
		*" $name "*)
			echo "SKIP unit-$arch: $name needs the running kernel's bpf() (qemu-user passes none through)"
			continue ;;
		*" $name:"*)
			skip=$(printf '%s\n' $kernel_only | sed -n "s/^$name://p")
			echo "SKIP unit-$arch: $name's case $skip needs the kernel's vDSO (qemu-user gives $arch none)"
			# Every other case, named.
			mapfile -t cases < <("qemu-$arch" "$t" no-such-case 2>&1 |
				sed -n 's/^  \([a-z0-9_]*\)$/\1/p' | grep -vx "$skip")
			;;
		esac
		"qemu-$arch" "$t" "${cases[@]}" > "$build/$name.log" 2>&1
		rc=$?
		# The PASS and FAIL lines, and the context under a FAIL.
		awk -v a="$arch" '
		/^(PASS|FAIL) / { ctx = $1 == "FAIL"; sub(/ /, " " a ": "); print; next }
		ctx && /^  / { print "  " $0 }' "$build/$name.log"
		if [ "$rc" != 0 ] && ! grep -q '^FAIL ' "$build/$name.log"; then
			echo "FAIL $arch: $name exited $rc without a FAIL line:"
			tail -n 5 "$build/$name.log" | sed 's/^/    | /'
		fi
		[ "$rc" = 0 ] || status=1
	done
done
exit "$status"
