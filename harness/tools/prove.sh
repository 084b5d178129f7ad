#!/usr/bin/env bash
# perfabi: show that regression cases catch their bugs.
#
#   harness/tools/prove.sh [--tree SOURCE] [--results DIR] [--run-id ID] [COMMIT...]
#
# For each fix with a reverse patch (fixtures/kernel/revert/COMMIT.patch),
# build the kernel with only that fix undone, boot it under QEMU, run the
# cases the patch names (its "Case:" lines) and see them fail; run the same
# cases on the unmodified build and see them pass. ./run.sh prove calls it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
REPO=$PWD
REVERTDIR=$REPO/fixtures/kernel/revert
VM=${PERFABI_PROVE_VM:-$REPO/harness/tools/vm.sh}

usage() {
	cat harness/tools/usage/prove.txt
}

PA_PROG=prove.sh
. harness/tools/lib.sh

TREE=6.12 RESULTS=results RUN_ID=prove-$(date -u +%Y%m%d-%H%M%S) LIMIT=10
COMMITS=()
while [ $# -gt 0 ]; do
	case "$1" in
	-h|--help) usage; exit 0 ;;
	--tree|--results|--run-id|--timeout)
		[ $# -ge 2 ] || die "option '$1' needs an argument"
		case "$1" in
		--tree) TREE=$2 ;;
		--results) RESULTS=$2 ;;
		--run-id) RUN_ID=$2 ;;
		--timeout) LIMIT=$2 ;;
		esac
		shift 2 ;;
	--tree=*|--results=*|--run-id=*|--timeout=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	-*) die "unknown option '$1' (try --help)" ;;
	*) [[ $1 =~ ^[0-9a-f]{12}$ ]] || die "bad COMMIT '$1': a 12-digit commit id"
	   [ -f "$REVERTDIR/$1.patch" ] || die "no reverse patch fixtures/kernel/revert/$1.patch"
	   COMMITS+=("$1"); shift ;;
	esac
done
[[ $RUN_ID =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad --run-id '$RUN_ID': a plain directory name is needed"
[[ $LIMIT =~ ^[1-9][0-9]*$ ]] || die "bad --timeout '$LIMIT': whole minutes"
case "$TREE" in
6.1|6.12) LABEL=$TREE-src ;;
*) [ -d "$TREE/kernel/events" ] || die "bad --tree '$TREE': 6.12, 6.1 or a kernel tree"
   TREE=$(cd "$TREE" && pwd -P); LABEL=$(basename "$TREE")-src ;;
esac
if [ ${#COMMITS[@]} -eq 0 ]; then
	for p in "$REVERTDIR"/*.patch; do
		[ -f "$p" ] && COMMITS+=("$(basename "$p" .patch)")
	done
fi
[ ${#COMMITS[@]} -gt 0 ] || die "no reverse patches in fixtures/kernel/revert/"
OUT=$RESULTS/$RUN_ID
[ ! -e "$OUT" ] || die "$OUT exists: choose another --run-id"
mkdir -p "$OUT" || die "cannot create $OUT"

cases_of() { sed -n 's/^Case: *\([^ ]*\).*/\1/p' "$REVERTDIR/$1.patch"; }

declare -A CASES
ALL=()
for c in "${COMMITS[@]}"; do
	CASES[$c]=$(cases_of "$c" | paste -sd' ')
	[ -n "${CASES[$c]}" ] || die "fixtures/kernel/revert/$c.patch names no case (a 'Case: area/name' line)"
	for k in ${CASES[$c]}; do
		[ -x "build/cases/$k" ] || die "$c.patch names $k, which is not built (build/cases/$k)"
		ALL+=("$k")
	done
done
mapfile -t ALL < <(printf '%s\n' "${ALL[@]}" | sort -u)

# One VM run: name, kernel spec, cases -> $OUT/name/, the seconds taken
# in BUILD_S (the kernel build, from vm.json) and RUN_S (the whole call).
vm_run() {
	local name=$1 spec=$2 t0
	shift 2
	t0=$(date +%s)
	say "$name: $spec, cases $*"
	"$VM" --results "$OUT" --run-id "$name" --timeout "$LIMIT" "$spec" -- "$@" \
		>"$OUT/$name.log" 2>&1
	RUN_S=$(( $(date +%s) - t0 ))
}

# outcome of case k in run dir d: "fail" if any cell failed, else "pass"
# if any passed (xfail counts as a failure seen), else the first outcome
# (skip...), "none" when it has no result (the kernel did not build/boot)
outcome() {
	local d=$1 k=$2 f
	f=$(ls "$d"/*/results.tsv 2>/dev/null | head -n1)
	[ -n "$f" ] || { echo none; return; }
	awk -F'\t' -v k="$k" '
		index($1, k "@") == 1 { n++; o[$2]++; if (!first) first = $2 }
		END {
			if (!n) print "none"
			else if (o["fail"] || o["xfail"]) print "fail"
			else if (o["pass"] || o["xpass"]) print "pass"
			else print first
		}' "$f"
}

build_secs() { # the build time vm.sh's log reports for the kernel build
	sed -n 's/.*kernel.sh: built .* in \([0-9.]*\) s:.*/\1/p' "$1" | tail -n1
}

printf 'commit\tcase\tunmodified\treverted\tbuild_s\trun_s\tverdict\n' >"$OUT/summary.tsv"
vm_run unmodified "build:$TREE" "${ALL[@]}"
BASE_RUN_S=$RUN_S
BASE_BUILD_S=$(build_secs "$OUT/unmodified.log")
say "unmodified: ${BASE_RUN_S} s"
proven=0 total=0
for c in "${COMMITS[@]}"; do
	total=$((total + 1))
	vm_run "revert-$c" "build:$TREE+revert=$c" ${CASES[$c]}
	bs=$(build_secs "$OUT/revert-$c.log")
	ok=1
	for k in ${CASES[$c]}; do
		u=$(outcome "$OUT/unmodified" "$k")
		r=$(outcome "$OUT/revert-$c" "$k")
		if [ "$r" = none ] && grep -q 'build failed\|does not apply' "$OUT/revert-$c.log"; then
			v="not judged: the reverted kernel did not build (see revert-$c.log)"
		elif [ "$r" = none ]; then
			v="not judged: no result on the reverted kernel (see revert-$c.log)"
		elif [ "$u" != pass ]; then
			v="not judged: $u on the unmodified kernel"
		elif [ "$r" = fail ]; then
			v=proven
		else
			v="NOT CAUGHT: $r on the reverted kernel"
		fi
		[ "$v" = proven ] || ok=0
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$k" "$u" "$r" "${bs:--}" "$RUN_S" "$v" >>"$OUT/summary.tsv"
		say "$c $k: unmodified $u, reverted $r: $v"
	done
	[ $ok = 0 ] || proven=$((proven + 1))
done
printf 'unmodified\t%s\t-\t-\t%s\t%s\t-\n' "$(printf '%s ' "${ALL[@]}")" "${BASE_BUILD_S:--}" "$BASE_RUN_S" >>"$OUT/summary.tsv"
column -t -s $'\t' "$OUT/summary.tsv"
say "$proven of $total fixes proven ($OUT/summary.tsv)"
[ "$proven" = "$total" ]
