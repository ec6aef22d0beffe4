#!/usr/bin/env bash
# The exporter and the heatmap on this host, before any tracing (this
# kernel has no kprobes): what --listen, --heatmap and -t refuse and
# say, in the order a run meets them; the shipped systemd units
# (packaging/systemd/) as systemd reads them, and how little they let
# the service do.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

# A port held by another process: refused before tracing starts.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); time.sleep(30)' > "$TMP/port" &
holder=$!
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
port=$(cat "$TMP/port")
run_bin "$BIN" --listen "$port"
expect_eq "--listen on a port in use: refused, status 1" "$RC $ERR" \
	"1 ext4dist: --listen $port: cannot listen there: Address already in use; another process listens there (ss -ltnp says which): give another port"
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null

run_bin env -u LISTEN_PID -u LISTEN_FDS "$BIN" --listen systemd
expect_eq "--listen systemd without a socket unit" "$RC $ERR" \
	"1 ext4dist: --listen systemd: no socket was passed (LISTEN_PID and LISTEN_FDS are not set): start ext4dist from its socket unit (packaging/systemd/ext4dist.socket), or give --listen ADDR:PORT"
run_bin env LISTEN_PID=1 LISTEN_FDS=1 "$BIN" --listen systemd
expect_eq "--listen systemd with another process's sockets" "$RC" 1
expect_eq "--listen systemd with another process's sockets: said" \
	"$(echo "$ERR" | sed 's/(\([0-9]*\))$/(PID)/')" \
	"ext4dist: --listen systemd: the sockets were passed to process 1, not to this one (PID)"

# The port is free once it is given back: the run goes on to the kernel.
run_bin "$BIN" --listen "$port" -t ext4,xfs --heatmap "$TMP/h.svg" 1
expect_eq "--listen, -t ext4,xfs, --heatmap: on to the kernel's refusal" \
	"$RC $(echo "$ERR" | cut -c1-40)" \
	"1 ext4dist: this kernel has no kprobes: th"
expect_eq "--heatmap: no file before an output" "$(ls "$TMP" | grep -c 'h\.svg')" 0

run_bin "$BIN" --heatmap /dev/null 1
expect_eq "--heatmap /dev/null: refused" "$RC $ERR" \
	"1 ext4dist: --heatmap /dev/null: a character device, not a regular file; ext4dist replaces the file at every output, so give the path of a regular file or of a new one"
run_bin "$BIN" --heatmap "$TMP/none/h.svg" 1
expect_eq "--heatmap in a missing directory: refused" "$RC $ERR" \
	"1 ext4dist: --heatmap $TMP/none/h.svg: cannot open its directory $TMP/none: No such file or directory; give a path in an existing, writable directory"
ln -sf "$(realpath "$BIN")" "$TMP/ext4slower"
run_bin "$TMP/ext4slower" -t ext4,xfs
expect_eq "ext4slower -t ext4,xfs: one at a time" "$RC $(echo "$ERR" | tail -n 1)" \
	"2 ext4slower: error: argument -t/--type: the slow mode traces one file system at a time"
run_bin "$TMP/ext4slower" --listen 9439
expect_eq "ext4slower --listen: not its option" "$RC $(echo "$ERR" | tail -n 1)" \
	"2 ext4slower: error: unrecognized arguments: --listen"

# The units, as systemd reads them: ExecStart= pointed at this build.
if ! command -v systemd-analyze > /dev/null; then
	fail "systemd units" "no systemd-analyze on this host (apt-get install systemd)"
	exit 0
fi
mkdir -p "$TMP/units"
cp packaging/systemd/ext4dist.socket "$TMP/units/"
sed "s|^ExecStart=/usr/sbin/ext4dist |ExecStart=$(realpath "$BIN") |" \
	packaging/systemd/ext4dist.service > "$TMP/units/ext4dist.service"
expect_eq "systemd units: the service runs the shipped binary's path" \
	"$(grep -c '^ExecStart=/usr/sbin/ext4dist --listen systemd$' packaging/systemd/ext4dist.service)" 1
expect_eq "systemd units: systemd-analyze verify" \
	"$(systemd-analyze verify --man=no "$TMP/units/ext4dist.socket" "$TMP/units/ext4dist.service" 2>&1)" ""
expect_eq "systemd units: the socket on loopback" \
	"$(grep '^ListenStream=' packaging/systemd/ext4dist.socket)" "ListenStream=127.0.0.1:9439"
security=$(systemd-analyze security --offline=yes "$TMP/units/ext4dist.service" 2>&1)
exposure=$(echo "$security" | sed -n 's/.*Overall exposure level for ext4dist.service: \([0-9.]*\).*/\1/p')
expect_eq "systemd units: exposure level at most 4.0 (systemd-analyze security: $exposure)" \
	"$(awk -v e="${exposure:-99}" 'BEGIN { print (e <= 4.0) ? "yes" : "no" }')" yes
expect_eq "systemd units: no Internet socket of its own" \
	"$(echo "$security" | grep -c '^✓ RestrictAddressFamilies=~AF_(INET|INET6)')" 1
expect_eq "systemd units: the capabilities of a tracer and no other" \
	"$(sed -n 's/^CapabilityBoundingSet=//p' packaging/systemd/ext4dist.service)" \
	"CAP_SYS_ADMIN CAP_SYSLOG CAP_SYS_RESOURCE"
