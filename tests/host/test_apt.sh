#!/usr/bin/env bash
# The tolerance of the set-up to an apt index that fails to download
# (tools/apt.sh, tests/deps.sh), without the network: apt-get, apt-cache,
# dpkg, dpkg-query and id are stand-ins on PATH that fail the update a
# given number of times, resolve or not the packages asked, and log every
# call.  A failed update is retried EXT4DIST_APT_TRIES times, then
# tolerated exactly when the packages needed still resolve; nothing ever
# runs dpkg --add-architecture or writes outside the cache.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

FAKE=$TMP/fake
mkdir -p "$FAKE/bin" "$TMP/cache"
export FAKE EXT4DIST_VM_CACHE=$TMP/cache EXT4DIST_APT_TRIES=3 EXT4DIST_APT_PAUSE=0
export FAKE_UPDATE_FAILS=0 FAKE_UNRESOLVED="" FAKE_MISSING="" FAKE_INSTALL_FAILS=""

cat > "$FAKE/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >> "$FAKE/log"
for a; do
	case $a in
	update)
		n=$(($(cat "$FAKE/updates" 2>/dev/null || echo 0) + 1))
		echo "$n" > "$FAKE/updates"
		if [ "$n" -le "$FAKE_UPDATE_FAILS" ]; then
			echo "Err:6 http://mirror.invalid/debian-security bookworm-security/main armhf Packages"
			echo "  File has unexpected size (356624 != 356976). Mirror sync in progress?"
			echo "E: Failed to fetch http://mirror.invalid/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress?"
			echo "E: Some index files failed to download. They have been ignored, or old ones used instead."
			exit 100
		fi
		exit 0 ;;
	install)
		for p; do
			case " $FAKE_INSTALL_FAILS " in *" $p "*) echo "E: Unable to locate package $p" >&2; exit 100 ;; esac
		done
		exit 0 ;;
	esac
done
exit 0
EOF
cat > "$FAKE/bin/apt-cache" <<'EOF'
#!/bin/sh
echo "apt-cache $*" >> "$FAKE/log"
for last; do :; done
case " $FAKE_UNRESOLVED " in
*" $last "*) printf '%s:\n  Installed: (none)\n  Candidate: (none)\n' "$last" ;;
*) printf '%s:\n  Installed: (none)\n  Candidate: 1.0-1\n' "$last" ;;
esac
EOF
cat > "$FAKE/bin/dpkg-query" <<'EOF'
#!/bin/sh
for last; do :; done
case " $FAKE_MISSING " in
*" $last "*) exit 1 ;;
*) printf 'install ok installed' ;;
esac
EOF
cat > "$FAKE/bin/dpkg" <<'EOF'
#!/bin/sh
echo "dpkg $*" >> "$FAKE/log"
case $1 in --print-architecture) echo amd64 ;; esac
EOF
printf '#!/bin/sh\necho 0\n' > "$FAKE/bin/id"
chmod +x "$FAKE"/bin/*
export PATH=$FAKE/bin:$PATH

# reset: a fresh log and update counter.
reset() { rm -f "$FAKE/log" "$FAKE/updates"; }
calls() { [ -e "$FAKE/log" ] || touch "$FAKE/log"; grep -c "^apt-get .*update" "$FAKE/log"; }

# shellcheck source=../../tools/apt.sh
. tools/apt.sh

reset
FAKE_UPDATE_FAILS=2 apt_update_retry apt-get update 2> "$TMP/err"
expect_eq "update failing twice: the third attempt succeeds" "$? $(calls)" "0 3"
expect_eq "update failing twice: each failure said" \
	"$(grep -c '^apt: apt-get update failed (attempt [12] of 3, status 100): again in 0 s$' "$TMP/err")" 2

reset
FAKE_UPDATE_FAILS=9 apt_update_retry apt-get update 2> "$TMP/err"
expect_eq "update failing always: 3 attempts, apt-get's status" "$? $(calls)" "100 3"
expect_eq "update failing always: what failed is kept, not the summary" "$APT_UPDATE_ERRORS" \
	"Err:6 http://mirror.invalid/debian-security bookworm-security/main armhf Packages
E: Failed to fetch http://mirror.invalid/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress?"

apt_tolerate "the lists" apt-cache -- libelf-dev zlib1g-dev 2> "$TMP/err"
expect_eq "tolerated when every package resolves" "$?" 0
expect_eq "tolerated: said, with what failed" "$(cat "$TMP/err")" \
	"apt: the update of the lists failed after 3 attempts; going on: the packages needed still resolve (failed: Err:6 http://mirror.invalid/debian-security bookworm-security/main armhf Packages; E: Failed to fetch http://mirror.invalid/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress?)"
FAKE_UNRESOLVED="zlib1g-dev libzstd-dev" apt_tolerate "the lists" apt-cache -- libelf-dev zlib1g-dev libzstd-dev 2> "$TMP/err"
expect_eq "not tolerated when a package does not resolve" "$?" 1
expect_eq "not tolerated: the packages named" "$(cat "$TMP/err")" \
	"apt: the update of the lists failed and these packages do not resolve: zlib1g-dev libzstd-dev"

# Private lists: the sources, the retries, the stamp that spares a second
# update the same day, the extra source of EXT4DIST_APT_EXTRA_SOURCE.
reset
dir=$(FAKE_UPDATE_FAILS=9 EXT4DIST_APT_EXTRA_SOURCE="deb [arch=armhf] file:/nonexistent bookworm main" \
	apt_private_ready bookworm armhf libelf-dev 2> "$TMP/err")
expect_eq "private lists, index failing, packages resolving: usable" \
	"$? $dir" "0 $TMP/cache/apt-bookworm-armhf"
expect_eq "private lists: 3 updates, each with the private configuration" \
	"$(grep -c "^apt-get .*Dir::Etc::SourceList=$dir/sources.list .*Dir::State::status=$dir/status .*APT::Architecture=armhf .*update$" "$FAKE/log")" 3
read -r main sec <<< "$(apt_mirror_uris 2>/dev/null)"
expect_eq "private lists: the suite, its updates and security, and the extra source" \
	"$(cat "$dir/sources.list")" \
	"deb [arch=armhf signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $main bookworm main
deb [arch=armhf signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $main bookworm-updates main
deb [arch=armhf signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $sec bookworm-security main
deb [arch=armhf] file:/nonexistent bookworm main"
expect_eq "private lists: an empty dpkg status of their own" "$(wc -c < "$dir/status")" 0
reset
EXT4DIST_APT_EXTRA_SOURCE="deb [arch=armhf] file:/nonexistent bookworm main" \
	apt_private_ready bookworm armhf libelf-dev > /dev/null 2>&1
expect_eq "private lists: not updated again the same day" "$(calls)" 0
reset
dir=$(FAKE_UPDATE_FAILS=9 FAKE_UNRESOLVED=libelf-dev apt_private_ready bookworm arm64 libelf-dev 2> "$TMP/err")
expect_eq "private lists, index failing, a package not resolving: refused" "$?" 1
expect_eq "private lists refused: said" "$(tail -n 1 "$TMP/err")" \
	"apt: the update of the private bookworm arm64 lists failed and these packages do not resolve: libelf-dev"
expect_eq "private lists refused: updated again next time" "$([ -e "$TMP/cache/apt-bookworm-arm64/updated" ] || echo not-stamped)" not-stamped

# tests/deps.sh as root on a machine missing one main and one cross package,
# the sysroots already there, the machine's index failing.
for arch in arm64 armhf mipsel s390x riscv64; do
	mkdir -p "$TMP/cache/sysroot-$arch"
	touch "$TMP/cache/sysroot-$arch/.packages"
done
reset
FAKE_UPDATE_FAILS=9 FAKE_MISSING="zstd gcc-arm-linux-gnueabihf" bash tests/deps.sh > "$TMP/out" 2> "$TMP/err"
expect_eq "deps: index failing, packages resolving: exit 0" "$?" 0
expect_eq "deps: 3 updates, then the main and the arm package installed apart" \
	"$(grep -c 'update' "$FAKE/log") $(grep '^apt-get install' "$FAKE/log" | sed 's/.*--no-install-recommends //' | tr '\n' ',')" \
	"3 zstd,gcc-arm-linux-gnueabihf,"
expect_eq "deps: the tolerance said" \
	"$(grep -c "^apt: the update of the machine's apt lists failed after 3 attempts; going on" "$TMP/err")" 1
expect_eq "deps: dpkg asked nothing but its architecture" \
	"$(grep '^dpkg ' "$FAKE/log" | sort -u | tr '\n' ' ')" ""

reset
FAKE_UPDATE_FAILS=9 FAKE_MISSING="zstd" FAKE_UNRESOLVED="zstd" FAKE_INSTALL_FAILS="zstd" \
	bash tests/deps.sh > "$TMP/out" 2> "$TMP/err"
expect_eq "deps: a main package that cannot be had: exit 1" "$?" 1
expect_eq "deps: the main package named" "$(tail -n 1 "$TMP/err")" \
	"deps: apt-get install zstd failed: the build and make check need them"

reset
FAKE_MISSING="qemu-system-arm" FAKE_INSTALL_FAILS="qemu-system-arm" \
	bash tests/deps.sh > "$TMP/out" 2> "$TMP/err"
expect_eq "deps: an arm package that cannot be had: exit 0" "$?" 0
expect_eq "deps: the arm package: a warning" "$(tail -n 1 "$TMP/err")" \
	"deps: WARNING: qemu-system-arm not installed: the cross builds that need them fail and their suites are skipped"

reset
bash tests/deps.sh > "$TMP/out" 2> "$TMP/err"
expect_eq "deps: all there: quiet, no apt-get" "$?:$(cat "$TMP/out" "$TMP/err"):$(calls)" "0::0"
