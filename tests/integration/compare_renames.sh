#!/usr/bin/env bash
# ./run.sh --compare across a move: a reference recorded before cases moved
# to another area (results/reference/) pairs with a run after the move
# through the rename map (cases/renames.txt, build/renames.txt next to
# perfabi-report), instead of counting the moved results as only in A and
# only in B.
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
REPORT="$BUILD/perfabi-report"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ref=results/reference/6.18
t=$'\t'

[ -s "$ref/results.tsv" ] || skip_all "no reference $ref"
check "make put the rename map next to perfabi-report" cmp -s cases/renames.txt "$BUILD/renames.txt"
# the moves, one "OLD NEW" a line (a later move of the same case followed)
awk '!/^[ \t]*(#|$)/ { sub(/#.*/, ""); to[$1] = $2; order[++n] = $1 }
	END { for (i = 1; i <= n; i++) { o = order[i]; t = to[o]; k = 0
		while ((t in to) && k++ < n) t = to[t]
		print o, t } }' cases/renames.txt >"$tmp/moves"
[ -s "$tmp/moves" ] || skip_all "cases/renames.txt has no move"

# B: the reference as a run after the moves would name it
mkdir -p "$tmp/old" "$tmp/new"
cp "$ref/results.tsv" "$tmp/old/"
awk 'NR == FNR { to[$1] = $2; next }
	{ split($1, n, "@"); if (n[1] in to) sub(/^[^@\t]*/, to[n[1]]) } 1' \
	"$tmp/moves" "$ref/results.tsv" >"$tmp/new/results.tsv"
moved=$(awk 'NR == FNR { to[$1] = 1; next } { split($1, n, "@") } n[1] in to' \
	"$tmp/moves" "$ref/results.tsv" | wc -l)
check "the reference holds results of moved cases ($moved)" test "$moved" -gt 0
total=$(wc -l <"$ref/results.tsv")

# without the map the moved results do not pair
: >"$tmp/none"
out=$("$REPORT" compare --renames "$tmp/none" "$tmp/old" "$tmp/new"); rc=$?
check "without moves: exit 0" test $rc -eq 0
check "without moves: the moved results are only in A and only in B" \
	grep -qx "# $moved result(s) only in B, $moved only in A: not compared (--all lists them)" <<<"$out"

# with it (the default, next to perfabi-report) they do
out=$("$REPORT" compare "$tmp/old" "$tmp/new"); rc=$?
check "with the map: no regression, exit 0" test $rc -eq 0
check "with the map: says how many results it renamed" \
	grep -qx "# $moved result(s) of $tmp/old and 0 of $tmp/new are named by a moved case's old name: compared under its new one ($(cd "$BUILD" && pwd -P)/renames.txt)" <<<"$out"
check "with the map: nothing is only on one side" bash -c '! grep -q "only in" <<<"$1"' _ "$out"
check "with the map: every result is unchanged" grep -qx "# 0 regressed, 0 fixed, 0 newly skipped, 0 no longer skipped, 0 other changes, $total unchanged" <<<"$out"

# ./run.sh --compare is the same command
out2=$(./run.sh --compare "$tmp/old" "$tmp/new" 2>/dev/null); rc=$?
check "./run.sh --compare pairs them too" test $rc -eq 0 -a "$out2" = "$out"

# a change of a moved case's outcome is reported under its new name
read -r old new < <(head -1 "$tmp/moves")
line=$(grep -m1 "^$new@[^$t]*${t}pass$t" "$tmp/new/results.tsv")
if [ -n "$line" ]; then
	name=${line%%"$t"*}
	awk -v n="$name" -F'\t' -v OFS='\t' '$1 == n { $2 = "fail"; $4 = "broken now" } 1' \
		"$tmp/new/results.tsv" >"$tmp/f" && mv "$tmp/f" "$tmp/new/results.tsv"
	out=$("$REPORT" compare "$tmp/old" "$tmp/new"); rc=$?
	check "a regression of a moved case exits 1" test $rc -eq 1
	check "and is listed under the new name ($name)" \
		grep -qxF "  pass    -> fail    $name  # broken now" <<<"$out"
else
	skip "a regression of a moved case is listed under its new name" "no passing result of $new in $ref"
fi

# the map changes nothing for runs without moved cases
out=$("$REPORT" compare "$tmp/new" "$tmp/new")
check "runs without old names: no word of the map" bash -c '! grep -q "moved case" <<<"$1"' _ "$out"

# a map that is asked for must be readable and well formed
"$REPORT" compare --renames "$tmp/nonexistent" "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "--renames FILE that cannot be read exits 2" test $rc -eq 2 -a ! -s "$tmp/out"
check "and names it" grep -q "cannot read $tmp/nonexistent" "$tmp/err"
printf 'attr/x\n' >"$tmp/bad"
"$REPORT" compare --renames "$tmp/bad" "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a malformed map exits 2" test $rc -eq 2 -a ! -s "$tmp/out"
check "and names the line" grep -q "$tmp/bad:1: not a move" "$tmp/err"
"$REPORT" compare --renames >/dev/null 2>"$tmp/err"; rc=$?
check "--renames without a file is bad usage" test $rc -eq 2
finish
