# shellcheck shell=dash disable=SC3043,SC2034,SC2153 # busybox ash has local; lib.sh reads OUT, ERR, EPID and sets WPID
# The exporter's scenarios (sourced by scenarios.sh): ext4dist --listen
# scraped by a real Prometheus (Debian's 2.42, run from its package) while
# a known workload runs, its increase() of each operation's count exact
# and its histogram_quantile() that of ext4dist's own JSON; the
# --prometheus textfile read by a real node_exporter (Debian's 1.5); the
# wire and the textfile the same series; clients that must be cut off
# while tracing loses nothing; socket activation as the shipped units
# ask for it, with their capabilities only; the heatmap held against the
# JSON of the same run, cell by cell.
#
# The x86 harness puts prometheus, node_exporter and httpc in /bin and
# names them in /guest/fleet-tools; a guest without that list (the ARM
# harnesses) says on the console that these scenarios do not run there.

PROM=127.0.0.1:9090
NODE=127.0.0.1:9100
# Distinct counts for the second file system: a mix-up cannot pass.
O2=3 R2=4 W2=6 F2=2

# fleet_note TEXT: progress on the console (not the results port).
fleet_note() {
	echo "fleet: $* at $(cut -d' ' -f1 /proc/uptime) s"
}

# fleet_tools NAME TOOL...: 0 when every TOOL is in /bin (and the
# loopback interface up: /init leaves it down); else FAIL NAME where the
# harness meant to provide them, a console line elsewhere.
fleet_tools() {
	local name=$1 t missing=""
	shift
	for t in "$@"; do
		[ -x "/bin/$t" ] || missing="$missing $t"
	done
	if [ -z "$missing" ]; then
		ip link set lo up
		return 0
	fi
	if [ -e /guest/fleet-tools ]; then
		fail "$name" "no$missing in the guest: the host could not fetch Debian's package (see the run's log)"
	else
		echo "fleet: no$missing in this guest: $name does not run here"
	fi
	return 1
}

# json_value FILE EXPR: the "value" of the first series of a Prometheus
# instant query's answer, "none" when it has none.
json_value() {
	local v
	v=$(sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p' "$1")
	echo "${v:-none}"
}

# prom_ask EXPR [TIME]: Prometheus' answer in $WORK/q.json; 1 when it
# gave none.
prom_ask() {
	httpc query "$PROM" "$1" ${2:+"$2"} > "$WORK/q.json" 2> "$WORK/q.err"
}

# prom_query NAME EXPR [TIME]: prom_ask, FAIL NAME when there is no answer.
prom_query() {
	prom_ask "$2" ${3:+"$3"} && return 0
	fail "$1" "Prometheus did not answer '$2'" "$WORK/q.err"
	return 1
}

# prom_samples EXPR: the raw samples of EXPR over the last 10 minutes,
# "TIME VALUE" a line (Prometheus' own timestamps, in seconds with ms).
prom_samples() {
	httpc query "$PROM" "$1[10m]" 2> /dev/null |
		sed -n 's/.*"values":\[\[\(.*\)\]\].*/\1/p' |
		sed 's/\],\[/;/g' | tr ';' '\n' | tr -d '"' | tr ',' ' '
}

PROM_PID=""
# prom_start NAME TARGET: Prometheus scraping TARGET every second, its
# database in tmpfs; waits (up to 180 s under emulation) until the
# target is up.  1 (with FAIL NAME) when it is not.
prom_start() {
	local name=$1 i=0 up
	rm -rf /tmp/prom
	mkdir -p /tmp/prom/data
	cat > /tmp/prom/prometheus.yml <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: ext4dist
    static_configs:
      - targets: ['$2']
EOF
	(cd /tmp/prom && exec prometheus --config.file=prometheus.yml \
		--storage.tsdb.path=data --web.listen-address="$PROM") \
		> "$WORK/prometheus.log" 2>&1 &
	PROM_PID=$!
	while [ "$i" -lt 360 ]; do
		if prom_ask 'up{job="ext4dist"}'; then
			up=$(json_value "$WORK/q.json")
			[ "$up" != 1 ] || return 0
		fi
		running "$PROM_PID" || break
		i=$((i + 1))
		sleep 0.5
	done
	fail "$name" "Prometheus did not scrape $2 within 180 s (up: ${up:-no answer})" \
		"$WORK/prometheus.log"
	return 1
}

prom_stop() {
	[ -n "$PROM_PID" ] || return 0
	kill "$PROM_PID" 2> /dev/null || true
	wait_exit "$PROM_PID" 30 || true
	PROM_PID=""
}

# prom_exact NAME SERIES WANT: increase(SERIES[D]) at the time of its last
# sample, D reaching back exactly to its first (so that Prometheus has
# nothing to extrapolate), is WANT.  Sets T1 and D for the caller.
prom_exact() {
	local name=$1 series=$2 want=$3 samples t0
	samples=$(prom_samples "$series")
	t0=$(echo "$samples" | head -n 1 | cut -d' ' -f1)
	T1=$(echo "$samples" | tail -n 1 | cut -d' ' -f1)
	if [ -z "$t0" ] || [ "$t0" = "$T1" ]; then
		fail "$name" "fewer than two samples of $series" "$WORK/prometheus.log"
		return 0
	fi
	D=$(awk -v a="$t0" -v b="$T1" 'BEGIN { printf "%d", (b - a) * 1000 + 0.5 }')
	prom_query "$name" "increase($series[${D}ms])" "$T1" || return 0
	check "$name" "$(json_value "$WORK/q.json")" "$want" "$WORK/q.json"
}

# json_total FILE FS OP: the count of OP in every JSON line of FS.
json_total() {
	grep "\"fs\":\"$2\"" "$1" |
		sed -n "s/.*\"$3\":{\"buckets\":\[[^]]*\],\"count\":\([0-9]*\).*/\1/p" |
		awk '{ n += $1 } END { printf "%d\n", n }'
}

# json_quantile FILE FS OP Q: Prometheus' histogram_quantile(Q) of the
# buckets of OP summed over FS's JSON lines, in seconds (usecs buckets:
# the bucket of slot s ends at 2^s us).
json_quantile() {
	grep "\"fs\":\"$2\"" "$1" |
		sed -n "s/.*\"$3\":{\"buckets\":\[\([^]]*\)\].*/\1/p" |
		sed 's/},{/}\n{/g' |
		sed -n 's/.*"high":\([0-9]*\),"count":\([0-9]*\).*/\1 \2/p' |
		awk -v q="$4" '
		{
			s = 0; h = $1 + 1
			while (h > 1) { h /= 2; s++ }
			n[s] += $2; total += $2
		}
		END {
			# No ^ in busybox awk: the bounds by doubling.
			rank = q * total; cum = 0; hi = 1e-6
			for (s = 1; s < 64; s++) {
				hi *= 2
				prev = cum; cum += n[s]
				if (cum >= rank) break
			}
			# Past the last finite bucket: its bound, as Prometheus.
			if (s == 64) { printf "%.17g\n", hi; exit }
			lo = s == 1 ? 0 : hi / 2
			printf "%.17g\n", lo + (hi - lo) * ((rank - prev) / (cum - prev))
		}'
}

# close_enough A B: the same number within a relative 1e-9 (Prometheus
# prints a float64 in Go's shortest form, awk computes the same formula).
close_enough() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = a < 0 ? -a : a
		exit !(a == a + 0 && b == b + 0 && d <= 1e-9 * m)
	}'
}

# fleet_workloads FSLIST: a workload on each file system of FSLIST (ext4:
# O R W F; xfs: O2 R2 W2 F2), waiting on $WORK/go; their pids in WPIDS.
fleet_workloads() {
	local fs
	rm -f "$WORK/go"
	WPIDS=""
	for fs in $(echo "$1" | tr ',' ' '); do
		case $fs in
		ext4) set -- "$O" "$R" "$W" "$F" ;;
		*) set -- "$O2" "$R2" "$W2" "$F2" ;;
		esac
		workload -g "$WORK/go" "/mnt/$fs/fleet-$$" "$@" > "$WORK/fleet-$fs.wl" 2>&1 &
		WPIDS="$WPIDS $!"
	done
}

fleet_release() {
	local p rc=0
	touch "$WORK/go"
	for p in $WPIDS; do
		wait "$p" || rc=1
	done
	return "$rc"
}

# want_of FS OP: the workload's calls of OP on FS.
want_of() {
	case $1-$2 in
	ext4-open) echo "$O" ;; ext4-read) echo "$R" ;;
	ext4-write) echo "$W" ;; ext4-fsync) echo "$F" ;;
	*-open) echo "$O2" ;; *-read) echo "$R2" ;;
	*-write) echo "$W2" ;; *-fsync) echo "$F2" ;;
	esac
}

metric_of() {
	case $1 in
	ext4) echo ext4dist ;; xfs) echo xfsdist ;;
	esac
}

# fleet_fss: ext4, and xfs beside it where the kernel has xfs.
fleet_fss() {
	if family_mount xfs vdf > /dev/null 2>&1; then
		echo ext4,xfs
	else
		echo ext4
	fi
}

# fleet_stop NAME: ext4dist (EPID) stopped with SIGINT, exit status 0 and
# nothing left in kprobe_events; 1 (FAIL) otherwise.
fleet_stop() {
	kill -INT "$EPID" 2> /dev/null || true
	if ! wait_exit "$EPID" 30; then
		fail "$1-exit" "ext4dist did not exit within 30 s of SIGINT" "$OUT" "$ERR"
		return 1
	fi
	check "$1-exit" "status $RC, events left: $(our_events "${EPID}_" | wc -l)" \
		"status 0, events left: 0" "$OUT" "$ERR"
}

# --- A real Prometheus scrapes ext4dist -t ext4,xfs --listen while the
# workloads run: increase() of every operation's count over the run is
# the workload's exactly, histogram_quantile() that of the JSON ext4dist
# printed meanwhile (whose intervals add up to the workload too: the
# scrapes' drains took nothing from them).
scenario_fleet_prometheus() {
	local name=fleet-prometheus fss fs op want q j p
	fleet_tools "$name" prometheus httpc || return 0
	fss=$(fleet_fss)
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	fleet_workloads "$fss"
	ext4dist -t "$fss" --listen 127.0.0.1:9435 -j 2 > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$ERR" 60; then
		fail "$name" "no banner from ext4dist -t $fss --listen" "$OUT" "$ERR"
		kill -9 "$EPID" $WPIDS 2> /dev/null || true
		return 0
	fi
	fleet_note "ext4dist -t $fss up, starting Prometheus"
	if ! prom_start "$name" 127.0.0.1:9435; then
		prom_stop
		kill -9 "$EPID" $WPIDS 2> /dev/null || true
		return 0
	fi
	# Its first scrape is in: every series starts at 0 before the work.
	fleet_note "Prometheus scrapes, releasing the workloads"
	fleet_release || fail "$name-workload" "a workload failed" "$WORK"/fleet-*.wl
	# Two more scrapes after the last call.
	sleep 3
	for fs in $(echo "$fss" | tr ',' ' '); do
		fleet_note "querying $fs"
		for op in read write open fsync; do
			want=$(want_of "$fs" "$op")
			prom_exact "$name-$fs-$op-increase" \
				"$(metric_of "$fs")_latency_seconds_count{fs=\"$fs\",op=\"$op\"}" "$want"
		done
		for op in write fsync; do
			for q in 0.5 0.9 0.99; do
				prom_query "$name" "histogram_quantile($q, increase($(metric_of "$fs")_latency_seconds_bucket{fs=\"$fs\",op=\"$op\"}[${D}ms]))" "$T1" || continue
				QS="${QS:-} $fs-$op-$q=$(json_value "$WORK/q.json")"
			done
		done
		# The loss and in-flight series came along, all 0 here.
		prom_query "$name" "count($(metric_of "$fs")_untimed_calls_total{fs=\"$fs\"})" || continue
		check "$name-$fs-untimed-series" "$(json_value "$WORK/q.json")" 20 "$WORK/q.json"
		prom_query "$name" "sum($(metric_of "$fs")_untimed_calls_total{fs=\"$fs\"}) + sum($(metric_of "$fs")_calls_in_flight{fs=\"$fs\"})" || continue
		check "$name-$fs-untimed-zero" "$(json_value "$WORK/q.json")" 0 "$WORK/q.json"
	done
	fleet_note "stopping Prometheus"
	prom_stop
	fleet_note "stopping ext4dist"
	fleet_stop "$name" || return 0
	# The JSON of the same run: every interval's counts add up to the
	# workload, and its quantiles are Prometheus'.
	for fs in $(echo "$fss" | tr ',' ' '); do
		for op in read write open fsync; do
			check "$name-$fs-$op-json" "$(json_total "$OUT" "$fs" "$op")" \
				"$(want_of "$fs" "$op")" "$OUT"
		done
	done
	for p in $QS; do
		q=${p#*=}
		set -- $(echo "${p%%=*}" | tr '-' ' ')
		j=$(json_quantile "$OUT" "$1" "$2" "$3")
		if close_enough "$q" "$j"; then
			pass "$name-$1-$2-p$3"
		else
			fail "$name-$1-$2-p$3" "Prometheus' histogram_quantile $q, the JSON's $j" "$OUT"
		fi
	done
	QS=""
}

# --- A real node_exporter reads the --prometheus textfile (its textfile
# collector): no scrape error, every series of the file served with its
# value; and ext4dist's own --listen serves the file's very bytes once
# the counts are still.
scenario_fleet_node_exporter() {
	local name=fleet-node-exporter fss tf=/tmp/textfile ne_pid wire rc
	fleet_tools "$name" node_exporter httpc || return 0
	fss=$(fleet_fss)
	rm -rf "$tf"
	mkdir -p "$tf"
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	fleet_workloads "$fss"
	ext4dist -t "$fss" --prometheus "$tf/ext4dist.prom" --listen 127.0.0.1:9436 1 \
		> "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "$name" "no banner from ext4dist --prometheus --listen" "$OUT" "$ERR"
		kill -9 "$EPID" $WPIDS 2> /dev/null || true
		return 0
	fi
	fleet_release || fail "$name-workload" "a workload failed" "$WORK"/fleet-*.wl
	# Two outputs after the last call: the file holds every call.
	sleep 2.5
	node_exporter --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$tf" --web.listen-address="$NODE" \
		> "$WORK/node_exporter.log" 2>&1 &
	ne_pid=$!
	rc=1
	for _ in $(seq 1 120); do
		if httpc get "$NODE" /metrics > "$WORK/node.metrics" 2> /dev/null; then
			rc=0
			break
		fi
		sleep 0.5
	done
	if [ "$rc" != 0 ]; then
		fail "$name" "node_exporter did not answer within 60 s" "$WORK/node_exporter.log"
	else
		check "$name-scrape-error" "$(grep '^node_textfile_scrape_error ' "$WORK/node.metrics")" \
			"node_textfile_scrape_error 0" "$WORK/node.metrics" "$WORK/node_exporter.log"
		# Every series of the file, its value as node_exporter serves
		# it (it prints le and values in Go's float format: compared
		# as numbers).
		check "$name-series" "$(fleet_series_diff "$tf/ext4dist.prom" "$WORK/node.metrics")" \
			"$(grep -vc '^#' "$tf/ext4dist.prom") of $(grep -vc '^#' "$tf/ext4dist.prom") series served, 0 differ" \
			"$tf/ext4dist.prom"
		check "$name-help" "$(grep '^# HELP .*dist_' "$WORK/node.metrics" | sort | md5sum)" \
			"$(grep '^# HELP ' "$tf/ext4dist.prom" | sort | md5sum)" "$WORK/node.metrics"
		for fs in $(echo "$fss" | tr ',' ' '); do
			for op in read write open fsync; do
				check "$name-$fs-$op" \
					"$(sed -n "s/^$(metric_of "$fs")_latency_seconds_count{fs=\"$fs\",op=\"$op\"} //p" "$tf/ext4dist.prom")" \
					"$(want_of "$fs" "$op")" "$tf/ext4dist.prom"
			done
		done
	fi
	kill "$ne_pid" 2> /dev/null || true
	wait_exit "$ne_pid" 10 || true
	# The wire: the file's bytes (the counts are still since its last write).
	httpc get 127.0.0.1:9436 /metrics > "$WORK/wire.answer" 2> /dev/null || true
	wire=$(tr -d '\r' < "$WORK/wire.answer" | sed '1,/^$/d' | md5sum)
	check "$name-wire-is-file" "$wire" "$(md5sum < "$tf/ext4dist.prom")" \
		"$WORK/wire.answer" "$tf/ext4dist.prom"
	fleet_stop "$name" || return 0
}

# fleet_series_diff FILE SERVED: how many series of FILE SERVED has with
# the same value, le and values compared as numbers.
fleet_series_diff() {
	awk '
	function key(line,   k, le) {
		k = line
		sub(/ [^ ]*$/, "", k)
		if (match(k, /le="[^"]*"/)) {
			le = substr(k, RSTART + 4, RLENGTH - 5)
			if (le != "+Inf")
				le = sprintf("%.17g", le + 0)
			k = substr(k, 1, RSTART - 1) "le=\"" le "\"" substr(k, RSTART + RLENGTH)
		}
		return k
	}
	/^#/ { next }
	FNR == NR { want[key($0)] = $NF + 0; n++; next }
	{ got[key($0)] = $NF + 0 }
	END {
		for (k in want) {
			if (k in got) { served++; if (got[k] != want[k]) differ++ }
		}
		printf "%d of %d series served, %d differ\n", served, n, differ
	}' "$1" "$2"
}

# fleet_rss PID: the process's peak resident memory in kB (VmHWM).
fleet_rss() {
	sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status"
}

# --- Clients that must be cut off, while ext4dist -p traces the
# workload: 300 connections holding half a request, 1 MB of header
# fields, noise, and two scrapers at once; every call still counted,
# each bad client cut off within its deadline, memory and descriptors as
# before.
fleet_attack() {
	local a=127.0.0.1:9437
	FDS_BEFORE=$(ls /proc/"$EPID"/fd | wc -l)
	httpc hold "$a" 300 > "$WORK/hold.out" 2>&1 &
	HOLD_PID=$!
	httpc big "$a" 1048576 > "$WORK/big.out" 2>&1 &
	BIG_PID=$!
	httpc junk "$a" 65536 > "$WORK/junk.out" 2>&1 &
	JUNK_PID=$!
	httpc scrape "$a" 20 50 > "$WORK/scrape1.out" 2>&1 &
	S1_PID=$!
	httpc scrape "$a" 20 50 > "$WORK/scrape2.out" 2>&1 &
	S2_PID=$!
	sleep 0.5
	# A scrape in the middle of it all is answered at once.
	T_SCRAPE=$(cut -d' ' -f1 /proc/uptime)
	httpc get "$a" /metrics > "$WORK/mid.answer" 2>&1 || true
	T_SCRAPE=$(awk -v a="$T_SCRAPE" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%d", (b - a) * 1000 }')
}

fleet_attack_end() {
	for p in $HOLD_PID $BIG_PID $JUNK_PID $S1_PID $S2_PID; do
		wait "$p" 2> /dev/null || true
	done
	FDS_AFTER=$(ls /proc/"$EPID"/fd | wc -l)
	RSS_PEAK=$(fleet_rss "$EPID")
}

scenario_fleet_hostile() {
	local name=fleet-hostile ms
	fleet_tools "$name" httpc || return 0
	# 10 rounds 0.3 s apart: the calls go on through the attack.
	WORKLOAD_OPTS="-n 10 -s 300" TRACED_HOOK=fleet_attack TRACED_POST_HOOK=fleet_attack_end \
		traced_run "$name" /mnt/ext4/fleet-hostile $O $R $W $F \
		--listen 127.0.0.1:9437 -p @PID@ || { TRACED_HOOK=""; TRACED_POST_HOOK=""; return 0; }
	TRACED_HOOK="" TRACED_POST_HOOK="" WORKLOAD_OPTS=""
	expect_counts "$name-counts" \
		"open=$((O * 10)) read=$((R * 10)) write=$((W * 10)) fsync=$((F * 10))"
	check "$name-scrape-during" "$(head -n 1 "$WORK/mid.answer" | tr -d '\r'), in time: $([ "$T_SCRAPE" -lt 3000 ] && echo yes || echo "no ($T_SCRAPE ms)")" \
		"HTTP/1.1 200 OK, in time: yes" "$WORK/mid.answer"
	ms=$(sed -n 's/.*each within \([0-9]*\) ms.*/\1/p' "$WORK/hold.out")
	check "$name-held" "$(sed 's/, each within.*//' "$WORK/hold.out"), within the read deadline: $([ "${ms:-99999}" -le 7000 ] && echo yes || echo "no ($ms ms)")" \
		"300 of 300 held connections cut off by the server, within the read deadline: yes" "$WORK/hold.out"
	check "$name-big-headers" "$(sed 's/, closed after.*//' "$WORK/big.out")" \
		"HTTP/1.1 431 Request Header Fields Too Large" "$WORK/big.out"
	check "$name-junk" "$(sed 's/, closed after.*//' "$WORK/junk.out")" \
		"HTTP/1.1 400 Bad Request" "$WORK/junk.out"
	check "$name-two-scrapers" "$(cat "$WORK/scrape1.out" "$WORK/scrape2.out" | tr '\n' ' ')" \
		"20 scrapes consistent 20 scrapes consistent " "$WORK/scrape1.out" "$WORK/scrape2.out"
	check "$name-fds" "$FDS_AFTER" "$FDS_BEFORE"
	# The server's buffers are bounded (64 connections of 8 KiB): with
	# tracing, ext4dist stays within a few MiB however hard it is hit.
	check "$name-memory" "peak RSS below 8 MiB: $([ "${RSS_PEAK:-99999}" -lt 8192 ] && echo yes || echo "no (${RSS_PEAK} kB)")" \
		"peak RSS below 8 MiB: yes"
}

# svg_cells FILE PANEL: "COL SLOT COUNT" of every cell of a panel.
svg_cells() {
	sed -n "/id=\"$2\"/,/<\/svg>/p" "$1" |
		sed -n 's/.*data-col="\([0-9]*\)" data-slot="\([0-9]*\)" data-count="\([0-9]*\)".*/\1 \2 \3/p'
}

# json_cells FILE FS OP: the same cells from ext4dist's JSON lines (a
# line an interval, a column a line), between the lowest and the highest
# slot with calls.
json_cells() {
	grep "\"fs\":\"$2\"" "$1" |
		sed "s/.*\"$3\":{\"buckets\":\[\([^]]*\)\].*/\1/" |
		awk '
		{
			n = split($0, b, /\},\{/)
			for (i = 1; i <= n; i++) {
				if (!match(b[i], /"high":[0-9]+,"count":[0-9]+/))
					continue
				split(substr(b[i], RSTART, RLENGTH), kv, /[:,]/)
				h = kv[2] + 1; s = 0
				while (h > 1) { h /= 2; s++ }
				c[NR - 1, s] += kv[4]
				if (!lo || s < lo) lo = s
				if (s > hi) hi = s
			}
			cols = NR
		}
		END {
			for (s = hi; s >= lo && lo; s--)
				for (col = 0; col < cols; col++)
					printf "%d %d %d\n", col, s, c[col, s]
		}'
}

# svg_to_console NAME FILE: the picture on the console (not the results
# port) between markers, for the host to take out (docs/heatmap.svg).
svg_to_console() {
	echo "EXT4DIST-SVG-BEGIN $1"
	cat "$2"
	echo "EXT4DIST-SVG-END $1"
}

# --- The heatmap: ext4dist --heatmap with an interval, a column a JSON
# line, every cell's count that line's bucket; ext4slower --heatmap, a
# cell the events of its second and bucket, from its own JSON events.
scenario_fleet_heatmap() {
	local name=fleet-heatmap op got want cols
	WORKLOAD_OPTS="-n 4 -s 1200 -b 65536" traced_run "$name" /mnt/ext4/fleet-heat \
		$O $R $W $F -j --heatmap /tmp/heat.svg -p @PID@ 1 || { WORKLOAD_OPTS=""; return 0; }
	WORKLOAD_OPTS=""
	cols=$(grep -c '"fs":"ext4"' "$OUT")
	for op in read write open fsync; do
		got=$(svg_cells /tmp/heat.svg "ext4-$op" | md5sum)
		want=$(json_cells "$OUT" ext4 "$op" | md5sum)
		check "$name-$op-cells" "$got" "$want" /tmp/heat.svg "$OUT"
		check "$name-$op-columns" \
			"$(sed -n "s/.*id=\"ext4-$op\".*data-cols=\"\([0-9]*\)\".*/\1/p" /tmp/heat.svg)" "$cols"
	done
	check "$name-calls" "$(svg_cells /tmp/heat.svg ext4-fsync | awk '{ n += $3 } END { print n }')" \
		"$((F * 4))" /tmp/heat.svg
	svg_to_console "$name-$KERNEL" /tmp/heat.svg

	# ext4slower: each event in the cell of its second and bucket.
	OUT=$WORK/$name-slow.out ERR=$WORK/$name-slow.err
	workload_start "$name-slow" /mnt/ext4/fleet-heat-slow $O $R $W $F
	ext4slower --json --heatmap /tmp/slow.svg -p "$WPID" 0 > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! BANNER='Tracing ext4 operations' wait_banner "$EPID" "$ERR" 60; then
		fail "$name-slow" "no banner from ext4slower --json" "$OUT" "$ERR"
		kill -9 "$EPID" "$WPID" 2> /dev/null || true
		return 0
	fi
	workload_go "$name-slow" 0 "" "" "$EPID" || return 0
	sleep 0.5
	kill -INT "$EPID"
	wait_exit "$EPID" 30 || true
	check "$name-slow-exit" "$RC" 0 "$OUT" "$ERR"
	for op in read write open fsync; do
		got=$(svg_cells /tmp/slow.svg "ext4-$op" | awk '$3 > 0' | sort | md5sum)
		want=$(slow_cells "$OUT" /tmp/slow.svg "$op" | sort | md5sum)
		check "$name-slow-$op-cells" "$got" "$want" /tmp/slow.svg "$OUT"
	done
	check "$name-slow-calls" "$(svg_cells /tmp/slow.svg ext4-write | awk '{ n += $3 } END { print n }')" \
		"$W" /tmp/slow.svg
}

# slow_cells JSON SVG OP: "COL SLOT COUNT" of OP's events, each at its
# end_ns in the SVG's columns (data-start-ns, data-step-ns) and in BCC's
# slot of its latency in us.
slow_cells() {
	local start step
	start=$(sed -n 's/.* data-start-ns="\([0-9]*\)".*/\1/p' "$2" | head -n 1)
	step=$(sed -n 's/.* data-step-ns="\([0-9]*\)".*/\1/p' "$2" | head -n 1)
	grep "\"op\":\"$3\"" "$1" |
		sed -n 's/.*"end_ns":\([0-9]*\),.*"latency_ns":\([0-9]*\).*/\1 \2/p' |
		awk -v start="$start" -v step="$step" '
		{
			col = $1 > start ? int(($1 - start) / step) : 0
			u = int($2 / 1000); s = 1
			while (u >= 2) { u = int(u / 2); s++ }
			n[col " " s]++
		}
		END { for (k in n) print k, n[k] }'
}

# fleet_doc_run NAME FILE: the documentation's runs (docs.sh): ext4dist
# -t ext4,xfs --listen while a workload runs on each, then stopped; for
# exporter-scrape, a scrape's answer once the workloads are done, else
# the run's own output, in FILE.
fleet_doc_run() {
	local fss
	ip link set lo up
	fss=$(fleet_fss)
	OUT=$WORK/doc-$1.out ERR=$WORK/doc-$1.err
	fleet_workloads "$fss"
	ext4dist -t "$fss" --listen 127.0.0.1:9439 > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "doc-$1" "no banner from ext4dist -t $fss --listen" "$OUT" "$ERR"
		kill -9 "$EPID" $WPIDS 2> /dev/null || true
		return 1
	fi
	fleet_release || true
	if [ "$1" = exporter-scrape ]; then
		httpc get 127.0.0.1:9439 /metrics | tr -d '\r' > "$2" 2>&1
	fi
	kill -INT "$EPID"
	wait_exit "$EPID" 30 || true
	[ "$1" = exporter-scrape ] || cat "$OUT" "$ERR" > "$2"
}

# caps_hex CAP...: the capability mask of CAPs as /proc/PID/status prints
# it, those this kernel has (CAP_PERFMON and CAP_BPF: 5.8+).
caps_hex() {
	local c b n=0 last
	last=$(cat /proc/sys/kernel/cap_last_cap)
	for c in "$@"; do
		case $c in
		CAP_SYS_ADMIN) b=21 ;;
		CAP_SYS_RESOURCE) b=24 ;;
		CAP_SYSLOG) b=34 ;;
		CAP_PERFMON) b=38 ;;
		CAP_BPF) b=39 ;;
		*) b=99 ;;
		esac
		[ "$b" -gt "$last" ] || n=$((n | 1 << b))
	done
	printf '%016x\n' "$n"
}

# unit_run NAME [CAPS]: the workload traced by ext4dist as the shipped
# units start it (unitrun: the socket passed, the capability set bounded;
# CAPS instead of the unit's when given), with -p; the counts of a scrape
# of its /metrics in SCRAPED ("open=N read=N..."), its effective
# capabilities in CAPEFF.  1 (with FAIL NAME) when it did not come up.
unit_run() {
	local name=$1 op n
	OUT=$WORK/$name.out ERR=$WORK/$name.err
	rm -f "$OUT" "$ERR"
	workload_start "$name" /mnt/ext4/$name $O $R $W $F
	UNITRUN_CAPS=${2:-} unitrun /guest/units/ext4dist.socket \
		/guest/units/ext4dist.service -p "$WPID" > "$OUT" 2> "$ERR" &
	EPID=$!
	if ! wait_banner "$EPID" "$OUT" 60; then
		fail "$name" "no banner from the service" "$OUT" "$ERR"
		kill -9 "$EPID" "$WPID" 2> /dev/null || true
		wait "$EPID" 2> /dev/null || true
		wait "$WPID" 2> /dev/null || true
		return 1
	fi
	CAPEFF=$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$EPID/status")
	workload_go "$name" 0 "" "" "$EPID" || return 1
	httpc get 127.0.0.1:9439 /metrics > "$WORK/$name.metrics" 2>&1 || true
	SCRAPED=""
	for op in open read write fsync; do
		n=$(sed -n "s/^ext4dist_latency_seconds_count{fs=\"ext4\",op=\"$op\"} //p" "$WORK/$name.metrics")
		SCRAPED="$SCRAPED${SCRAPED:+ }$op=${n:-none}"
	done
	kill -INT "$EPID"
	wait_exit "$EPID" 30 || true
}

# unit_check CAPS ARGS...: --check ARGS run as the units start the
# service, CAPS its capability set; its kprobes row in KPROBES.
unit_check() {
	local caps=$1
	shift
	KPROBES=$(UNITRUN_CAPS=$caps unitrun /guest/units/ext4dist.socket \
		/guest/units/ext4dist.service --check "$@" 2> /dev/null |
		sed -n 's/^kprobes  *//p')
}

# --- Socket activation with the shipped units: the socket systemd would
# pass, the service's capabilities and no other, exact counts on the
# wire and in the output.  Then what each capability of the unit is for,
# on this kernel: without CAP_SYS_ADMIN no tracer starts; without
# CAP_SYSLOG the ext4 module's addresses are hidden and kprobes go by
# name.
scenario_fleet_systemd() {
	local name=fleet-systemd caps rc
	fleet_tools "$name" httpc unitrun || return 0
	mkdir -p /usr/sbin
	ln -sf /bin/ext4dist /usr/sbin/ext4dist
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' /guest/units/ext4dist.service)
	if unit_run "$name"; then
		check "$name-scraped" "$SCRAPED" "$WANT" "$WORK/$name.metrics" "$ERR"
		check "$name-capabilities" "$CAPEFF" "$(caps_hex $caps)" "$ERR"
		expect_counts "$name-counts" "$WANT"
	fi
	rc=0
	UNITRUN_CAPS="CAP_SYSLOG CAP_SYS_RESOURCE" unitrun /guest/units/ext4dist.socket \
		/guest/units/ext4dist.service > "$WORK/$name-nsa.out" 2> "$WORK/$name-nsa.err" || rc=$?
	check "$name-without-sys-admin" "$rc $(grep -v 'not emulated' "$WORK/$name-nsa.err")" \
		"1 ext4dist: permission denied: ext4dist loads BPF programs and creates kprobes; run it as root (or with CAP_BPF and CAP_PERFMON on 5.8+, CAP_SYS_ADMIN before)" \
		"$WORK/$name-nsa.err"
	if [ -e /sys/module/ext4/initstate ]; then
		ext4_ko_install
		unit_check "$caps" --attach=tracefs
		check "$name-syslog-by-address" "$(echo "$KPROBES" | cut -d: -f1)" "by address"
		unit_check "CAP_SYS_ADMIN CAP_SYS_RESOURCE" --attach=tracefs
		check "$name-without-syslog-by-name" "$KPROBES" \
			"by name (the kernel looks each one up): /sys/module/ext4/sections/.text: address hidden (needs CAP_SYSLOG)"
		ext4_ko_remove
	fi
	rm -rf /usr/sbin
}

