#!/bin/sh
# fentry/fexit (5.5+ where the kernel has BTF; for ext4 as a module, its
# split BTF, 5.11+).  Sourced by scenarios.sh.
# shellcheck disable=SC3043 # busybox ash has local

MSG_NO_MODULE_BTF="ext4dist: --attach=fentry: ext4 is a module and the kernel has no BTF for modules (no /sys/kernel/btf/ext4: CONFIG_DEBUG_INFO_BTF_MODULES, 5.11+)"
MSG_NO_TRAMPOLINE="ext4dist: cannot attach fexit generic_file_read_iter: this kernel makes no BPF trampolines (error 524, ENOTSUPP; arm64 has them from 6.0)"

# fentry_fds: ext4dist's descriptors while tracing on the fentry path:
# 4 operations, a program and a link for each entry and return, the 5
# maps, stdin/out/err (the module's BTF object is closed once the
# programs hold it).
FENTRY_FDS="link=8 map=5 other=3 prog=8 "

# --- where the kernel's BTF has every traced function: exact counts on
# the fentry path (with -p, under other processes' noise), by default and
# forced, and on the generic read path; the link made the way the kernel
# takes it.  Where it has not (5.10: ext4 is a module, no module BTF), a
# refusal that says so, the automatic order on kprobes with the same
# exact counts, and the generic read path alone (vmlinux's function) on
# fentry after all where the kernel makes trampolines.
scenario_fentry() {
	local ok rc
	ok=$(ext4dist --check | grep -c '^fentry/fexit  *yes' || true)
	if [ "$ok" = 0 ]; then
		rc=0
		ext4dist --attach=fentry > "$WORK/fentry.out" 2> "$WORK/fentry.err" || rc=$?
		expect_refusal fentry-unsupported "$rc" "$WORK/fentry.out" \
			"$WORK/fentry.err" "$MSG_NO_MODULE_BTF"
		traced_run fentry-fallback /mnt/ext4/sf0 $O $R $W $F -v -p @PID@ || return 0
		expect_counts fentry-fallback "$WANT"
		if grep -q '^ext4dist: attach path: fentry' "$ERR"; then
			fail fentry-fallback-path "auto took fentry where --check says no" "$ERR"
		else
			pass fentry-fallback-path
		fi
		# generic_file_read_iter is vmlinux's: fentry where the
		# kernel makes trampolines (x86 5.5+, arm64 6.0+).
		traced_run fentry-generic-vmlinux /mnt/ext4/sf1 $O $R $W $F \
			--attach=fentry --read-path=generic --ops read -v -p @PID@ || return 0
		if [ "$RC" = 1 ] && has_line "$ERR" "$MSG_NO_TRAMPOLINE"; then
			pass fentry-generic-vmlinux-refused
			return 0
		fi
		expect_counts fentry-generic-vmlinux "open=0 read=$R write=0 fsync=0"
		expect_verbose fentry-generic-vmlinux-link "$ERR" \
			"attached fexit generic_file_read_iter via BPF_RAW_TRACEPOINT_OPEN"
		return 0
	fi

	# The unit tests' BTF fixtures are this kernel's own blobs.
	if [ "$KERNEL" = 6.1.0-57-amd64 ]; then
		check fentry-btf-fixtures "$(sha256sum /sys/kernel/btf/vmlinux /sys/kernel/btf/ext4 | cut -c1-64 | tr '\n' ' ')" \
			"88df2a1481426049964b47419038b1bb3322fbe608dbb7e49300451fe5ac194d 0f0e082f08732da0947ee6c3a7344601b901d98e9a5b1ff73bd99daafaa401f6 "
	fi

	FDS=""
	TRACED_HOOK=fd_census
	traced_run fentry-exact /mnt/ext4/sf $O $R $W $F --attach=fentry -v -p @PID@ || {
		TRACED_HOOK=""
		return 0
	}
	TRACED_HOOK=""
	expect_counts fentry-exact "$WANT"
	check fentry-fds "$FDS" "$FENTRY_FDS" "$OUT" "$ERR"
	expect_verbose fentry-link "$ERR" \
		"attached fexit ext4_sync_file via BPF_LINK_CREATE"

	traced_run fentry-default /mnt/ext4/sf2 $O $R $W $F -v -p @PID@ || return 0
	expect_counts fentry-default "$WANT"
	expect_verbose fentry-default-path "$ERR" \
		"attach path: fentry: fentry/fexit: BPF trampolines, the cheapest calls"

	traced_run fentry-generic /mnt/ext4/sf3 $O $R $W $F \
		--attach=fentry --read-path=generic -v -p @PID@ || return 0
	expect_counts fentry-generic "$WANT"
	expect_verbose fentry-generic-link "$ERR" \
		"attached fentry generic_file_read_iter via BPF_LINK_CREATE"
	traced_run fentry-generic-tmpfs /mnt/tmpfs/sf $O $R $W $F \
		--attach=fentry --read-path=generic -p @PID@ || return 0
	expect_counts fentry-generic-tmpfs "$ZERO"
}
