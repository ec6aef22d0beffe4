# shellcheck shell=dash
# arm64-only scenarios, sourced by the runner arm64-scenarios.sh builds,
# after the definitions of tests/vm/guest/scenarios.sh (O R W F WANT,
# traced_run, expect_counts).

# The generic read path reads both probe arguments from the arm64 kprobe
# context (struct user_pt_regs): generic_file_read_iter's iocb (regs[0],
# REGS_PARM1) and, to find f_op inside struct file, ext4_file_open's file
# (regs[1], REGS_PARM2).  Exact counts prove both registers right.
scenario_arm64_generic_read() {
	traced_run arm64-generic-read-path /mnt/ext4/sg "$O" "$R" "$W" "$F" \
		--read-path=generic -v -p @PID@ || return 0
	expect_counts arm64-generic-read-path "$WANT"
}
