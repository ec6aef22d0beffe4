#!/usr/bin/env bash
# The documentation as a whole: every file:function docs/*.md name exists,
# defined in that file (a line that starts a definition: its name and "("
# at top level, not ending in ";"), so that renaming a function without
# the walkthrough fails here; README.md stays a front door under 250
# lines; output blocks live only where make check holds them; and every
# link between the pages leads somewhere.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

refs=$(cat docs/*.md | grep -oE '[A-Za-z0-9_./-]+\.[ch]:[A-Za-z_][A-Za-z0-9_]*' | sort -u)
n=0
bad=""
for ref in $refs; do
	file=${ref%%:*} fn=${ref#*:}
	n=$((n + 1))
	if [ ! -f "$file" ]; then
		bad="$bad $ref (no such file);"
	elif ! grep -Eq "^[A-Za-z_][A-Za-z0-9_ *]*[ *]$fn\\(.*[^;]\$|^$fn\\(" "$file"; then
		bad="$bad $ref (no definition of $fn there);"
	fi
done
expect_eq "docs/*.md: every file:function they name exists" "${bad:-none missing}" "none missing"
expect_eq "docs/*.md: name code at all" "$([ "$n" -ge 30 ] && echo yes)" yes

# README.md is the front door: what the tool is, the set-up, a first run,
# what was proven where and where to go next; the rest is in docs/.
lines=$(wc -l < README.md)
expect_eq "README.md: under 250 lines (docs/ holds the rest)" \
	"$([ "$lines" -lt 250 ] && echo yes || echo "no: $lines lines")" yes

# Output blocks are checked only in README.md and docs/*.md
# (tests/host/test_doc_outputs.sh, tests/vm/guest/docs.sh): a marked
# block anywhere else would go unchecked.
expect_eq "output blocks only where make check holds them" \
	"$(git ls-files '*.md' | grep -v '^README\.md$' | grep -v '^docs/[^/]*\.md$' |
		xargs -r grep -ln '^<!-- output ' | tr '\n' ' ')" ""

# Links between the pages: every relative link names a file that exists
# and, with an anchor, a heading of that page (tests/lib/md_links.awk).
# shellcheck disable=SC2046 # the pages, one word each
expect_eq "README.md and docs/*.md: every link leads somewhere" \
	"$(awk -f tests/lib/md_links.awk README.md $(echo docs/*.md))" ""
expect_eq "README.md and docs/*.md: links checked at all" \
	"$([ "$(cat README.md docs/*.md | grep -c '](')" -ge 20 ] && echo yes)" yes

# The link checker on made-up pages: it fails on a missing page, a
# missing heading, here and across pages, and passes code and URLs by.
mkdir -p "$TMP/links/docs"
# shellcheck disable=SC2016 # Markdown code spans, not expansions
printf '%s\n' '# A' '' '## Beyond `--x` (y)' '' \
	'[a](docs/b.md#one-two) [b](#beyond---x-y) [c](#nope) [d](docs/none.md) `[e](#code)`' \
	'```' '[f](#fenced)' '```' > "$TMP/links/README.md"
printf '%s\n' '# One two' '[g](../README.md#a) [h](../README.md#b) [i](http://x/y#z)' \
	> "$TMP/links/docs/b.md"
expect_eq "link checker: the broken links of made-up pages, and only those" \
	"$(cd "$TMP/links" && awk -f "$OLDPWD/tests/lib/md_links.awk" README.md docs/b.md)" \
	"README.md:5: #nope: no heading #nope in README.md
README.md:5: docs/none.md: no such file docs/none.md
docs/b.md:2: ../README.md#b: no heading #b in README.md"
