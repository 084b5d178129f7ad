#!/usr/bin/env bash
# The runner's verdict on case binaries that misbehave (exit codes outside
# 0-4, death by a signal, an exit status the KTAP line contradicts, a
# failing --info), its list of skip reasons, --list, and --abi-check
# against a map of its own: fake cases (shell scripts) stand in for the
# built ones.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"	# the cells of uid 65534 run the scripts too
export PERFABI_STATE_DIR=$tmp/state
C=$tmp/cases
# the default plan runs these plain cases as root and as user (as root), or
# as the runner's own identity only (an ordinary user: user)
if [ "$ME" = root ]; then CELLS=2; else CELLS=1; fi

# mkcase NAME COVERS BODY: a case whose --info names COVERS and whose run is BODY
mkcase() {
	mkdir -p "$C/${1%/*}"
	cat >"$C/$1" <<EOF
#!/bin/sh
if [ "\$1" = --info ]; then
	printf 'name: $1\nassertion: fake $1\ncovers: $2\ntimeout: 5\nprivileged: 0\n'
	exit 0
fi
printf 'TAP version 13\n1..1\n# diagnostic of $1\n'
$3
EOF
	chmod 755 "$C/$1"
}
mkcase f/ok "el.a" 'echo "ok 1 f/ok"; exit 0'
mkcase f/exit5 "el.b" 'exit 5'
mkcase f/killed "el.d el.bogus" 'kill -9 $$'
mkcase f/mismatch "el.a" 'echo "ok 1 f/mismatch"; exit 1'
mkcase f/nocovers "" 'echo "ok 1 f/nocovers"; exit 0'
mkcase f/noinfo "el.a" 'exit 0'
sed -i 's/^\texit 0$/\texit 3/' "$C/f/noinfo"	# --info fails
for w in alpha beta gamma delta epsilon zeta eta theta iota kappa; do
	mkcase s/$w "el.a" "echo 'ok 1 s/$w # SKIP no $w 1234'; exit 4"
done

out=$("$RUN" --cases "$C" --no-results 'f/*' 2>&1); rc=$?
check "misbehaving cases fail the run" test $rc -eq 1
check "an exit code above 4 is a failure" \
	result_with_detail "$out" "^not ok [0-9]* f/exit5@$ME,paranoid=[0-9-]*$" "^# detail: runner: case binary exited 5$"
check "death by a signal is a failure" \
	result_with_detail "$out" "^not ok [0-9]* f/killed@$ME,paranoid=[0-9-]*$" "^# detail: runner: case binary killed by signal 9$"
check "an exit status the KTAP line contradicts is a failure" \
	result_with_detail "$out" "^not ok [0-9]* f/mismatch@$ME,paranoid=[0-9-]*$" "^# detail: runner: exit status 1 does not match the KTAP result$"
check "a failing --info is a failure" \
	result_with_detail "$out" "^not ok [0-9]* f/noinfo@$ME,paranoid=[0-9-]*$" "^# detail: runner: '$C/f/noinfo --info' failed$"
check "a failure's diagnostics are shown" grep -q "^# diagnostic of f/exit5$" <<<"$out"
check "a pass's are not" bash -c '! grep -q "^# diagnostic of f/ok$" <<<"$1"' _ "$out"
check "the passing case passes" grep -q "^ok [0-9]* f/ok@$ME" <<<"$out"

out=$("$RUN" --cases "$C" --no-results 's/*' 2>&1); rc=$?
check "skips do not fail the run" test $rc -eq 0
check "skip reasons are counted with digits folded" grep -q "^#   $(printf %5d "$CELLS")  no alpha N$" <<<"$out"
check "the 8 commonest are listed, the rest counted" \
	grep -q "^#          and 2 other reasons (run.tap has each)$" <<<"$out"
check "the number of skips" grep -q "^# skipped $((10 * CELLS)): the commonest reasons$" <<<"$out"

out=$("$RUN" --cases "$C" --list 'f/*' 2>&1); rc=$?
check "--list exits 0" test $rc -eq 0
check "--list shows the assertion" grep -q "^f/ok  *fake f/ok$" <<<"$out"
check "--list marks a failing --info" grep -q "^f/noinfo  *(--info failed)$" <<<"$out"

# --abi-check: a map beside results/reference/ (the reference runs)
mkdir -p "$tmp/m/map" "$tmp/m/results/reference/k1" "$tmp/m/results/reference/.hidden"
printf '%s\n' "# a map" "el.a" "el.b" "el.c    untestable: nothing shows it" \
	"el.d    hardware: needs a PMU" "el.e" >"$tmp/m/map/abi-map.txt"
printf 'f/ok@root,paranoid=2\tpass\t1\t\nf/exit5@$ME,paranoid=2\tfail\t1\tx\n' \
	>"$tmp/m/results/reference/k1/results.tsv"
out=$("$RUN" --cases "$C" --abi-check "$tmp/m/map/abi-map.txt" 'f/*' 2>&1); rc=$?
check "--abi-check with gaps exits 1" test $rc -eq 1
check "a failing --info is named" grep -q "^f/noinfo: '--info' failed$" <<<"$out"
check "a case without .covers is named" grep -q "^f/nocovers: names no ABI element in .covers$" <<<"$out"
check "an element nothing covers is named" \
	grep -q "^el.e: no case covers it and it is not marked untestable$" <<<"$out"
check "an element only a never-passing case names is named" \
	grep -q "^el.b: named but never run: no case naming it passed on a reference kernel (f/exit5)$" <<<"$out"
check "a hardware element is listed" grep -q "^el.d: hardware only: needs a PMU$" <<<"$out"
check "an element that passed on a reference is not" bash -c '! grep -q "^el.a:" <<<"$1"' _ "$out"
check "an element not in the map is named" grep -q "el.bogus" <<<"$out"
check "the summary line" grep -q "^# ABI map $tmp/m/map/abi-map.txt: 5 elements, 3 covered by 6 cases (1 of them only by cases that never passed on a reference kernel, 1 more only by cases that need hardware the references lack), 1 untestable with a reason, 1 missing$" <<<"$out"
# a pass recorded under a case's old name counts: the rename map beside the map
printf '# moves\ng/was_exit5 f/exit5\n' >"$tmp/m/map/renames.txt"
printf 'g/was_exit5@root,paranoid=2\tpass\t1\t\n' >>"$tmp/m/results/reference/k1/results.tsv"
out=$("$RUN" --cases "$C" --abi-check "$tmp/m/map/abi-map.txt" 'f/*' 2>&1)
check "a pass under a moved case's old name (renames.txt) counts" \
	bash -c '! grep -q "^el.b: named but never run" <<<"$1"' _ "$out"
check "and the summary says so" grep -q "(0 of them only by cases that never passed" <<<"$out"
printf 'el.a\n' >"$tmp/one.txt"
out=$("$RUN" --cases "$C" --abi-check "$tmp/one.txt" f/ok 2>&1); rc=$?
check "--abi-check of a covered map exits 0" test $rc -eq 0
check "without reference runs nothing is never-run" grep -q "(0 of them only by" <<<"$out"
out=$("$RUN" --cases "$C" --abi-check "$tmp/none.txt" f/ok 2>&1); rc=$?
check "an unreadable map exits 2" test $rc -eq 2
check "and says so in one line" test "$(wc -l <<<"$out")" -eq 1 -a -n "$(grep "cannot read the ABI map" <<<"$out")"

# the run directory cannot be made
: >"$tmp/file"
out=$("$RUN" --cases "$C" --results "$tmp/file/r" f/ok 2>&1); rc=$?
check "an impossible results directory exits 2" test $rc -eq 2
check "and names it" grep -q "cannot create a run directory under $tmp/file/r" <<<"$out"
# the run summary's view of a given map
out=$("$RUN" --cases "$C" --no-results --abi-map "$tmp/m/map/abi-map.txt" f/ok 2>&1); rc=$?
check "--abi-map: the cases run cover the map" \
	grep -q "^# ABI map: the cases run cover 1 of 5 elements (1 more untestable with a reason, 3 not covered by the selected cases)$" <<<"$out"
finish
