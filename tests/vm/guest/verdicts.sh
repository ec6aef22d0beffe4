# shellcheck shell=dash disable=SC3043,SC2034 # busybox ash has local; lib.sh reads TRACED_*
# --check and a run come to the same verdict: for each set of options,
# where --check says ext4dist can trace, a run with them traces with
# exact counts; where it says it cannot, a run fails with the same words.
# Sourced by scenarios.sh (uses its O R W F and WANT).

# One option set per line ("-" for none).
VERDICT_OPTIONS="-
--attach=pmu
--attach=tracefs
--attach=multi
--read-path=generic
--maxactive 5
--attach=pmu --maxactive 5
--attach=multi --read-path=generic
--ops getattr
--ops read,write --attach=tracefs --maxactive 2"

# verdict_of FILE: what --check's verdict line says after "verdict".
verdict_of() {
	sed -n 's/^verdict  *//p' "$1"
}

scenario_check_agrees() {
	local opts n=0 total verdict rc want got name
	printf '%s\n' "$VERDICT_OPTIONS" > "$WORK/verdict-options"
	total=$(wc -l < "$WORK/verdict-options")
	# Not "while read < file": the commands inside would share its stdin.
	while [ "$n" -lt "$total" ]; do
		n=$((n + 1))
		opts=$(sed -n "${n}p" "$WORK/verdict-options")
		name=check-agrees-$n
		[ "$opts" != - ] || opts=""
		rc=0
		# shellcheck disable=SC2086 # opts is a list of words
		ext4dist --check $opts > "$WORK/$name.check" 2>&1 || rc=$?
		verdict=$(verdict_of "$WORK/$name.check")
		case $verdict in
		"ext4dist can trace here")
			if [ "$rc" != 0 ]; then
				fail "$name" "--check $opts: exit $rc with a positive verdict" "$WORK/$name.check"
				continue
			fi
			# A run with the same options traces every call.
			# shellcheck disable=SC2086
			traced_run "$name" "/mnt/ext4/sv$n" $O $R $W $F $opts -p @PID@ ||
				continue
			want=$WANT
			case " $opts " in
			*" --ops getattr "*) want="open=0 read=0 write=0 fsync=0" ;;
			*" --ops read,write "*) want="open=0 read=$R write=$W fsync=0" ;;
			esac
			expect_counts "$name" "$want" ;;
		"ext4dist cannot trace here: "*)
			if [ "$rc" != 1 ]; then
				fail "$name" "--check $opts: exit $rc with a negative verdict" "$WORK/$name.check"
				continue
			fi
			rc=0
			# shellcheck disable=SC2086
			timeout 60 ext4dist $opts > "$WORK/$name.out" 2> "$WORK/$name.err" || rc=$?
			got=$(head -n 1 "$WORK/$name.err")
			want="ext4dist: ${verdict#ext4dist cannot trace here: }"
			if [ "$rc" != 1 ]; then
				fail "$name" "--check says '$verdict' but 'ext4dist $opts' exited $rc" \
					"$WORK/$name.check" "$WORK/$name.out" "$WORK/$name.err"
			else
				check "$name" "$got" "$want" "$WORK/$name.check" "$WORK/$name.err"
			fi ;;
		*)
			fail "$name" "--check $opts printed no verdict" "$WORK/$name.check" ;;
		esac
	done
}

# An operation whose function this kernel lacks (getattr before 4.11, as on
# 4.9): --check and a run both name the function and the kernel.  Where
# the kernel has it, --pretend=no-getattr takes it away (the 4.9 image
# that showed the real refusal is withdrawn) and the refusal names that.
scenario_missing_function() {
	local rc=0 kernel="Linux $KERNEL"
	set --
	if awk '$3 == "ext4_file_getattr" { f = 1 } END { exit !f }' /proc/kallsyms; then
		# Traced where it exists: check_agrees counts it (no events).
		ext4dist --check --ops getattr > "$WORK/getattr.check" 2>&1 || true
		check missing-function-getattr-present "$(verdict_of "$WORK/getattr.check")" \
			"ext4dist can trace here" "$WORK/getattr.check"
		set -- --pretend=no-getattr
		kernel=--pretend=no-getattr
	fi
	timeout 60 ext4dist --ops read,getattr "$@" > "$WORK/getattr.out" 2> "$WORK/getattr.err" || rc=$?
	if [ "$rc" != 1 ]; then
		fail missing-function-getattr "exit status $rc, want 1" "$WORK/getattr.out" "$WORK/getattr.err"
	else
		check missing-function-getattr "$(cat "$WORK/getattr.err")" \
			"ext4dist: cannot trace getattr: kernel function ext4_file_getattr does not exist in this kernel ($kernel; it arrived in 4.11); leave getattr out of --ops" \
			"$WORK/getattr.err"
	fi
	ext4dist --check --ops read,getattr "$@" > "$WORK/getattr.check" 2>&1 || true
	check missing-function-getattr-check "$(verdict_of "$WORK/getattr.check")" \
		"ext4dist cannot trace here: cannot trace getattr: kernel function ext4_file_getattr does not exist in this kernel ($kernel; it arrived in 4.11); leave getattr out of --ops" \
		"$WORK/getattr.check"
}
