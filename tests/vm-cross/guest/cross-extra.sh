# shellcheck shell=dash disable=SC3043 # busybox ash has local
# The vm-cross scenarios, sourced by the runner cross-scenarios.sh builds,
# after the definitions of tests/vm/guest/scenarios.sh (O R W F WANT ZERO,
# traced_run, expect_counts, expect_refusal, expect_verbose).  One static
# ext4dist per architecture; the facts that differ:
#   mipsel   32-bit, little-endian, 4-byte pointers; kprobes refused (their
#            single-step breaks oops this kernel): fsync through the
#            tracepoints alone
#   s390x    64-bit, big-endian (the bpfeb object), no BPF JIT; kprobes
#   riscv64  64-bit, BTF: fentry/fexit; no kprobe on a function's entry

CROSS_MACHINE=$(uname -m)
CROSS_JIT=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo none)

# cross_want_object: --check's "bpf object" row for this kernel.
cross_want_object() {
	case $CROSS_MACHINE in
	mips*) echo "for mips kernels (uname -m $CROSS_MACHINE; 4-byte kernel pointers)" ;;
	s390x) echo "for s390 kernels (uname -m s390x; 8-byte kernel pointers)" ;;
	riscv64) echo "for riscv kernels (uname -m riscv64; 8-byte kernel pointers)" ;;
	esac
}

# msg_riscv_entry FUNC: why riscv64 6.12 refuses a kprobe on FUNC.
msg_riscv_entry() {
	echo "the kernel refuses entry kprobes on traceable functions (EINVAL for $1, which ftrace can trace: a kernel built without CONFIG_KPROBES_ON_FTRACE); fentry/fexit needs none (--attach=fentry, where the kernel has BTF)"
}

MSG_MIPS_KPROBES="on 32-bit MIPS a kprobe's single-step break can oops the kernel under load (\"Break instruction in kernel code\": Debian's 6.1 malta kernel, entry probes and return probes alike)"

# --- --check: the object of the kernel's architecture and byte order,
# the JIT's state, and the verdict (mipsel: the refusal and what can be
# done instead).
scenario_cross_object() {
	local rc=0
	ext4dist --check > "$WORK/xcheck.out" 2> "$WORK/xcheck.err" || rc=$?
	check cross-check-object "$(sed -n 's/^bpf object  *//p' "$WORK/xcheck.out")" \
		"$(cross_want_object)" "$WORK/xcheck.out"
	case $CROSS_MACHINE in
	mips*)
		check cross-check-verdict "$rc $(sed -n 's/^verdict  *//p' "$WORK/xcheck.out")" \
			"1 ext4dist cannot trace here: no safe way to time calls here: this kernel's kprobes are not safe to use ($MSG_MIPS_KPROBES), and there is no fentry/fexit ($(sed -n 's/^fentry\/fexit  *no: //p' "$WORK/xcheck.out")); --attach=tracepoint --ops fsync times fsync alone" \
			"$WORK/xcheck.out" "$WORK/xcheck.err" ;;
	*)
		check cross-check-verdict "$rc $(sed -n 's/^verdict  *//p' "$WORK/xcheck.out")" \
			"0 ext4dist can trace here" "$WORK/xcheck.out" "$WORK/xcheck.err" ;;
	esac
	if [ "$CROSS_JIT" = none ]; then
		check cross-no-jit "$(grep -c '^bpf JIT  *no' "$WORK/xcheck.out")" 1 "$WORK/xcheck.out"
	fi
}

# --- exact counts on each attach path the kernel has; the others refused
# with the reason.
scenario_cross_attach() {
	local mode rc
	case $CROSS_MACHINE in
	s390x)
		for mode in pmu tracefs; do
			traced_run "attach-$mode" "/mnt/ext4/x2-$mode" $O $R $W $F \
				"--attach=$mode" -p @PID@ || continue
			expect_counts "attach-$mode" "$WANT"
		done
		expect_multi_refusal ;;
	riscv64)
		traced_run attach-fentry /mnt/ext4/x2-fentry $O $R $W $F \
			--attach=fentry -p @PID@ || return 0
		expect_counts attach-fentry "$WANT"
		traced_run attach-auto /mnt/ext4/x2-auto $O $R $W $F -v -p @PID@ ||
			return 0
		expect_counts attach-auto "$WANT"
		check attach-auto-path "$(grep -c '^ext4dist: attach path: fentry: ' "$ERR")" 1 "$ERR"
		for mode in pmu tracefs; do
			rc=0
			ext4dist "--attach=$mode" > "$WORK/x-$mode.out" 2> "$WORK/x-$mode.err" || rc=$?
			expect_refusal "attach-$mode-refused" "$rc" "$WORK/x-$mode.out" \
				"$WORK/x-$mode.err" \
				"ext4dist: cannot create kretprobe ext4_file_read_iter: $(msg_riscv_entry ext4_file_read_iter)"
		done
		check attach-refused-nothing-left "$(our_events)" "" ;;
	mips*)
		for mode in tracefs pmu; do
			rc=0
			ext4dist "--attach=$mode" > "$WORK/x-$mode.out" 2> "$WORK/x-$mode.err" || rc=$?
			expect_refusal "attach-$mode-refused" "$rc" "$WORK/x-$mode.out" \
				"$WORK/x-$mode.err" \
				"ext4dist: --attach=$mode makes kprobes, and this kernel's are not safe to use: $MSG_MIPS_KPROBES; --attach=tracepoint --ops fsync times fsync without them"
		done
		check attach-refused-nothing-left "$(our_events)" ""
		scenario_tracepoint ;;
	esac
}

# --- SIGINT and SIGTERM, kill -9's leftover and its clean-up by the next
# run (tracefs), where the kernel has kprobes; the fentry path's signals
# on riscv64.
scenario_cross_signals() {
	local sig
	case $CROSS_MACHINE in
	s390x) scenario_signals ;;
	riscv64)
		for sig in INT TERM; do
			SIGNAL=$sig
			traced_run "sig-$sig-fentry" "/mnt/ext4/x4-$sig" $O $R $W $F \
				-p @PID@ || { SIGNAL=INT; continue; }
			SIGNAL=INT
			expect_counts "sig-$sig-fentry" "$WANT"
		done ;;
	*) out "cross: no signal scenario on $CROSS_MACHINE (no attach path but fsync's tracepoints)" ;;
	esac
}

# --- the generic read path: f_op found at the offset of struct file the
# host read from the kernel's own ext4.ko (fops-offset: its section and
# offset), through the arguments in this architecture's pt_regs; on
# riscv64 (no kprobe for the discovery) the offset the kernel's BTF says
# (16 on 6.12), the fentry path's arguments.
scenario_cross_generic_read() {
	local kodir=/lib/modules/$KERNEL/kernel/fs/ext4 want_off
	case $CROSS_MACHINE in
	mips*) out "cross: no generic read on $CROSS_MACHINE (it needs kprobes)"; return 0 ;;
	riscv64)
		traced_run generic-read-exact /mnt/ext4/xa $O $R $W $F \
			--read-path=generic -v -p @PID@ || return 0
		expect_counts generic-read-exact "$WANT"
		expect_verbose generic-fop-refused "$ERR" \
			"f_op discovery: cannot create kprobe ext4_release_dir: $(msg_riscv_entry ext4_release_dir); from the kernel's BTF instead"
		expect_verbose generic-fop-offset "$ERR" \
			"f_op at offset 16 of struct file, from the kernel's BTF (/sys/kernel/btf/vmlinux)"
		return 0 ;;
	esac
	want_off=40
	mkdir -p "$kodir"
	cp /lib/modules/ext4.ko "$kodir/ext4.ko" 2>/dev/null || true
	traced_run generic-read-exact /mnt/ext4/xa $O $R $W $F \
		--read-path=generic -v -p @PID@ || { rm -rf "/lib/modules/$KERNEL"; return 0; }
	rm -rf "/lib/modules/$KERNEL"
	expect_counts generic-read-exact "$WANT"
	expect_verbose generic-fop-offset "$ERR" \
		"f_op discovered at offset $want_off of struct file"
}

# --- fentry/fexit: its own scenarios, where the kernel's BTF allows.
scenario_cross_fentry() {
	case $CROSS_MACHINE in
	riscv64) scenario_fentry ;;
	*) out "cross: no fentry on $CROSS_MACHINE (no BTF)" ;;
	esac
}
