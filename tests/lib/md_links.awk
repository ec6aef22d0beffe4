# The links of Markdown pages that lead nowhere: every relative link
# "[text](path)", "[text](path#anchor)" or "[text](#anchor)" outside code
# must name a file that exists and, with an anchor, a heading of that
# page (GitHub's slug: lower case, punctuation dropped, spaces as "-").
#   awk -f md_links.awk PAGE...   (from the top of the tree)
# prints "PAGE:LINE: TARGET: why" per broken link, nothing when all hold.

function dir_of(p) {
	return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/)) : ""
}

# p with "x/../" and "./" folded away.
function tidy(p,    n, i, part, out, k, stack) {
	n = split(p, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || part[i] == "")
			continue
		if (part[i] == ".." && k > 0 && stack[k] != "..")
			k--
		else
			stack[++k] = part[i]
	}
	out = p ~ /^\// ? "/" : ""
	for (i = 1; i <= k; i++)
		out = out (i > 1 ? "/" : "") stack[i]
	return out
}

function slug(h) {
	h = tolower(h)
	gsub(/[^a-z0-9 _-]/, "", h)
	gsub(/ /, "-", h)
	return h
}

FNR == 1 { fence = 0 }
/^```/ { fence = !fence; next }
fence { next }

/^#+ / {
	h = $0
	sub(/^#+ +/, "", h)
	anchor[FILENAME "#" slug(h)] = 1
}

{
	s = $0
	gsub(/`[^`]*`/, "", s)
	while (match(s, /\]\([^) ]*\)/)) {
		target = substr(s, RSTART + 2, RLENGTH - 3)
		s = substr(s, RSTART + RLENGTH)
		if (target ~ /^[a-z]+:/)
			continue
		n++
		where[n] = FILENAME ":" FNR
		shown[n] = target
		path = target
		frag = ""
		if (index(target, "#")) {
			path = substr(target, 1, index(target, "#") - 1)
			frag = substr(target, index(target, "#") + 1)
		}
		file[n] = path == "" ? FILENAME : tidy(dir_of(FILENAME) path)
		want[n] = frag
	}
}

END {
	for (i = 1; i <= n; i++) {
		if ((getline line < file[i]) < 0 && system("test -d '" file[i] "'") != 0) {
			print where[i] ": " shown[i] ": no such file " file[i]
			continue
		}
		close(file[i])
		if (want[i] != "" && !((file[i] "#" want[i]) in anchor))
			print where[i] ": " shown[i] ": no heading #" want[i] " in " file[i]
	}
}
