# Compares ext4dist's -v narration of kernel calls with strace's record of
# the same run: every bpf, perf_event_open and ioctl call, and every close
# of an fd that one of them returned, must be in -v, in the same order,
# with the same command, fd and result, and every field=value -v prints
# must be strace's too; every call line of -v is followed by a "# " line.
#   awk -v label=NAME -f kcall_compare.awk STRACE_FILE VERBOSE_FILE
# strace: -o STRACE_FILE -v -s 256 -e trace=bpf,perf_event_open,ioctl,close.
# (strace -v decodes a program's instructions, and the structure an
# address points to: then that stands for the address -v prints.)  Plain POSIX awk (busybox awk in the VM guest).  Prints PASS or FAIL lines.

# The call of a line "name(args) = result", normalised: no comments, one
# space between words.  Sets C_NAME, C_ARGS, C_RET; 0 if not a call.
function parse(line,    i, depth, c, q) {
	gsub(/ ?\/\* [^*]* \*\//, "", line)
	gsub(/[ \t]+/, " ", line)
	if (line !~ /^(bpf|perf_event_open|ioctl|close)\(/)
		return 0
	C_NAME = substr(line, 1, index(line, "(") - 1)
	depth = 0
	q = 0
	for (i = length(C_NAME) + 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\\")
				i++
			else if (c == "\"")
				q = 0
			continue
		}
		if (c == "\"")
			q = 1
		else if (c == "(" || c == "{" || c == "[")
			depth++
		else if (c == ")" || c == "}" || c == "]") {
			depth--
			if (depth == 0 && c == ")")
				break
		}
	}
	C_ARGS = substr(line, length(C_NAME) + 2, i - length(C_NAME) - 2)
	C_RET = substr(line, i + 1)
	sub(/^ ?= ?/, "", C_RET)
	sub(/ +$/, "", C_RET)
	return 1
}

# Splits args into leaf tokens at , { } outside quotes and parentheses:
# LEAF[1..n], returns n.  "x=1 => 2" (a value strace saw change) is "x=1".
function leaves(args,    i, c, q, depth, cur, n) {
	n = 0
	q = 0
	depth = 0
	cur = ""
	for (i = 1; i <= length(args) + 1; i++) {
		c = i <= length(args) ? substr(args, i, 1) : ","
		if (q) {
			cur = cur c
			if (c == "\\") {
				i++
				cur = cur substr(args, i, 1)
			} else if (c == "\"")
				q = 0
			continue
		}
		if (c == "\"")
			q = 1
		if (c == "(")
			depth++
		if (c == ")")
			depth--
		if (depth == 0 && (c == "," || c == "{" || c == "}")) {
			sub(/^ +/, "", cur)
			sub(/ +$/, "", cur)
			sub(/ =>.*/, "", cur)
			if (cur != "")
				LEAF[++n] = cur
			cur = ""
			continue
		}
		cur = cur c
	}
	return n
}

# strace -v decodes the arrays an address points to (the instructions,
# kprobe_multi's addresses and cookies) where -v shows the address:
# "k=[...]" becomes "k=DECODED".
function arrays_decoded(args,    i, j, c, depth, out) {
	out = ""
	while ((i = index(args, "=[")) > 0) {
		depth = 0
		for (j = i + 1; j <= length(args); j++) {
			c = substr(args, j, 1)
			if (c == "[")
				depth++
			else if (c == "]" && --depth == 0)
				break
		}
		out = out substr(args, 1, i) "DECODED"
		args = substr(args, j + 1)
	}
	return out args
}

# The first argument: a command or an fd.
function first(args) {
	sub(/^\{/, "", args)
	sub(/[,}].*/, "", args)
	return args
}

function fd_of(ret) {
	return ret ~ /^[0-9]+$/ ? ret + 0 : -1
}

FNR == NR {
	sub(/^[0-9]+ +/, "")	# strace -f: the pid
	if (!parse($0))
		next
	C_ARGS = arrays_decoded(C_ARGS)
	f = first(C_ARGS)
	if (C_NAME == "close" || C_NAME == "ioctl") {
		if (!(f in ours))
			next	# a file of ours, or libc's tty check
		if (C_NAME == "close")
			delete ours[f]
	}
	if ((C_NAME == "bpf" && f ~ /^(BPF_MAP_CREATE|BPF_PROG_LOAD|BPF_LINK_CREATE)$/) ||
	    C_NAME == "perf_event_open")
		if (fd_of(C_RET) >= 0)
			ours[fd_of(C_RET)] = 1
	ns++
	S_NAME[ns] = C_NAME
	S_ARGS[ns] = C_ARGS
	S_RET[ns] = C_RET
	S_LINE[ns] = $0
	next
}

{
	line = $0
	if (sub(/^ext4dist: /, "", line) == 0)
		next
	if (want_why) {
		want_why = 0
		if (line !~ /^# ./ || line ~ /^# \(no reason given\)/)
			bad_why = bad_why " | after " V_LINE[nv] ": " line
	}
	if (!parse(line))
		next
	nv++
	V_NAME[nv] = C_NAME
	V_ARGS[nv] = C_ARGS
	V_RET[nv] = C_RET
	V_LINE[nv] = line
	want_why = 1
}

END {
	if (want_why)
		bad_why = bad_why " | after " V_LINE[nv] ": the end"
	for (i = 1; i <= ns || i <= nv; i++) {
		if (i > ns || i > nv) {
			err = i > ns ? "-v has more calls than strace saw: " V_LINE[i] : \
				"strace saw a call -v does not show: " S_LINE[i]
			break
		}
		if (V_NAME[i] != S_NAME[i] || first(V_ARGS[i]) != first(S_ARGS[i]) ||
		    V_RET[i] != S_RET[i]) {
			err = "call " i " differs: -v: " V_LINE[i] " | strace: " S_LINE[i]
			break
		}
		delete have
		n = leaves(S_ARGS[i])
		for (j = 1; j <= n; j++)
			have[LEAF[j]] = 1
		n = leaves(V_ARGS[i])
		for (j = 1; j <= n; j++) {
			k = LEAF[j]
			sub(/=.*/, "=DECODED", k)
			p = LEAF[j]
			sub(/=0x[0-9a-f]+$/, "=", p)
			if (LEAF[j] ~ /=/ && !(LEAF[j] in have) && !(k in have) &&
			    !(p ~ /=$/ && p in have))
				break
		}
		if (j <= n) {
			err = "call " i ": " LEAF[j] " is not what strace saw: -v: " V_LINE[i] " | strace: " S_LINE[i]
			break
		}
	}
	if (ns == 0)
		err = "strace saw no call at all"
	if (err != "")
		print "FAIL " label ": " err
	else
		print "PASS " label ": " nv " kernel calls in -v, each as strace saw it, in its order, with its values"
	if (bad_why != "")
		print "FAIL " label "-why: a call line of -v without its \"# why\" line:" bad_why
	else
		print "PASS " label "-why: every call line of -v has its \"# why\" line"
}
