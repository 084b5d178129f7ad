#!/usr/bin/env bash
# perfabi: kernel coverage of kernel/events/ reached by the suite.
#
#   harness/tools/kcov.sh [options] [-- runner options and patterns]
#   harness/tools/kcov.sh --report RUN
#   harness/tools/kcov.sh --compare RUN_A RUN_B
#
# See usage() below. ./run.sh --kcov calls it.
set -uo pipefail
CALLER_CWD=${PERFABI_CALLER_CWD:-$PWD}
cd "$(dirname "$0")/../.." || exit 2
REPO=$PWD
GROUPS_FILE=$REPO/fixtures/kernel/kcov-groups.tsv

usage() {
	cat harness/tools/usage/kcov.txt
}

PA_PROG=kcov.sh
. harness/tools/lib.sh

need_lcov() {
	command -v lcov >/dev/null && command -v genhtml >/dev/null && command -v gcov >/dev/null && return 0
	[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null ||
		die "lcov and gcov are needed: sudo apt-get install -y lcov gcc"
	say "installing lcov (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q lcov >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q lcov >/dev/null 2>&1; } ||
		die "could not install lcov; run: apt-get update && apt-get install -y lcov"
}

abspath() { # a path as the caller meant it
	case "$1" in /*) echo "$1" ;; *) echo "$CALLER_CWD/$1" ;; esac
}

# RUN (results/<id> or results/<id>/kcov) -> KDIR (its kcov/ directory)
kcov_dir() {
	local d
	d=$(abspath "$1")
	[ -d "$d" ] || d=$1
	[ -d "$d" ] || die "no run directory '$1'"
	[ -f "$d/suite.info" ] && { KDIR=$(cd "$d" && pwd); return; }
	[ -f "$d/kcov/suite.info" ] && { KDIR=$(cd "$d/kcov" && pwd); return; }
	die "'$1' has no kernel coverage (no suite.info or kcov/suite.info): not a ./run.sh --kcov run"
}

# ------------------------------------------------------------------ report
# gcda blob (tar.gz from the guest) + build directory -> lcov tracefile
capture() { # blob outdir name
	local blob=$1 bdir=$2 name=$3 stage=$WORK/$3 ev f rel
	mkdir -p "$stage"
	tar -xzf "$blob" -C "$stage" 2>/dev/null || { say "cannot unpack $blob"; return 1; }
	# the guest's path is the build directory's: keep kernel/events/
	ev=$(find "$stage" -path '*/kernel/events/*.gcda' -print -quit)
	[ -n "$ev" ] || { say "$blob has no kernel/events/ counters (was the kernel built with the kcov variant?)"; return 1; }
	ev=$(dirname "$ev")
	for f in "$ev"/*.gcda; do
		rel=$(basename "$f" .gcda)
		[ -f "$GCNO/$rel.gcno" ] || { say "no $GCNO/$rel.gcno: the build does not match the image"; return 1; }
		cp "$GCNO/$rel.gcno" "$ev/"
	done
	if ! lcov -q --capture --rc lcov_branch_coverage=0 --directory "$ev" \
	     --base-directory "$bdir" --test-name "$name" --output-file "$WORK/$name.all" \
	     >"$WORK/$name.lcov.log" 2>&1 || grep -q 'stamp mismatch' "$WORK/$name.lcov.log"; then
		if grep -q 'stamp mismatch' "$WORK/$name.lcov.log"; then
			say "the $name counters do not match the notes (.gcno) of $GCNO: that build was remade after the run"
		else
			say "lcov failed on the $name counters:"
			tail -n 5 "$WORK/$name.lcov.log" | sed 's/^/  /' >&2
		fi
		return 1
	fi
	lcov -q --extract "$WORK/$name.all" '*/kernel/events/*' --output-file "$KDIR/$name.info" \
		>>"$WORK/$name.lcov.log" 2>&1
}

# table.txt, unentered.txt (by the groups of GROUPS_FILE) and summary.json
# of KDIR from its tracefiles
summarise() {
	local report=${BUILD:-build}/perfabi-report
	[ -x "$report" ] || { say "$report is missing: run make first"; return 2; }
	"$report" kcov-summary --label "$1" --release "$2" --groups "$GROUPS_FILE" "$KDIR"
}

# KDIR from the kernel result directory next to it
cmd_report() {
	local run=$1 kres image bdir label release srcdir
	run=$(abspath "$run")
	[ -d "$run" ] || run=$1
	[ -d "$run" ] || die "no run directory '$1'"
	[ "$(basename "$run")" = kcov ] && run=$(dirname "$run")
	kres=$(dirname "$(ls -1 "$run"/*/kcov-suite.tar.gz 2>/dev/null | head -n1)")
	[ -n "$kres" ] && [ -f "$kres/kcov-suite.tar.gz" ] ||
		die "'$1' has no gcov counters from a guest (no <kernel>/kcov-suite.tar.gz)"
	[ -f "$kres/kcov-baseline.tar.gz" ] || die "$kres has the suite's counters but no baseline (kcov-baseline.tar.gz)"
	image=$(sed -n 's/^  "image": "\(.*\)",$/\1/p' "$kres/vm.json" 2>/dev/null)
	[ -n "$image" ] || die "$kres/vm.json names no kernel image"
	bdir=$(dirname "$(dirname "$(dirname "$(dirname "$image")")")")
	# the notes (.gcno) of the build that made the image: kept beside the
	# counters the first time, since a later build in the same directory
	# (a changed config, another tree state) replaces them
	GCNO=$kres/kcov-gcno
	if [ ! -f "$GCNO/core.gcno" ]; then
		GCNO=$bdir/kernel/events
		[ -f "$GCNO/core.gcno" ] || die "$bdir is not a kcov build (no kernel/events/core.gcno)"
	fi
	label=$(basename "$kres")
	release=$(sed -n 's/^  "release": "\(.*\)",$/\1/p' "$kres/vm.json")
	KDIR=$run/kcov
	mkdir -p "$KDIR" || die "cannot create $KDIR"
	need_lcov
	say "lcov: the counters of $label against $bdir"
	capture "$kres/kcov-baseline.tar.gz" "$bdir" baseline || return 2
	capture "$kres/kcov-suite.tar.gz" "$bdir" suite || return 2
	if [ "$GCNO" != "$kres/kcov-gcno" ]; then
		mkdir -p "$kres/kcov-gcno" && cp "$GCNO"/*.gcno "$kres/kcov-gcno/" ||
			say "warning: cannot keep the .gcno files in $kres/kcov-gcno"
	fi
	summarise "$label" "$release" || return 2
	rm -rf "$KDIR/html"
	srcdir=$(sed -n 's/^SF:\(.*\)\/kernel\/events\/core\.c$/\1/p' "$KDIR/suite.info" | head -n1)
	if ! genhtml -q --rc lcov_branch_coverage=0 \
	     --title "perfabi: kernel/events/ reached by the suite ($label, $release)" \
	     --prefix "$srcdir" --legend --show-details \
	     --output-directory "$KDIR/html" "$KDIR/suite.info" >"$WORK/genhtml.log" 2>&1; then
		say "genhtml failed:"
		tail -n 5 "$WORK/genhtml.log" | sed 's/^/  /' >&2
		return 2
	fi
	cat "$KDIR/table.txt"
	echo "# report: $KDIR/html/index.html; unentered functions by group: $KDIR/unentered.txt"
}

# ------------------------------------------------------------------ compare
# "file line function" for each instrumented line reached (hits > 0)
reached() {
	awk '
	/^SF:/ { f = substr($0, 4); sub(/.*\/kernel\/events\//, "", f); nf = 0 }
	/^FN:/ { split(substr($0, 4), a, ","); nf++; fl[nf] = a[1] + 0; fnm[nf] = a[2] }
	/^DA:/ {
		split(substr($0, 4), a, ","); if (a[2] + 0 == 0) next
		best = "?"; bl = 0
		for (i = 1; i <= nf; i++) if (fl[i] <= a[1] && fl[i] >= bl) { bl = fl[i]; best = fnm[i] }
		print f, a[1], best
	}' "$1" | sort -u
}

cmd_compare() {
	local a b ka kb n
	[ $# -eq 2 ] || die "--compare needs two runs: RUN_A RUN_B"
	kcov_dir "$1"; ka=$KDIR
	kcov_dir "$2"; kb=$KDIR
	if ! cmp -s <(grep -E '^(SF|FN):' "$ka/suite.info" | sed 's|^SF:.*/kernel/events/|SF:|') \
	            <(grep -E '^(SF|FN):' "$kb/suite.info" | sed 's|^SF:.*/kernel/events/|SF:|'); then
		say "warning: the two runs are of different kernel sources (functions differ): line numbers may not correspond"
	fi
	reached "$ka/suite.info" >"$WORK/a"
	reached "$kb/suite.info" >"$WORK/b"
	a=$(wc -l <"$WORK/a") b=$(wc -l <"$WORK/b")
	echo "# kernel/events/ lines reached: A $a ($1), B $b ($2)"
	for side in A B; do
		if [ $side = A ]; then comm -23 "$WORK/a" "$WORK/b"; else comm -13 "$WORK/a" "$WORK/b"; fi >"$WORK/only"
		n=$(wc -l <"$WORK/only")
		echo "# reached by $side only: $n lines"
		awk '{ k = $1 " " $3; c[k]++; if (!(k in lo)) lo[k] = $2; hi[k] = $2 }
		     END { for (k in c) { split(k, w, " "); printf "%s\t%s\t%d\t%d-%d\n", w[1], w[2], c[k], lo[k], hi[k] } }' "$WORK/only" |
			sort -t$'\t' -k3,3nr -k1,1 -k2,2 | awk -F'\t' '{ printf "  %-16s %-40s %4d line(s) %s\n", $1, $2, $3, $4 }'
	done
}

# ------------------------------------------------------------------ run
WORK=$(mktemp -d "${TMPDIR:-/tmp}/perfabi-kcov.XXXXXX") || die "cannot create a work directory"
trap 'rm -rf "$WORK"' EXIT
trap 'say "interrupted"; exit 130' INT
trap 'say "interrupted"; exit 143' TERM

TREE=6.12 RUN_ID='' RESULTS=results LIMIT=40 runner_args=()
case "${1:-}" in
-h|--help) usage; exit 0 ;;
--report)
	[ $# -eq 2 ] || die "--report needs one run directory"
	cmd_report "$2"
	exit $?
	;;
--compare)
	shift
	cmd_compare "$@"
	exit $?
	;;
esac
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--) shift; runner_args=("$@"); break ;;
	--tree|--run-id|--results|--timeout)
		[ $# -ge 2 ] || die "option '$1' needs an argument"
		case "$1" in
		--tree) TREE=$2 ;;
		--run-id) RUN_ID=$2 ;;
		--results) RESULTS=$2 ;;
		--timeout) LIMIT=$2 ;;
		esac
		shift 2 ;;
	--tree=*|--run-id=*|--results=*|--timeout=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	--report|--compare) die "'$1' comes first: ./run.sh --kcov $1 ..." ;;
	*) die "unknown argument '$1' (runner options and patterns go after '--'; try --help)" ;;
	esac
done
case "$TREE" in
6.1|6.12) ;;
*) TREE=$(abspath "$TREE")
   [ -d "$TREE/kernel/events" ] || die "bad --tree '$TREE': 6.12, 6.1 or a kernel tree directory" ;;
esac
[[ $LIMIT =~ ^[1-9][0-9]*$ ]] || die "bad --timeout '$LIMIT': minutes, a positive integer"
if [ -z "$RUN_ID" ]; then
	RUN_ID=$(date +%Y%m%d-%H%M%S)-kcov
	while [ -e "$RESULTS/$RUN_ID" ]; do RUN_ID=$RUN_ID-2; done
fi
[[ $RUN_ID =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] || die "bad --run-id '$RUN_ID': a plain directory name is needed"
[ -e "$RESULTS/$RUN_ID" ] && die "$RESULTS/$RUN_ID exists: run ids are never reused"
need_lcov

t0=$(date +%s)
say "kernel/events/ coverage of the suite: kernel build:$TREE:kcov, run $RESULTS/$RUN_ID"
# three CPUs, one left offline (maxcpus=2): the cases about an offline CPU run
harness/tools/vm.sh --timeout "$LIMIT" --smp 3 --append "perfabi.kcov=1 maxcpus=2" --results "$RESULTS" --run-id "$RUN_ID" \
	"build:$TREE:kcov" -- "${runner_args[@]+"${runner_args[@]}"}"
vrc=$?
[ $vrc -le 1 ] || exit $vrc
if ! ls "$RESULTS/$RUN_ID"/*/kcov-suite.tar.gz >/dev/null 2>&1; then
	say "no counters came back from the guest (see $RESULTS/$RUN_ID/*/console.log)"
	exit 1
fi
cmd_report "$RESULTS/$RUN_ID" || exit $?
say "wall time $(( $(date +%s) - t0 )) s"
exit $vrc
