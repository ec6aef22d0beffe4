#!/bin/sh
# tools/bpf_lines_range.sh OBJ: "OFFSET LENGTH" of the bytes of a BPF
# object's .BTF and .BTF.ext sections when they lie side by side (clang
# writes them so, between the programs and the symbol table), else "0 0".
# Only the listings read them (their source lines): a run inflates the
# embedded object around them (src/tool/engine/bpf_blob_pick.c), and the pages
# they would take are never touched.  Needs readelf (binutils); "0 0"
# without it: the whole object is then inflated, which is only bigger.
set -eu
readelf -SW "$1" 2>/dev/null | sed 's/^ *\[ *[0-9]*\] *//' |
	awk '$1 == ".BTF" || $1 == ".BTF.ext" { print $1, $4, $5 }' |
	{
		btf_off=0 btf_len=0 ext_off=0 ext_len=0
		while read -r name off len; do
			case $name in
			.BTF) btf_off=$((0x$off)) btf_len=$((0x$len)) ;;
			.BTF.ext) ext_off=$((0x$off)) ext_len=$((0x$len)) ;;
			esac
		done
		# Padding between them (alignment) is skipped too: at most 7 bytes.
		gap=$((ext_off - btf_off - btf_len))
		if [ "$btf_len" -gt 0 ] && [ "$ext_len" -gt 0 ] &&
		   [ "$gap" -ge 0 ] && [ "$gap" -lt 8 ]; then
			echo "$btf_off $((ext_off + ext_len - btf_off))"
		else
			echo "0 0"
		fi
	}
