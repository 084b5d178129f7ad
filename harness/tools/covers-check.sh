#!/usr/bin/env bash
# harness/tools/covers-check.sh MAP CASE.c...: every element a case names in its
# .covers is an element of the ABI map (cases/abi-map.txt). The Makefile
# runs it on the case sources that changed (all of them when the map
# changed), so that a typo in .covers fails the build instead of running
# silently. One line per unknown element, exit 1; 2 on bad usage.
[ $# -ge 1 ] && [ -r "$1" ] || { echo "covers-check.sh: usage: covers-check.sh MAP CASE.c..." >&2; exit 2; }
map=$1
shift
[ $# -eq 0 ] && exit 0
# shellcheck disable=SC2016 # awk's $0, not the shell's
prog='
	FNR == 1 && NR == FNR { inmap = 1 }
	FNR == 1 && NR != FNR { inmap = 0 }
	inmap {
		if ($0 !~ /^[ \t]*(#|$)/)
			known[$1] = 1
		next
	}
	FNR == 1 { grab = 0; covers_text = "" }
	/\.covers[ \t]*=/ { grab = 1; covers_text = "" }
	grab && covers_add($0) {
		grab = 0
		n = split(COVERS, w, " ")
		for (i = 1; i <= n; i++)
			if (!(w[i] in known)) {
				printf "%s: .covers names %s, which is not in %s\n", FILENAME, w[i], MAP
				bad = 1
			}
		if (!n) {
			printf "%s: .covers names no ABI element\n", FILENAME
			bad = 1
		}
	}
	END { exit bad }
'
awk -f "$(dirname "$0")/covers.awk" -f <(printf '%s\n' "$prog") MAP="$map" "$map" "$@"
