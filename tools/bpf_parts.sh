#!/bin/sh
# tools/bpf_parts.sh OBJ END: where to cut the first END bytes of a BPF
# object into gzip members of their own, one offset a line: at each
# program section whose kind differs from the one before it ("kprobe"
# and "kretprobe" one kind, "kprobe.multi" and "kretprobe.multi"
# another, "fentry" and "fexit" a third; slow mode's name discovery
# ("kprobe/.../peek", 14 KB) and the lessons ("kprobe/lesson/...") each
# a kind of their own; "" for a section of data), at most 15 cuts.  A run then inflates only the members that hold its
# programs (src/tool/engine/bpf_blob_pick.c): a kprobe run none of the
# kprobe_multi, fentry or lesson programs.  Prints nothing without
# readelf (binutils): the bytes are then one member, as before.
set -eu
end=$2
readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' |
	awk -v end="$end" '
	function hex(s,  i, n, c) {
		n = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", tolower(substr(s, i, 1)))
			n = n * 16 + c - 1
		}
		return n
	}
	$2 == "PROGBITS" {
		off = hex($4)
		if (hex($5) == 0 || off == 0 || off >= end)
			next
		kind = ""
		if (NF >= 10 && $7 ~ /X/) {
			kind = $1
			sub(/\/.*/, "", kind)
			sub(/^kret/, "k", kind)
			sub(/^fexit$/, "fentry", kind)
			if ($1 ~ /\/peek$/)
				kind = "peek"
			else if ($1 ~ /^kprobe\/lesson\//)
				kind = "lesson"
		}
		if (seen && kind != last && cuts < 15) {
			print off
			cuts++
		}
		seen = 1
		last = kind
	}'
