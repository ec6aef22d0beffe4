#!/usr/bin/env bash
# tests/lint/link_cycles.py on made-up objects: a circle of three files
# fails with each arrow and its symbols, a file calling itself and a
# chain pass, an object whose source is gone is not read.  The lint suite
# runs it on build/src.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

LINT=$PWD/tests/lint/link_cycles.py

# unit FILE CODE: src/FILE of the made-up tree, compiled into build/src.
unit() {
	mkdir -p "$TMP/src/$(dirname "$1")" "$TMP/build/src/$(dirname "$1")"
	printf '%s\n' "$2" > "$TMP/src/$1"
	cc -c -o "$TMP/build/src/${1%.c}.o" "$TMP/src/$1"
}

unit run/loop.c 'int take(void); int loop(void) { return take(); }'
unit run/queue.c 'int loop(void); int take(void) { return 1; } int drain(void) { return take(); }'
unit plan/plan.c 'int loop(void); int drain(void); int plan(void) { return loop() + drain(); }'
expect_eq "link cycles: a chain passes" \
	"$(python3 "$LINT" "$TMP/build/src" "$TMP/src"; echo "rc=$?")" \
	"PASS link-cycles: 3 files of $TMP/src/, no two calling into each other
rc=0"

unit run/queue.c 'int seen(void); int take(void) { return seen(); }'
unit plan/seen.c 'int plan(void); int seen(void) { return plan(); }'
expect_eq "link cycles: a circle of three fails, each arrow named" \
	"$(python3 "$LINT" "$TMP/build/src" "$TMP/src"; echo "rc=$?")" \
	"FAIL link-cycles: plan/plan.c plan/seen.c run/loop.c run/queue.c call into each other:
  plan/plan.c -> run/loop.c: loop
  plan/seen.c -> plan/plan.c: plan
  run/loop.c -> run/queue.c: take
  run/queue.c -> plan/seen.c: seen
rc=1"

rm "$TMP/src/plan/seen.c"
unit run/queue.c 'int take(void) { return 0; }'
expect_eq "link cycles: an object without its source is not read" \
	"$(python3 "$LINT" "$TMP/build/src" "$TMP/src"; echo "rc=$?")" \
	"PASS link-cycles: 3 files of $TMP/src/, no two calling into each other
rc=0"
