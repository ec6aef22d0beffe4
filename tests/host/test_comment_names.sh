#!/usr/bin/env bash
# tests/lint/comment_names.py on made-up trees: each kind of stale name a
# comment can give fails with its exact line, each kind of live one
# passes, the foreign list serves only what no file has, and a header
# kept "for a.c only" fails when another file includes it.  The lint
# suite runs it on the real tree.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

LINT=$PWD/tests/lint/comment_names.py
T=$TMP/tree

# tree FILE TEXT...: writes FILE of the made-up tree, a line per TEXT.
tree() {
	mkdir -p "$(dirname "$T/$1")"
	local f=$1
	shift
	printf '%s\n' "$@" > "$T/$f"
}

# verdict: the lint's lines on the made-up tree, "why" cut off.
verdict() {
	python3 "$LINT" "$T" | sed 's/, which is nowhere in the tree (.*//'
}

# A clean tree: names of every kind that exist, at another depth too.
rm -rf "$T"
tree src/engine/tally.c '#include "engine/tally_priv.h"' \
	'/* Drains what tally_drain() and struct tally_buf hold (engine/tally.h). */' \
	'int tally_drain(struct tally_buf *b) { return TALLY_SLOTS + b->n; }' \
	'// docs/guide.md says why; see src/engine/ and do_dentry_open.' \
	'static const char *f = "ext4_sync_file";'
tree src/engine/tally.h '/* tally_drain(): engine/tally.c; ext4_sync_file() is traced. */'
tree src/engine/tally_priv.h '/*' ' * For tally.c only.' ' */'
tree docs/guide.md '# guide'
tree tests/lint/foreign-names.txt '# made up' 'do_dentry_open	kernel: fs/open.c'
expect_eq "comment names: a clean tree" "$(verdict)" \
	"PASS lint-comments: 11 names in the comments of 3 files, each in the tree or another project's (1 listed)"

# Each stale kind, one at a time.
# stale NAME WANT LINE...: the verdict on src/engine/stale.c of LINEs is
# WANT, a line per stale name, and the FAIL line counting them.
stale() {
	local name=$1 want=$2
	shift 2
	tree src/engine/stale.c "$@"
	expect_eq "comment names: $name" "$(verdict)" "$want
FAIL lint-comments: $(echo "$want" | wc -l) stale name(s) in comments, 0 needless line(s) in tests/lint/foreign-names.txt"
	rm "$T/src/engine/stale.c"
}
stale "a function that is gone" \
	"src/engine/stale.c:1: the comment names the function tally_gone" \
	'/* Then tally_gone() runs. */'
stale "a struct that is gone, on its own line" \
	"src/engine/stale.c:3: the comment names the type tally_old" \
	'/*' ' * Kept in' ' * struct tally_old.' ' */'
stale "a bare name that is gone" \
	"src/engine/stale.c:1: the comment names the name tracefs_made_up" \
	'/* (tracefs_made_up) releases it. */'
stale "a macro that is gone" \
	"src/engine/stale.c:1: the comment names the name TALLY_GONE" \
	'/* Counted by TALLY_GONE. */'
stale "a file that is gone" \
	"src/engine/stale.c:1: the comment names the file tool/gone.c" \
	'/* The rest is in tool/gone.c. */'
stale "a path the file has left" \
	"src/engine/stale.c:1: the comment names the file tool/tally.c" \
	'/* The rest is in tool/tally.c. */'
stale "a folder that is gone" \
	"src/engine/stale.c:1: the comment names the folder src/tool/" \
	'/* See src/tool/. */'
# A name that only comments give is gone all the same.
tree src/engine/other.c '/* tally_ghost() */'
stale "a name that only another comment gives" \
	"src/engine/other.c:1: the comment names the function tally_ghost
src/engine/stale.c:1: the comment names the function tally_ghost" \
	'/* tally_ghost() */'
rm "$T/src/engine/other.c"

# Comments outside src/, bpf/ and include/ are not read; code there counts.
tree tests/unit/test_x.c '/* tally_nowhere() */' 'int tally_tested(void);'
tree src/engine/later.c '/* tally_tested() */'
expect_eq "comment names: tests' code counts, their comments are not read" \
	"$(verdict | sed 's/^PASS lint-comments: .*/PASS/')" "PASS"
rm "$T/tests/unit/test_x.c" "$T/src/engine/later.c"

# The kernel's source paths need no line; our own folders do not pass as them.
tree src/engine/k.c '/* kernel/kallsyms.c and include/linux/fs.h print it. */'
expect_eq "comment names: the kernel's source paths" \
	"$(verdict | sed 's/^PASS lint-comments: .*/PASS/')" "PASS"
rm "$T/src/engine/k.c"

# A foreign line no comment needs, or one naming what the tree has, fails.
tree tests/lint/foreign-names.txt 'do_dentry_open	kernel: fs/open.c' \
	'tally_drain	ours, listed by mistake' 'vfs_unused	kernel'
expect_eq "comment names: needless lines of the foreign list" "$(verdict)" \
	"tests/lint/foreign-names.txt:2: tally_drain is named by no comment, or is in the tree: drop the line
tests/lint/foreign-names.txt:3: vfs_unused is named by no comment, or is in the tree: drop the line
FAIL lint-comments: 0 stale name(s) in comments, 2 needless line(s) in tests/lint/foreign-names.txt"
tree tests/lint/foreign-names.txt 'do_dentry_open	kernel: fs/open.c'

# A private header included by a file its comment does not name.
tree src/engine/verify.c '#include "engine/tally_priv.h"'
expect_eq "comment names: a header kept for some files, included by another" "$(verdict)" \
	"src/engine/tally_priv.h:1: the comment keeps it \"for tally.c only\"; src/engine/verify.c includes it too
FAIL lint-comments: 1 stale name(s) in comments, 0 needless line(s) in tests/lint/foreign-names.txt"
tree src/engine/tally_priv.h '/* For tally.c and' ' * verify.c only. */'
expect_eq "comment names: ... and passes once the comment names it" \
	"$(verdict | sed 's/^PASS lint-comments: .*/PASS/')" "PASS"

# The exit status.
python3 "$LINT" "$T" > /dev/null
expect_eq "comment names: exit 0 on a clean tree" "$?" 0
tree src/engine/stale.c '/* tally_gone() */'
python3 "$LINT" "$T" > /dev/null
expect_eq "comment names: exit 1 on a stale name" "$?" 1
