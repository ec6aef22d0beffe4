# shellcheck shell=bash
# apt for ext4dist's set-up, sourced by tests/deps.sh, tools/sysroot.sh,
# the VM harnesses and .ci/run (bash).
#
# Two kinds of apt use, and neither ever edits /etc/apt or adds a dpkg
# architecture:
#   - the machine's own configuration, for the x86_64 (host) packages that
#     tests/deps.sh installs;
#   - private configurations in the cache (apt_private_ready): their own
#     sources list, lists, package cache and an empty dpkg status, one
#     architecture each, for what is only downloaded and unpacked (kernel
#     packages, busybox-static, the cross sysroots' libraries).
# An index that fails to download is retried (apt_update_retry), then
# tolerated where the packages needed still resolve: one mirror in sync,
# one foreign architecture's index, must not stop the rest.
#
# Environment:
#   EXT4DIST_VM_CACHE     the cache root (default /var/cache/ext4dist-vm,
#                         or ~/.cache/ext4dist-vm where that is not writable)
#   EXT4DIST_APT_TRIES    apt-get update attempts (default 3)
#   EXT4DIST_APT_PAUSE    seconds between them (default 5)
#   EXT4DIST_APT_EXTRA_SOURCE  one more "deb ..." line for every private
#                         sources list, to prove the tolerance with an
#                         entry that fails ("deb [arch=armhf]
#                         file:/nonexistent bookworm main": no Release
#                         file, apt-get update exits 100; a mirror that
#                         cannot be reached is only a warning to apt)

apt_log() { echo "apt: $*" >&2; }

# ext4dist_cache_root: the cache of kernels, private apt lists and
# sysroots; created when missing.
ext4dist_cache_root() {
	if [ -n "${EXT4DIST_VM_CACHE:-}" ]; then
		mkdir -p "$EXT4DIST_VM_CACHE" && echo "$EXT4DIST_VM_CACHE"
	elif mkdir -p /var/cache/ext4dist-vm 2>/dev/null && [ -w /var/cache/ext4dist-vm ]; then
		echo /var/cache/ext4dist-vm
	else
		mkdir -p "${XDG_CACHE_HOME:-$HOME/.cache}/ext4dist-vm" &&
			echo "${XDG_CACHE_HOME:-$HOME/.cache}/ext4dist-vm"
	fi
}

# apt_host_suite: the Debian suite of this machine (bookworm when
# /etc/os-release does not say).
apt_host_suite() {
	local s=""
	[ ! -r /etc/os-release ] || s=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	echo "${s:-bookworm}"
}

# apt_host_arch: the machine's dpkg architecture (amd64, arm64...).
apt_host_arch() {
	dpkg --print-architecture 2>/dev/null || echo amd64
}

# apt_mirror_uris: "MAIN SECURITY", the Debian mirror URIs of the machine's
# /etc/apt/sources.list.d/debian.sources (deb822: the stanza whose suites
# end in -security gives SECURITY), else deb.debian.org's (said on stderr).
apt_mirror_uris() {
	local f=/etc/apt/sources.list.d/debian.sources uris=""
	[ ! -r "$f" ] || uris=$(awk '
	function flush() {
		if (uri != "" && deb) {
			if (sec) { if (s == "") s = uri }
			else if (m == "") m = uri
		}
		uri = ""; sec = 0; deb = 1
	}
	BEGIN { deb = 1 }
	/^[ \t]*$/ { flush(); next }
	/^#/ { next }
	/^Types:/ { deb = ($0 ~ /[ \t]deb([ \t]|$)/) }
	/^URIs:/ { uri = $2 }
	/^Suites:/ { sec = ($0 ~ /-security/) }
	END { flush(); if (m != "" && s != "") print m, s }' "$f")
	if [ -z "$uris" ]; then
		apt_log "no Debian mirror found in $f: using deb.debian.org"
		uris="http://deb.debian.org/debian http://deb.debian.org/debian-security"
	fi
	echo "$uris"
}

# apt_private DIR ARCH CMD ARG...: runs apt-get or apt-cache (CMD) with the
# private configuration in DIR (sources.list, lists/, cache/, an empty
# status) for ARCH packages only.  The machine's /etc/apt settings other
# than its sources (proxy, retries) still apply; its pinning does not.
# As root, apt-get would drop to _apt, which cannot write into DIR: it
# stays root.
apt_private() {
	local d=$1 arch=$2 cmd=$3
	local -a opts=()
	shift 3
	if [ "$cmd" = apt-get ] && [ "$(id -u)" = 0 ]; then
		opts+=(-o APT::Sandbox::User=root)
	fi
	"$cmd" "${opts[@]}" \
		-o "Dir::Etc::SourceList=$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" \
		-o "Dir::State::status=$d/status" \
		-o "APT::Architecture=$arch" -o "APT::Architectures=$arch" \
		"$@"
}

# apt_update_retry CMD...: runs CMD (an "apt-get update" of some
# configuration) up to EXT4DIST_APT_TRIES times, EXT4DIST_APT_PAUSE
# seconds apart, until it succeeds; its output goes to stderr, the lines
# naming what failed are kept in APT_UPDATE_ERRORS.  Returns the last
# attempt's status.
apt_update_retry() {
	local tries=${EXT4DIST_APT_TRIES:-3} pause=${EXT4DIST_APT_PAUSE:-5}
	local i=1 rc log
	APT_UPDATE_ERRORS=""
	log=$(mktemp)
	while :; do
		"$@" > "$log" 2>&1
		rc=$?
		cat "$log" >&2
		[ "$rc" -ne 0 ] || break
		APT_UPDATE_ERRORS=$(grep -E '^(Err:|E: )' "$log" | grep -v '^E: Some index files failed' || true)
		[ "$i" -lt "$tries" ] || break
		apt_log "apt-get update failed (attempt $i of $tries, status $rc): again in $pause s"
		sleep "$pause"
		i=$((i + 1))
	done
	rm -f "$log"
	return "$rc"
}

# apt_failed: what the last failed update said failed, on one line.
apt_failed() {
	printf '%s\n' "$APT_UPDATE_ERRORS" | head -n 3 | paste -sd ';' | sed 's/;/; /g'
}

# apt_candidate CMD... -- PKG: the version apt would install of PKG
# (empty when none), asking "CMD policy PKG" (CMD is apt-cache with its
# options, or a function that runs it).
apt_candidate() {
	local -a cmd=()
	while [ "$1" != -- ]; do cmd+=("$1"); shift; done
	shift
	"${cmd[@]}" policy "$1" 2>/dev/null |
		sed -n 's/^  Candidate: //p' | grep -vx '(none)' | head -n 1
}

# apt_unresolved CMD... -- PKG...: prints the PKGs without a candidate.
apt_unresolved() {
	local -a cmd=()
	local p
	while [ "$1" != -- ]; do cmd+=("$1"); shift; done
	shift
	for p in "$@"; do
		[ -n "$(apt_candidate "${cmd[@]}" -- "$p")" ] || echo "$p"
	done
}

# apt_tolerate WHAT CMD... -- PKG...: after a failed update of WHAT: true
# when every PKG still has a candidate (said, with what failed), else
# false with the packages that do not.
apt_tolerate() {
	local what=$1 missing
	shift
	missing=$(apt_unresolved "$@" | tr '\n' ' ')
	if [ -z "$missing" ]; then
		apt_log "the update of $what failed after ${EXT4DIST_APT_TRIES:-3} attempts; going on: the packages needed still resolve${APT_UPDATE_ERRORS:+ (failed: $(apt_failed))}"
		return 0
	fi
	apt_log "the update of $what failed and these packages do not resolve: ${missing% }"
	return 1
}

# apt_private_dir SUITE ARCH: the private configuration of SUITE for ARCH
# in the cache (shared by the sysroots and the VM harnesses).
apt_private_dir() {
	echo "$(ext4dist_cache_root)/apt-$1-$2"
}

# apt_private_ready SUITE ARCH [PKG...]: prints the private configuration
# directory of SUITE for ARCH after writing its sources list (SUITE,
# SUITE-updates and SUITE-security, main, from the machine's mirrors; sid
# alone,
# signed by Debian's archive keyring) and updating its lists when they are
# missing, older than a day or of another sources list.  A failed update
# is retried, then tolerated when every PKG resolves (without PKG: when
# some lists are there to resolve from).  Returns 1 when not tolerated.
apt_private_ready() {
	local suite=$1 arch=$2 d main sec
	shift 2
	d=$(apt_private_dir "$suite" "$arch")
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" || return 1
	[ -e "$d/status" ] || : > "$d/status"
	read -r main sec <<< "$(apt_mirror_uris)"
	{
		if [ "$suite" = sid ]; then
			# unstable has no -updates or -security suite.
			printf 'deb [arch=%s signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
				"$arch" "$main" "$suite"
		else
			printf 'deb [arch=%s signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
				"$arch" "$main" "$suite" "$arch" "$main" "$suite-updates" \
				"$arch" "$sec" "$suite-security"
		fi
		[ -z "${EXT4DIST_APT_EXTRA_SOURCE:-}" ] || echo "$EXT4DIST_APT_EXTRA_SOURCE"
	} > "$d/sources.list.new"
	if ! cmp -s "$d/sources.list.new" "$d/sources.list"; then
		mv "$d/sources.list.new" "$d/sources.list"
		rm -f "$d/updated"
	else
		rm -f "$d/sources.list.new"
	fi
	if [ -z "$(find "$d/updated" -mmin -1440 2>/dev/null)" ]; then
		apt_log "apt-get update of the private $suite $arch lists ($d)"
		if ! apt_update_retry apt_private "$d" "$arch" apt-get -q update; then
			if [ $# -gt 0 ]; then
				apt_tolerate "the private $suite $arch lists" \
					apt_private "$d" "$arch" apt-cache -- "$@" || return 1
			elif ls "$d"/lists/*_Packages* > /dev/null 2>&1; then
				apt_log "the update of the private $suite $arch lists failed; going on with the lists that came${APT_UPDATE_ERRORS:+ (failed: $(apt_failed))}"
			else
				apt_log "the update of the private $suite $arch lists failed and no list came"
				return 1
			fi
		fi
		touch "$d/updated"
	fi
	echo "$d"
}
