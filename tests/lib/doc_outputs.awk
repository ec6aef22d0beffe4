# The output blocks of the documentation, held against what the binary
# prints now.  A block (fenced with ``` and no language, or indented by 4
# spaces after a blank line) is marked on the line before it with
#   <!-- output NAME -->          NAME: a run, "host/check", "vm-6.1/pmu-vv"
#   <!-- output NAME exact -->    its lines unmasked
#   <!-- output NAME excerpt -->  some of the run's lines (also "exact excerpt")
#   <!-- not output: WHY -->      a diagram, a command list...
# Fenced blocks with a language (```sh) are commands, never output.
#
# A block that is not an excerpt is the whole run: every line the run
# prints is in it, in the run's order, and nothing else (empty lines
# aside; a histogram's bucket rows, as many as the run filled, count as
# one).  An excerpt's lines must each be a line of the run, in the same
# order (bucket rows found anywhere); "..." marks what it leaves out and
# belongs to excerpts alone.  Lines "$ command" say what was run: never
# compared, in the block or in the run's capture.
#
# Both sides are masked alike (not in exact blocks): what changes from run
# to run becomes N (fds, PIDs, ids, addresses and other hex words, times,
# latencies, kernel versions and the numbers of the kernel's own: the
# JIT's bytes, the verifier's walk), histogram bars S, runs of blank space
# one, a JSON list of buckets B.  The counts of what ext4dist itself is
# made of and does stay compared: a number followed by programs, maps,
# bytes (not the JIT's), instructions, insns, functions, entries or
# lessons, and key_size=, value_size=, max_entries=, insn_cnt=.
#
#   awk -v want=NAME -v capture=FILE -v label=L -f doc_outputs.awk DOC...
#     prints "PASS L: DOC:LINE (N lines)" or "FAIL L: DOC:LINE: why" per
#     block marked NAME (-v show=1: and the lines that differ, before it).
#   awk -v list=1 -f doc_outputs.awk DOC...
#     prints "DOC:LINE NAME" per marked block, "DOC:LINE -" per unmarked
#     one, "DOC:LINE not-output" per block marked not output.
# Plain POSIX awk (busybox awk in the VM guest).

BEGIN {
	keep_counts = "[0-9][0-9]* (programs?|maps?|bytes|instructions|insns|functions|entries|lessons)([^a-z]|$)"
	keep_fields = "(key_size|value_size|max_entries|insn_cnt)=[0-9][0-9]*"
	split("0 1 2 3 4 5 6 7 8 9", digit, " ")
	for (i = 1; i <= 10; i++)
		hidden[digit[i]] = sprintf("%c", 16 + i)
	for (d in hidden)
		shown[hidden[d]] = d
}

# s with its digits in the segments matching re made invisible to the
# masking below (control characters), and back (hide 0).
function hide(s, re,    out, seg, j, c) {
	out = ""
	while (match(s, re)) {
		seg = substr(s, RSTART, RLENGTH)
		out = out substr(s, 1, RSTART - 1)
		for (j = 1; j <= length(seg); j++) {
			c = substr(seg, j, 1)
			if (c in hidden)
				c = hidden[c]
			out = out c
		}
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}

function unhide(s,    out, j, c) {
	out = ""
	for (j = 1; j <= length(s); j++) {
		c = substr(s, j, 1)
		if (c in shown)
			c = shown[c]
		out = out c
	}
	return out
}

function mask(s,    out, hex) {
	gsub(/\r/, "", s)
	gsub(/\|\**  *\|/, "|S|", s)
	gsub(/\|\*\**\|/, "|S|", s)
	gsub(/0x[0-9a-fA-F][0-9a-fA-F]*/, "0xN", s)
	# The kernel's own numbers, not ext4dist's: masked as any other.
	gsub(/JIT [0-9][0-9]* bytes/, "JIT N bytes", s)
	s = hide(s, keep_counts)
	s = hide(s, keep_fields)
	# Tags and other hex words of 8 or more digits: numbers too.
	hex = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*"
	out = ""
	while (match(s, hex)) {
		out = out substr(s, 1, RSTART - 1) "N"
		s = substr(s, RSTART + RLENGTH)
	}
	s = out s
	gsub(/[0-9][0-9]*/, "N", s)
	gsub(/N[.,]N/, "N", s)
	gsub(/N[.,]N/, "N", s)
	gsub(/N[.,]N/, "N", s)
	# JSON's list of non-empty buckets: as many as the run filled.
	gsub(/\{"low":N,"high":N,"count":N\}(,\{"low":N,"high":N,"count":N\})*/, "B", s)
	gsub(/[ \t][ \t]*/, " ", s)
	sub(/^ /, "", s)
	sub(/ $/, "", s)
	return unhide(s)
}

function is_bucket(m) {
	return m ~ /^N -> N : N( [|]S[|])?$/
}

# A line as compared: masked (not in exact blocks), a bucket row "<rows>".
function norm(line, m) {
	m = exact ? line : mask(line)
	return !exact && is_bucket(m) ? "<rows>" : m
}

# An excerpt's line: the next line of the run equal to it, after the one
# its previous line matched (lines in the same order).
function in_order(line,    i) {
	for (i = pos + 1; i <= ncap; i++)
		if ((exact ? cap[i] : mcap[i]) == line) {
			pos = i
			return 1
		}
	return 0
}

function block_line(line,    m) {
	if (list || name != want || line ~ /^\$ / || line ~ /^[ \t]*$/)
		return
	if (line == "...") {
		ellipsis++
		return
	}
	checked++
	if (excerpt) {
		m = exact ? line : mask(line)
		if (!exact && is_bucket(m)) {
			if (m in seen)
				return
		} else if (in_order(m))
			return
		if (!bad)
			first_bad = line
		bad++
		if (show)
			print "  not printed now: " line
		return
	}
	m = norm(line)
	# Consecutive bucket rows are one item, as in the run.
	if (m == "<rows>" && nblk && blk[nblk] == "<rows>")
		return
	blk[++nblk] = m
	blkraw[nblk] = line
}

# The run, as a whole block compares it: its items, rows collapsed.
function run_items(    i, m) {
	nrun = 0
	for (i = 1; i <= ncap; i++) {
		if (cap[i] ~ /^[ \t]*$/ || cap[i] ~ /^\$ /)
			continue
		m = exact ? cap[i] : (is_bucket(mcap[i]) ? "<rows>" : mcap[i])
		if (m == "<rows>" && nrun && run[nrun] == "<rows>")
			continue
		run[++nrun] = m
		runraw[nrun] = cap[i]
	}
}

function whole_verdict(    i, n, diff, why) {
	if (ellipsis)
		return "\"...\" leaves lines out: mark the block as an excerpt (<!-- output " want " excerpt -->)"
	run_items()
	n = nblk > nrun ? nblk : nrun
	for (i = 1; i <= n; i++)
		if (i > nblk || i > nrun || blk[i] != run[i]) {
			diff = i
			break
		}
	if (!diff)
		return ""
	if (show)
		for (i = diff; i <= n && i < diff + 5; i++) {
			if (i <= nblk && (i > nrun || blk[i] != run[i]))
				print "  not printed now: " blkraw[i]
			if (i <= nrun && (i > nblk || blk[i] != run[i]))
				print "  printed, not in the block: " runraw[i]
		}
	if (diff > nblk)
		why = "the run prints " (nrun - nblk) " line(s) more, the first: " runraw[diff]
	else if (diff > nrun)
		why = "the block has " (nblk - nrun) " line(s) the run does not print, the first: " blkraw[diff]
	else
		why = "line " diff " differs: the block has " blkraw[diff] "; the run prints " runraw[diff]
	return why
}

function block_end(    why) {
	if (!inblock)
		return
	if (list)
		print where " " (name == "" ? "-" : name)
	else if (name == want) {
		if (!checked)
			printf "FAIL %s: %s: no line to check\n", label, where
		else if (excerpt && bad)
			printf "FAIL %s: %s: %d of %d lines not printed now, the first: %s\n",
				label, where, bad, checked, first_bad
		else if (!excerpt && (why = whole_verdict()) != "")
			printf "FAIL %s: %s: %s\n", label, where, why
		else
			printf "PASS %s: %s (%d lines)\n", label, where, checked
	}
	inblock = 0
	name = ""
}

function block_start() {
	inblock = 1
	where = FILENAME ":" FNR
	name = marker
	exact = marker_exact
	excerpt = marker_excerpt
	marker = ""
	bad = checked = pos = nblk = ellipsis = 0
}

BEGIN {
	if (capture != "")
		while ((getline line < capture) > 0) {
			cap[++ncap] = line
			mcap[ncap] = mask(line)
			seen[mcap[ncap]] = 1
		}
}

FNR == 1 { block_end(); fenced = 0; blank = 1; marker = "" }

fenced {
	if ($0 ~ /^```/) {
		fenced = 0
		block_end()
	} else if (inblock)
		block_line($0)
	next
}

inblock && indented {
	if ($0 ~ /^    /) {
		block_line(substr($0, 5))
		next
	}
	if ($0 ~ /^[ \t]*$/)
		next
	block_end()
}

/^```/ {
	fenced = 1
	if ($0 ~ /^```[a-z]/) {
		marker = ""
		next
	}
	block_start()
	indented = 0
	next
}

blank && /^    [^ ]/ && !inblock {
	block_start()
	indented = 1
	block_line(substr($0, 5))
	next
}

/^<!-- output [^ ]*( exact)?( excerpt)? -->$/ {
	marker = $3
	marker_exact = $0 ~ / exact /
	marker_excerpt = $0 ~ / excerpt /
	blank = 0
	next
}
/^<!-- not output: .* -->$/ { marker = "not-output"; blank = 0; next }

{
	blank = $0 ~ /^[ \t]*$/
	if (!blank)
		marker = ""
}

END { block_end() }
