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

# loaded_by FILE: the sections of the programs whose load --verifier-log
# reported in FILE, the discoveries' short-lived probes (the f_op scan,
# the name peek) left out, one a line, sorted.
loaded_by() {
	sed -n 's/^--- verifier log of \([^ ]*\) (accepted: .*/\1/p' "$1" |
		grep -v -e '/scan_release$' -e '/peek$' | sort
}

# --check verifies what a run would load: on every attach path this
# kernel offers, in the histogram mode, slow mode, with -p and on the
# generic read path, the programs --check hands the verifier when start-up
# stops before loading any (--pretend=no-ext4: the plan is the same) are
# the very programs a start-up that attached loaded (--check again,
# without it).
scenario_check_loads() {
	local path mode opts name runs=0 paths="" npaths=0
	load_ext4
	for path in tracefs pmu multi fentry tracepoint; do
		for mode in - "--slower 0" "-p 1" --read-path=generic; do
			[ "$mode" != - ] || mode=""
			opts="--attach=$path $mode"
			if [ "$path" = tracepoint ]; then
				case $mode in
				--slower*|--read-path*) continue ;;
				esac
				opts="$opts --ops fsync"
			fi
			name="check-loads-$path${mode:+-$(echo "$mode" | tr -dc 'a-z0-9')}"
			# shellcheck disable=SC2086 # opts: plain words
			ext4dist --check --verifier-log $opts > "$WORK/$name.run" 2>&1 ||
				true
			case $(verdict_of "$WORK/$name.run") in
			"ext4dist can trace here") ;;
			*) continue ;;
			esac
			# shellcheck disable=SC2086
			ext4dist --check --verifier-log --pretend=no-ext4 $opts \
				> "$WORK/$name.check" 2>&1 || true
			loaded_by "$WORK/$name.run" > "$WORK/$name.run.progs"
			loaded_by "$WORK/$name.check" > "$WORK/$name.check.progs"
			if ! grep -q '^  *loaded for this check alone' "$WORK/$name.check"; then
				fail "$name" "--pretend=no-ext4 --check $opts: the programs were not loaded unattached" "$WORK/$name.check"
				continue
			fi
			if [ ! -s "$WORK/$name.run.progs" ]; then
				fail "$name" "--check $opts: no program loaded" "$WORK/$name.run"
				continue
			fi
			check "$name" "$(tr '\n' ' ' < "$WORK/$name.check.progs")" \
				"$(tr '\n' ' ' < "$WORK/$name.run.progs")" \
				"$WORK/$name.run" "$WORK/$name.check"
			runs=$((runs + 1))
			case " $paths " in
			*" $path "*) ;;
			*) paths="$paths $path" npaths=$((npaths + 1)) ;;
			esac
		done
	done
	# Every kernel of the suite has tracefs, the PMU and the tracepoints.
	check check-loads-paths "$runs runs on$paths: $([ "$npaths" -ge 3 ] && echo "3 paths or more")" \
		"$runs runs on$paths: 3 paths or more"
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
