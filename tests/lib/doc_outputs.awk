# The output blocks of the documentation, held against what the binary
# prints now.  A block (fenced with ``` and no language, or indented by 4
# spaces after a blank line) is marked on the line before it with
#   <!-- output NAME -->          NAME: a capture, "host/check", "vm-6.1/pmu-vv"
#   <!-- output NAME exact -->    the same, its lines unmasked and in order
#   <!-- not output: WHY -->      a diagram, a command list...
# Fenced blocks with a language (```sh) are commands, never output.
#
#   awk -v want=NAME -v capture=FILE -v label=L -f doc_outputs.awk DOC...
#     the lines of every block marked NAME must be lines of FILE (stdout
#     and stderr of the run), in the same order but for a histogram's
#     bucket lines (found anywhere: their number varies), both masked alike: numbers (fds,
#     PIDs, counts, addresses, versions, sizes) and hex words as N, the
#     stars of a histogram bar as S, runs of blank space as one, a JSON
#     list of buckets as B.  Lines
#     "...", "$ command" and empty ones are the documentation's own.
#     Prints "PASS L: DOC:LINE" or "FAIL L: DOC:LINE ..." per block
#     (-v show=1: and every line not printed now, before it).
#   awk -v list=1 -f doc_outputs.awk DOC...
#     prints "DOC:LINE NAME" per marked block, "DOC:LINE -" per unmarked
#     one, "DOC:LINE not-output" per block marked not output.
# Plain POSIX awk (busybox awk in the VM guest).

function mask(s,    out, hex) {
	gsub(/\r/, "", s)
	gsub(/\|\**  *\|/, "|S|", s)
	gsub(/\|\*\**\|/, "|S|", s)
	gsub(/0x[0-9a-fA-F][0-9a-fA-F]*/, "0xN", s)
	# Tags and other hex words of 8 or more digits: numbers too (a
	# number of 8 digits is one), as any other number.
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
	return s
}

# A block's line: the next line of lines (the capture, cap, or its
# masked copy, mcap) equal to it, after the one its previous line
# matched (lines in the same order).
function in_order(lines, line,    i) {
	for (i = pos + 1; i <= ncap; i++)
		if (lines[i] == line) {
			pos = i
			return 1
		}
	return 0
}

function block_end() {
	if (!inblock)
		return
	if (list)
		print where " " (name == "" ? "-" : name)
	else if (name == want) {
		if (bad)
			printf "FAIL %s: %s: %d of %d lines not printed now, the first: %s\n",
				label, where, bad, checked, first_bad
		else if (!checked)
			printf "FAIL %s: %s: no line to check\n", label, where
		else
			printf "PASS %s: %s (%d lines)\n", label, where, checked
	}
	inblock = 0
	name = ""
}

function check_line(line,    m, ok) {
	if (list || name != want || line == "..." || line ~ /^\$ / || line ~ /^[ \t]*$/)
		return
	checked++
	# A histogram's bucket lines: as many as the run filled, so found
	# anywhere; the lines around them (operation, header) in order.
	if (exact)
		ok = in_order(cap, line)
	else {
		m = mask(line)
		if (m ~ /^N -> N : N( [|]S[|])?$/)
			ok = (m in seen)
		else
			ok = in_order(mcap, m)
	}
	if (!ok) {
		if (!bad)
			first_bad = line
		bad++
		if (show)
			print "  not printed now: " line
	}
}

BEGIN {
	if (capture != "")
		while ((getline line < capture) > 0)
{
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
		check_line($0)
	next
}

inblock && indented {
	if ($0 ~ /^    /) {
		check_line(substr($0, 5))
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
	inblock = 1
	indented = 0
	where = FILENAME ":" FNR
	name = marker
	exact = marker_exact
	marker = ""
	bad = checked = pos = 0
	next
}

blank && /^    [^ ]/ && !inblock {
	inblock = 1
	indented = 1
	where = FILENAME ":" FNR
	name = marker
	exact = marker_exact
	marker = ""
	bad = checked = pos = 0
	check_line(substr($0, 5))
	next
}

/^<!-- output [^ ]* (exact )?-->$/ { marker = $3; marker_exact = $4 == "exact"; blank = 0; next }
/^<!-- not output: .* -->$/ { marker = "not-output"; blank = 0; next }

{
	blank = $0 ~ /^[ \t]*$/
	if (!blank)
		marker = ""
}

END { block_end() }
