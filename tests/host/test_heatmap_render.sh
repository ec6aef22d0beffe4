#!/usr/bin/env bash
# The heatmaps as a browser draws them: headless Chromium renders the
# unit test's golden picture and docs/guide.md's (docs/heatmap.svg, from a VM
# run) to PNG at their own size, and every cell's pixel must be the
# colour the SVG gives it (tests/lib/png_cells.py decodes the PNG), as
# in docs/guide.md's own picture, docs/heatmap.png.  The checker is shown to
# fail too: a cell recoloured in the SVG is caught.  tests/deps.sh
# installs Chromium (Debian's chromium package); without it this says
# SKIP.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "SKIP heatmap render: no chromium on this host (apt-get install chromium): the SVGs are checked by structure only (test_heatmap, the VM's fleet-heatmap)"
	exit 0
fi

# render SVG PNG: the page at the SVG's own size.
render() {
	local w h
	w=$(sed -n 's/^<svg [^>]*width="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
	h=$(sed -n 's/^<svg [^>]*height="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
	rm -rf "$TMP/profile"
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$TMP/profile" \
		--window-size="$w,$h" --screenshot="$2" "file://$(realpath "$1")" \
		> "$TMP/chromium.log" 2>&1
}

for svg in tests/unit/golden/heatmap.svg docs/heatmap.svg; do
	cells=$(grep -c 'data-col=' "$svg")
	if ! render "$svg" "$TMP/out.png" || [ ! -s "$TMP/out.png" ]; then
		fail "heatmap render: $svg" "chromium made no picture: $(tail -n 3 "$TMP/chromium.log")"
		continue
	fi
	got=$(python3 tests/lib/png_cells.py "$svg" "$TMP/out.png")
	expect_eq "heatmap render: $svg, every cell as coloured" \
		"$(echo "$got" | sed 's/^[0-9]*x[0-9]*: //')" "$cells cells, $cells as drawn"
done

# docs/guide.md's picture (docs/heatmap.png, rendered from docs/heatmap.svg as
# above) is true to its SVG.
expect_eq "heatmap render: docs/heatmap.png is docs/heatmap.svg" \
	"$(python3 tests/lib/png_cells.py docs/heatmap.svg docs/heatmap.png)" \
	"498x664: $(grep -c 'data-col=' docs/heatmap.svg) cells, $(grep -c 'data-col=' docs/heatmap.svg) as drawn"

# The checker can fail: the first non-empty cell recoloured in the SVG,
# held against the picture of the original.
render tests/unit/golden/heatmap.svg "$TMP/orig.png"
sed '0,/fill="#f79e4e" data-col/s//fill="#0000ff" data-col/' \
	tests/unit/golden/heatmap.svg > "$TMP/recoloured.svg"
expect_eq "heatmap render: a recoloured cell is caught" \
	"$(python3 tests/lib/png_cells.py "$TMP/recoloured.svg" "$TMP/orig.png" | sed 's/; the first.*//')" \
	"498x278: 16 cells, 1 differ"
