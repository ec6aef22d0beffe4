#!/usr/bin/env bash
# make dist and make release, reproducible: two clones of this tree (its
# uncommitted changes applied to both) in folders of different depth give
# the same dist tarball; the release made in one clone, with no clang in
# PATH, and the release made later from the dist tarball unpacked
# elsewhere (no .git there) give the same SHA256SUMS.  Each release binary
# equals the one a build with clang makes of the same source, says the
# commit in --version, and its tarball holds exactly the files it should,
# owned by 0:0 and dated at the commit.  arm64 and armhf take part when
# their sysroots are there (make deps fetches them), else say SKIP.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

top=$(pwd)
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
commit=$(make -s --no-print-directory print-COMMIT)
epoch=$(make -s --no-print-directory print-SOURCE_DATE_EPOCH)

arches="x86_64"
for a in arm64 armhf; do
	if [ -e "$(tools/sysroot.sh --path "$a")/.packages" ]; then
		arches="$arches $a"
	else
		echo "SKIP release $a: no $a sysroot ($(tools/sysroot.sh --path "$a"); make deps fetches it)"
	fi
done

# A PATH without clang or any llvm tool: the release must not need them.
mkdir -p "$TMP/noclang"
for f in /usr/local/bin/* /usr/bin/*; do
	case ${f##*/} in
	clang*|llvm*|*-clang*) ;;
	*) [ -e "$TMP/noclang/${f##*/}" ] || ln -s "$f" "$TMP/noclang/${f##*/}" ;;
	esac
done
NOCLANG_PATH=$TMP/noclang:/usr/sbin:/sbin

# clone DIR: a clone of this tree's commit with its uncommitted changes
# and untracked (not ignored) files, so that it builds what this tree does.
clone() {
	git clone -q "$top" "$1" &&
	git diff HEAD --binary | git -C "$1" apply --index --binary --allow-empty &&
	git ls-files -z --others --exclude-standard | tar --null -T - -cf - |
		tar -C "$1" -xf -
}

# md_dead_links DIR: the relative links ([text](path), ![alt](path)) of
# DIR's README.md and docs/*.md whose file is not there, else "no dead
# link"; "no links" when there are none to check.
md_dead_links() {
	local md target n=0 dead=
	for md in "$1"/README.md "$1"/docs/*.md; do
		[ -e "$md" ] || continue
		while IFS= read -r target; do
			n=$((n + 1))
			[ -e "$(dirname "$md")/$target" ] || dead="$dead ${md#"$1"/}:$target"
		done < <(grep -o '](\([^)#:]*\)[^)]*)' "$md" | sed 's/^](\([^)#]*\).*/\1/' | grep -v '^$')
	done
	if [ "$n" = 0 ]; then echo "no links"
	elif [ -n "$dead" ]; then echo "dead:$dead"
	else echo "no dead link"
	fi
}

if ! clone "$TMP/a/ext4dist" || ! clone "$TMP/b/deeper/folder/ext4dist"; then
	fail "clones" "git clone of $top failed"
	exit 0
fi
expect_eq "a clone says the same commit" \
	"$(make -s -C "$TMP/a/ext4dist" --no-print-directory print-COMMIT)" "$commit"

# make dist in both clones, a second apart.
make -s -C "$TMP/a/ext4dist" dist > "$TMP/dist-a.log" 2>&1
sleep 1
make -s -C "$TMP/b/deeper/folder/ext4dist" dist > "$TMP/dist-b.log" 2>&1
dist_a=$TMP/a/ext4dist/build/release/ext4dist-$version.tar.gz
dist_b=$TMP/b/deeper/folder/ext4dist/build/release/ext4dist-$version.tar.gz
if [ -s "$dist_a" ] && cmp -s "$dist_a" "$dist_b"; then
	pass "make dist: the same bytes from two clones in two folders"
else
	fail "make dist: the same bytes from two clones in two folders" \
		"$(ls -l "$dist_a" "$dist_b" 2>&1 | tr '\n' ' ') $(tail -n 3 "$TMP/dist-a.log" "$TMP/dist-b.log" | tr '\n' ' ')"
fi
expect_eq "make dist: the files git tracks and .tarball-version, nothing else" \
	"$(tar -tzf "$dist_a" | grep -v '/$' | sed "s|^ext4dist-$version/||" | sort)" \
	"$( (git ls-files | while IFS= read -r f; do [ -e "$f" ] && echo "$f"; done; echo .tarball-version) | sort)"
expect_eq "make dist: .tarball-version names the commit and its time" \
	"$(tar -xzOf "$dist_a" "ext4dist-$version/.tarball-version")" "$commit $epoch"
expect_eq "make dist: every entry owned by 0:0 and dated at the commit" \
	"$(tar --numeric-owner -tvzf "$dist_a" | awk '{ print $2 }' | sort -u) $(tar --full-time -tvzf "$dist_a" | awk '{ print $4, $5 }' | sort -u)" \
	"0/0 $(date -u -d "@$epoch" '+%Y-%m-%d %H:%M:%S')"

# make release in clone a without clang, then from the dist tarball
# unpacked elsewhere, later, with other file times.
PATH=$NOCLANG_PATH make -s -C "$TMP/a/ext4dist" RELEASE_ARCHES="$arches" release \
	> "$TMP/release-a.log" 2>&1
rel_a=$TMP/a/ext4dist/build/release
mkdir -p "$TMP/c/from/the/tarball"
tar -C "$TMP/c/from/the/tarball" -xzf "$dist_a"
src_c=$TMP/c/from/the/tarball/ext4dist-$version
find "$src_c" -exec touch -h -d '2001-02-03 04:05:06' {} +
sleep 1
PATH=$NOCLANG_PATH make -s -C "$src_c" RELEASE_ARCHES="$arches" release \
	> "$TMP/release-c.log" 2>&1
rel_c=$src_c/build/release
expect_eq "make release: SHA256SUMS names a tarball per architecture" \
	"$(awk '{ print $2 }' "$rel_a/SHA256SUMS" 2>/dev/null | tr '\n' ' ')" \
	"$(for a in $arches; do printf '%s ' "ext4dist-$version-$a.tar.gz"; done)"
if [ -s "$rel_a/SHA256SUMS" ] && cmp -s "$rel_a/SHA256SUMS" "$rel_c/SHA256SUMS"; then
	pass "make release: the same SHA256SUMS from a clone and from the dist tarball elsewhere"
else
	fail "make release: the same SHA256SUMS from a clone and from the dist tarball elsewhere" \
		"$(cat "$rel_a/SHA256SUMS" "$rel_c/SHA256SUMS" 2>&1 | tr '\n' ' ') $(tail -n 5 "$TMP/release-a.log" "$TMP/release-c.log" | tr '\n' ' ')"
fi
expect_eq "make release: the sums are those of the tarballs" \
	"$(cd "$rel_a" && sha256sum -c --quiet SHA256SUMS 2>&1 && echo ok)" ok

for a in $arches; do
	name=ext4dist-$version-$a
	tarball=$rel_a/$name.tar.gz
	expect_eq "release $a: its files" \
		"$(tar -tzf "$tarball" 2>/dev/null | grep -v '/$' | sed "s|^$name/||" | sort | tr '\n' ' ')" \
		"$( (printf 'sbin/%s\n' ext4dist ext4slower xfsdist xfsslower btrfsdist btrfsslower f2fsdist f2fsslower
		     printf 'share/man/man8/%s.8\n' ext4dist ext4slower xfsdist xfsslower btrfsdist btrfsslower f2fsdist f2fsslower
		     printf 'share/doc/ext4dist/%s\n' README.md COPYING BUILDINFO
		     git ls-files docs | sed 's|^|share/doc/ext4dist/|') | sort | tr '\n' ' ')"
	expect_eq "release $a: the links point at ext4dist" \
		"$(tar -tvzf "$tarball" | awk '$6 ~ /sbin\/[a-z0-9]+$/ && $7 == "->" { print $6, $8 }' | sed "s|^$name/sbin/||" | sort | tr '\n' ' ')" \
		"$(printf '%s ext4dist\n' btrfsdist btrfsslower ext4slower f2fsdist f2fsslower xfsdist xfsslower | tr '\n' ' ')"
	expect_eq "release $a: owner 0:0, dated at the commit" \
		"$(tar --numeric-owner --full-time -tvzf "$tarball" | awk '{ print $2, $4, $5 }' | sort -u)" \
		"0/0 $(date -u -d "@$epoch" '+%Y-%m-%d %H:%M:%S')"
	mkdir -p "$TMP/x-$a"
	tar -C "$TMP/x-$a" -xzf "$tarball"
	bin=$TMP/x-$a/$name/sbin/ext4dist
	expect_eq "release $a: every relative link of the Markdown it ships resolves in it" \
		"$(md_dead_links "$TMP/x-$a/$name/share/doc/ext4dist")" "no dead link"
	expect_eq "release $a: its BUILDINFO names the commit" \
		"$(head -n 1 "$TMP/x-$a/$name/share/doc/ext4dist/BUILDINFO" 2>/dev/null)" \
		"ext4dist $version (commit $commit) for $a"
	case $a in
	x86_64) args=(ARCH=x86_64) ;;
	arm64) args=(ARCH=arm64 "SYSROOT=$(tools/sysroot.sh --path arm64)") ;;
	armhf) args=(ARCH=arm "SYSROOT=$(tools/sysroot.sh --path armhf)") ;;
	esac
	# The same source built with clang (the BPF objects fresh from bpf/).
	make -s -j2 -C "$TMP/a/ext4dist" "${args[@]}" CLANG=clang BUILD="$TMP/clang-$a" \
		BIN="$TMP/clang-$a/ext4dist" "$TMP/clang-$a/ext4dist" > "$TMP/clang-$a.log" 2>&1
	if [ -s "$bin" ] && cmp -s "$bin" "$TMP/clang-$a/ext4dist"; then
		pass "release $a: the binary built without clang equals the one built with clang"
	else
		fail "release $a: the binary built without clang equals the one built with clang" \
			"$(ls -l "$bin" "$TMP/clang-$a/ext4dist" 2>&1 | tr '\n' ' ') $(tail -n 3 "$TMP/clang-$a.log" | tr '\n' ' ')"
	fi
	if [ "$a" = x86_64 ]; then
		run_bin "$bin" --version
		expect_eq "release x86_64: --version names the commit" "$OUT" \
			"ext4dist $version (commit $commit)"
		run_bin "$TMP/x-$a/$name/sbin/ext4slower" --version
		expect_eq "release x86_64: ext4slower --version names the commit" "$OUT" \
			"ext4slower $version (commit $commit)"
	else
		expect_eq "release $a: the version is in the binary" \
			"$(grep -q -a -F "ext4dist $version (commit $commit)" "$bin" && echo yes)" yes
	fi
done
expect_eq "make release in a dist tarball: nothing of the folder in the binaries" \
	"$(cat "$rel_c"/build-*/ext4dist | grep -c -a -F "$TMP")" 0
