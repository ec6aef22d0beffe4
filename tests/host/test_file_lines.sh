#!/usr/bin/env bash
# tests/lint/file_lines.sh on a made-up tree: a file over the limit fails
# with its name and length, one at the limit passes.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

mkdir -p "$TMP/src/run"
seq 1 700 > "$TMP/src/run/loop.c"
expect_eq "file lines: 700 lines pass" \
	"$(bash tests/lint/file_lines.sh "$TMP/src"; echo "rc=$?")" \
	"PASS file-lines: no file of $TMP/src/ over 700 lines
rc=0"
seq 1 701 > "$TMP/src/run/queue.h"
expect_eq "file lines: 701 lines fail, named" \
	"$(bash tests/lint/file_lines.sh "$TMP/src"; echo "rc=$?")" \
	"FAIL file-lines: over 700 lines:
  $TMP/src/run/queue.h: 701 lines
rc=1"
