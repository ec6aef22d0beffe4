#!/usr/bin/env bash
# No file of src/ over LIMIT lines (default 700): a file a maintainer can
# read in one sitting.  DIR (default src) can be another tree.
set -u
dir=${1:-src}
limit=${2:-700}
over=$(find "$dir" -name '*.[chS]' -exec wc -l {} + |
	awk -v l="$limit" '$2 != "total" && $1 > l { print "  " $2 ": " $1 " lines" }' | sort)
if [ -n "$over" ]; then
	echo "FAIL file-lines: over $limit lines:"
	echo "$over"
	exit 1
fi
echo "PASS file-lines: no file of $dir/ over $limit lines"
