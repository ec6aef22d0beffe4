# tests/bench/size_report.awk MAP: what each input of the static binary
# costs, from the linker's map (-Wl,-Map, make size-report): the bytes of
# its loaded sections that the linker kept (.text, .rodata, .data,
# .eh_frame ...; .bss apart, which costs the file nothing), by library
# and, for the project's own library and the C library, by object file.
# -v top=N: object files listed (default 25).

# The input's library ("libc.a") and its member ("libc.a(malloc.o)").
function lib_of(path,   p) {
	sub(/.*\//, "", path)
	p = index(path, "(")
	return p ? substr(path, 1, p - 1) : path
}
function member_of(path) {
	sub(/.*\//, "", path)
	return path
}
BEGIN { if (!top) top = 25 }
/^Linker script and memory map/ { in_map = 1; next }
!in_map { next }
# A section name alone on its line: its address, size and input follow.
/^ \.[^ ]+$/ { pending = $1; next }
/^ (\.[^ ]+)? +0x[0-9a-f]+ +0x[0-9a-f]+ / {
	# " .text 0xADDR 0xSIZE input", or the three last fields alone
	# under a name on the line before; "linker stubs" is an input too.
	o = $1 ~ /^\./ ? 1 : 0
	name = o ? $1 : pending
	pending = ""
	addr = $(1 + o)
	size = $(2 + o)
	input = $(3 + o)
	for (i = 4 + o; i <= NF; i++) input = input " " $i
	if (addr ~ /^0x0+$/ || name ~ /^\.(debug|comment|note\.gnu\.build)/)
		next
	size = hex(size)
	if (!size) next
	if (name ~ /^\.t?bss/ || name ~ /COMMON/) {
		bss[lib_of(input)] += size
		next
	}
	lib[lib_of(input)] += size
	obj[member_of(input)] += size
	total += size
	next
}
{ pending = "" }
function hex(s,   i, c, v) {
	s = tolower(substr(s, 3))
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
function sorted(a, out,   k, n, i, j, t) {
	n = 0
	for (k in a) out[++n] = k
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[out[j]] > a[out[i]]) { t = out[i]; out[i] = out[j]; out[j] = t }
	return n
}
END {
	printf "%-44s %10s %6s %10s\n", "library", "bytes", "share", ".bss"
	n = sorted(lib, order)
	for (i = 1; i <= n; i++)
		printf "%-44s %10d %5.1f%% %10d\n", order[i], lib[order[i]],
		       100 * lib[order[i]] / total, bss[order[i]]
	printf "%-44s %10d\n\n", "loaded sections, all inputs", total
	printf "%-44s %10s %6s\n", "object file (the " top " largest)", "bytes", "share"
	n = sorted(obj, order)
	for (i = 1; i <= n && i <= top; i++)
		printf "%-44s %10d %5.1f%%\n", order[i], obj[order[i]],
		       100 * obj[order[i]] / total
}
