#!/usr/bin/env bash
# One identity: run under another name (xfsdist, btrfsdist, ext4slower,
# as make install links them), the binary prefixes every message with
# that name, and none with "ext4dist:".
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

mkdir "$TMP/test"
for name in xfsdist btrfsdist ext4slower; do
	ln -s "$(realpath "$BIN")" "$TMP/$name"
	ln -s "$(realpath "$TEST_BIN")" "$TMP/test/$name"
done

# as NAME ARGS...: the binary run as NAME; its stderr appended to
# $TMP/NAME.all, where no "ext4dist:" may appear.
as() {
	local name=$1
	shift
	run_bin "$TMP/$name" "$@"
	cat "$TMP/err" >> "$TMP/${name#test/}.all"
}

for name in xfsdist btrfsdist; do
	as "$name" --prometheus /nonexistent/x.prom
	expect_eq "$name --prometheus in a missing directory: exit status" "$RC" 1
	expect_eq "$name --prometheus in a missing directory: message" "$ERR" \
		"$name: --prometheus /nonexistent/x.prom: cannot open its directory /nonexistent: No such file or directory; give a path in an existing, writable directory"
	as "$name" --dump-bpf=refused --prog zzz
	expect_eq "$name --dump-bpf=refused --prog zzz: message" "$ERR" \
		"$name: --dump-bpf=refused: no lesson matches --prog zzz"
	as "$name" -vv 1 1
done
as ext4slower -p 4194304
expect_eq "ext4slower -p 4194304: exit status" "$RC" 1
expect_eq "ext4slower -p 4194304: message" "$ERR" \
	"ext4slower: no process with PID 4194304 (-p): nothing to trace"
as ext4slower --heatmap /nonexistent/h.svg 0
expect_eq "ext4slower --heatmap in a missing directory: message" "$ERR" \
	"ext4slower: --heatmap /nonexistent/h.svg: cannot open its directory /nonexistent: No such file or directory; give a path in an existing, writable directory"
printf 'MemTotal:             64 kB\n' > "$TMP/meminfo"
as test/xfsdist --slower 0 --test-meminfo "$TMP/meminfo"
expect_eq "xfsdist --slower on a 64 KiB machine: exit status" "$RC" 1
expect_eq "xfsdist --slower on a 64 KiB machine: its name first" \
	"${ERR%%: --ring-pages 64: not even rings of one page fit*}" xfsdist
as ext4slower -vv 0

# Where the kernel refuses (no kprobes on this host, or no privileges), the
# engine's refusal is said under the name run as too.
for name in xfsdist btrfsdist ext4slower; do
	as "$name"
	expect_eq "$name, refused by the kernel: exit status" "$RC" 1
	expect_eq "$name, refused by the kernel: its name first" \
		"$(grep -c -v "^$name: " "$TMP/err")" 0
	expect_eq "$name: stderr said something" "$(test -s "$TMP/$name.all" && echo yes)" yes
	expect_eq "$name: no \"ext4dist:\" in any message" \
		"$(grep -c 'ext4dist:' "$TMP/$name.all")" 0
done

# -t names the file system, not the tool: run as ext4dist, ext4dist's.
run_bin "$BIN" -t xfs --prometheus /nonexistent/x.prom
expect_eq "ext4dist -t xfs: ext4dist's name" "${ERR%%:*}" ext4dist
