#!/usr/bin/env bash
# docs/internals.md and docs/learn.md name code as file:function: every one must exist,
# defined in that file (a line that starts a definition: its name and "("
# at top level, not ending in ";").  Renaming a function without the
# walkthrough fails here.
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
