# shellcheck shell=dash
# armhf scenarios, sourced by the runner armhf-scenarios.sh builds, after
# the definitions of tests/vm/guest/scenarios.sh (O R W F WANT ZERO,
# traced_run, expect_counts, has_line, expect_verbose, bpf_prog_syms).
# The same static 32-bit ARM ext4dist runs on a 32-bit ARM kernel
# (uname -m armv7l) and on a 64-bit one (aarch64): the facts differ.

ARMHF_MACHINE=$(uname -m)
ARMHF_JIT=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo 0)

# The fsyncs of tests/vm/guest/legacy.sh's misses_run take longer in an
# emulated ARM guest on a loaded host than its 3 intervals.
MISSES_COUNT=10

# armhf_kernel32: true on a 32-bit ARM kernel.
armhf_kernel32() { [ "$ARMHF_MACHINE" != aarch64 ]; }

# --- --check and --dump-bpf name the object of the kernel's architecture
# and the JIT state; the verdict is yes.
scenario_armhf_object() {
	local rc=0 want jit
	if armhf_kernel32; then
		want="for arm kernels (uname -m $ARMHF_MACHINE; 4-byte kernel pointers)"
	else
		want="for arm64 kernels (uname -m $ARMHF_MACHINE; 8-byte kernel pointers), not this binary's own"
	fi
	ext4dist --check > "$WORK/acheck.out" 2> "$WORK/acheck.err" || rc=$?
	check armhf-check-verdict "$rc $(grep '^verdict' "$WORK/acheck.out" | cut -c24-)" \
		"0 ext4dist can trace here" "$WORK/acheck.out" "$WORK/acheck.err"
	check armhf-check-object "$(grep '^bpf object' "$WORK/acheck.out" | cut -c24-)" \
		"$want" "$WORK/acheck.out"
	if [ "$ARMHF_JIT" = 0 ]; then
		jit="off: programs are interpreted (net.core.bpf_jit_enable=0)"
	else
		jit="on (net.core.bpf_jit_enable=$ARMHF_JIT): the programs above were compiled by it"
	fi
	check armhf-check-jit "$(grep '^bpf JIT' "$WORK/acheck.out" | cut -c24-)" \
		"$jit" "$WORK/acheck.out"
	ext4dist --dump-bpf > "$WORK/adump.out" 2>&1 || true
	want=arm
	armhf_kernel32 || want=arm64
	check armhf-dump-object "$(grep '^for kernels:' "$WORK/adump.out")" \
		"for kernels: $want" "$WORK/adump.out"
}

# --- the generic read path: generic_file_read_iter's iocb (argument 1)
# and the f_op offset found through ->release(inode, file) (arguments 1
# and 2) from the kernel's pt_regs, pointers read in the kernel's words:
# struct file keeps f_op at 20 on 32-bit ARM (f_u 8, f_path 8, f_inode 4),
# at 40 on a 64-bit kernel (5.10 to 6.1).  ext4_file_operations from the
# module file (no KALLSYMS_ALL), as a user would have it.
scenario_armhf_generic_read() {
	local want_off=40 kodir=/lib/modules/$KERNEL/kernel/fs/ext4
	armhf_kernel32 && want_off=20
	mkdir -p "$kodir"
	cp /lib/modules/ext4.ko "$kodir/ext4.ko"
	traced_run generic-read-exact /mnt/ext4/sa $O $R $W $F \
		--read-path=generic -v -p @PID@ || { rm -rf "/lib/modules/$KERNEL"; return 0; }
	expect_counts generic-read-exact "$WANT"
	expect_verbose generic-fop-offset "$ERR" \
		"f_op discovered at offset $want_off of struct file"
	traced_run generic-read-tmpfs /mnt/tmpfs/sa $O $R $W $F \
		--read-path=generic -p @PID@ || { rm -rf "/lib/modules/$KERNEL"; return 0; }
	rm -rf "/lib/modules/$KERNEL"
	if grep -q '^operation = ' "$OUT"; then
		fail generic-read-tmpfs "an operation was printed for tmpfs" "$OUT" "$ERR"
	else
		expect_counts generic-read-tmpfs "$ZERO"
	fi
}

# armhf_fops_real: ext4_file_operations as the kernel has it: the section
# of the module the host named (fops-offset) plus its offset there.
armhf_fops_real() {
	local sec off base
	read -r sec off < /guest/fops-offset || return 1
	base=$(cat "/sys/module/ext4/sections/$sec" 2>/dev/null) || return 1
	printf '%x\n' $((base + off))
}

# --- ext4_file_operations without CONFIG_KALLSYMS_ALL (Debian's armmp and
# arm64 kernels): kallsyms lacks it for real; without a module file the
# error names what is missing; the module file plus
# /sys/module/ext4/sections gives the exact address; so does --fops-addr.
scenario_armhf_fops_sources() {
	local real kodir rc
	kodir=/lib/modules/$KERNEL/kernel/fs/ext4
	if grep -q ' ext4_file_operations' /proc/kallsyms; then
		fail armhf-no-kallsyms-all "precondition: /proc/kallsyms lists ext4_file_operations (KALLSYMS_ALL on?)"
	else
		pass armhf-no-kallsyms-all
	fi
	if ! real=$(armhf_fops_real) || [ -z "$real" ]; then
		fail fops-missing-error "precondition: no ext4_file_operations offset from the host ($(cat /guest/fops-offset))"
		return 0
	fi
	rm -rf "/lib/modules/$KERNEL"
	rc=0
	timeout 120 ext4dist --read-path=generic \
		> "$WORK/fopsmiss.out" 2> "$WORK/fopsmiss.err" || rc=$?
	if [ "$rc" != 1 ]; then
		fail fops-missing-error "exit status $rc, want 1" \
			"$WORK/fopsmiss.out" "$WORK/fopsmiss.err"
	elif ! has_line "$WORK/fopsmiss.err" CONFIG_KALLSYMS_ALL ||
	     ! has_line "$WORK/fopsmiss.err" "no module file /lib/modules/$KERNEL/kernel/fs/ext4/ext4.ko" ||
	     ! has_line "$WORK/fopsmiss.err" --fops-addr; then
		fail fops-missing-error "stderr does not name CONFIG_KALLSYMS_ALL, the module file and --fops-addr" \
			"$WORK/fopsmiss.out" "$WORK/fopsmiss.err"
	else
		pass fops-missing-error
	fi

	mkdir -p "$kodir"
	cp /lib/modules/ext4.ko "$kodir/ext4.ko"
	traced_run fops-from-module /mnt/ext4/sb1 $O $R $W $F \
		--read-path=generic -v -p @PID@ || {
		rm -rf "/lib/modules/$KERNEL"
		return 0
	}
	rm -rf "/lib/modules/$KERNEL"
	expect_counts fops-from-module "$WANT"
	expect_verbose fops-from-module-verbose "$ERR" \
		"ext4_file_operations found in $kodir/ext4.ko plus /sys/module/ext4/sections: 0x$real"

	traced_run fops-addr-option /mnt/ext4/sb2 $O $R $W $F \
		--read-path=generic --fops-addr "0x$real" -v -p @PID@ || return 0
	expect_counts fops-addr-option "$WANT"
	expect_verbose fops-addr-option-verbose "$ERR" \
		"ext4_file_operations = 0x$real from --fops-addr"
}

# --- the plain-array fallback (--pretend=no-percpu) loads the atomic twins:
# 32-bit ARM's JIT cannot compile their atomic adds.  6.1 then refuses
# the program (ENOTSUPP), which must be reported as the JIT's refusal;
# 5.10 interprets it instead (dmesg says "NOT YET", kallsyms shows no
# JIT'ed program), and the interpreter and arm64's JIT count exactly.
# Without the JIT, exact everywhere.
scenario_armhf_forced_fallbacks() {
	local rc=0 named notyet jitted
	if armhf_kernel32 && [ "$ARMHF_JIT" != 0 ] &&
	   [ "${KERNEL%%.*}" -ge 6 ]; then
		timeout 120 ext4dist --pretend=no-percpu,no-names,no-multi \
			> "$WORK/jitrefuse.out" 2> "$WORK/jitrefuse.err" || rc=$?
		if [ "$rc" = 1 ] && has_line "$WORK/jitrefuse.err" \
		   "ext4dist: the kernel's BPF JIT cannot compile BPF program k" &&
		   has_line "$WORK/jitrefuse.err" "/atomic (error 524, ENOTSUPP: the verifier accepted it"; then
			pass forced-fallbacks-jit-refusal
		else
			fail forced-fallbacks-jit-refusal "exit status $rc, want 1 and the JIT's refusal of an atomic twin" \
				"$WORK/jitrefuse.out" "$WORK/jitrefuse.err"
		fi
		return 0
	fi
	dmesg -c > /dev/null 2>&1 || true
	TRACED_HOOK=bpf_prog_syms
	traced_run forced-fallbacks /mnt/ext4/sd $O $R $W $F \
		-v --pretend=no-percpu,no-names,no-multi -p @PID@ || {
		TRACED_HOOK=""
		return 0
	}
	TRACED_HOOK=""
	expect_counts forced-fallbacks "$WANT"
	expect_verbose forced-fallbacks-array "$ERR" \
		"counters: atomic adds (plain arrays: several CPUs share each value)"
	# 5.10's 32-bit ARM JIT gave up on the atomic adds ("NOT YET: opcode
	# db") and the kernel interprets those programs: none in kallsyms.
	if armhf_kernel32 && [ "$ARMHF_JIT" != 0 ]; then
		notyet=$(dmesg | grep -c 'NOT YET: opcode db' || true)
		jitted=$(wc -l < "$BPF_SYMS")
		if [ "$notyet" -gt 0 ] && [ "$jitted" = 0 ]; then
			pass forced-fallbacks-interpreted
		else
			fail forced-fallbacks-interpreted "$notyet 'NOT YET: opcode db' lines in dmesg and $jitted JIT'ed programs, want some and 0" "$BPF_SYMS"
		fi
	# JIT'ed programs show in kallsyms, without names here.
	elif [ "$ARMHF_JIT" != 0 ]; then
		named=$(grep -v '^bpf_prog_[0-9a-f]\{16\}$' "$BPF_SYMS" || true)
		if [ ! -s "$BPF_SYMS" ]; then
			fail forced-fallbacks-names "no bpf_prog_ symbol in /proc/kallsyms while ext4dist ran" "$ERR"
		elif [ -n "$named" ]; then
			fail forced-fallbacks-names "programs loaded with names: $(echo "$named" | tr '\n' ' ')" "$BPF_SYMS"
		else
			pass forced-fallbacks-names
		fi
	fi
}

# --- with the JIT on, every program of a run (the plain-add set) is
# compiled by it: -v shows its JIT size for each, and the kernel logged
# no instruction it could not compile ("NOT YET", 32-bit ARM's JIT).
# Both read paths.  With the JIT off, -v shows none.
scenario_armhf_jit() {
	local args n jitted notyet
	dmesg -c > /dev/null 2>&1 || true
	for args in "" "--read-path=generic --fops-addr 0x$(armhf_fops_real)"; do
		# shellcheck disable=SC2086 # args: plain words
		traced_run armhf-jit-counts /mnt/ext4/sj $O $R $W $F \
			$args -v -p @PID@ || return 0
		expect_counts "armhf-jit-counts${args:+-generic}" "$WANT"
		n=$(grep -c 'program k.* loaded: [0-9]* instructions' "$ERR" || true)
		jitted=$(grep -c 'program k.* loaded: [0-9]* instructions, JIT [0-9]* bytes' "$ERR" || true)
		# 8 programs; the generic path adds the f_op scan.
		[ "$n" -ge 8 ] || n="$n (too few)"
		if [ "$ARMHF_JIT" = 0 ]; then
			check "armhf-nojit-interpreted${args:+-generic}" "$jitted of $n JIT'ed" \
				"0 of $n JIT'ed" "$ERR"
		else
			check "armhf-jit-compiled${args:+-generic}" "$jitted of $n JIT'ed" \
				"$n of $n JIT'ed" "$ERR"
		fi
	done
	notyet=$(dmesg | grep -c 'NOT YET' || true)
	check armhf-jit-no-refused-opcode "$notyet 'NOT YET' lines in dmesg" \
		"0 'NOT YET' lines in dmesg"
}
