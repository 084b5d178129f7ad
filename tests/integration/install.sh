#!/usr/bin/env bash
# make install: the installed tree runs the suite without a compiler or the
# source tree, from any working directory, and in kselftest's layout
# (kselftest-list.txt, settings, one executable per test, exit 0/1/4); a bad
# INSTALL_PATH is a one-line error, exit 2, and nothing is touched.
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
[ -x "$RUN" ] && [ -d "$BUILD/cases/open" ] || skip_all "build the suite first (make)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"	# the cases run as uid 65534 too
export PERFABI_STATE_DIR=$tmp/state
inst=$tmp/inst
mkdir "$tmp/elsewhere"

make -s BUILD="$BUILD" install INSTALL_PATH="$inst" >"$tmp/log" 2>&1; rc=$?
check "make install exits 0" test $rc -eq 0
[ $rc -eq 0 ] || { sed 's/^/# /' "$tmp/log"; finish; exit 1; }
check "the runner, ABI map and run.sh are installed" \
	test -x "$inst/perfabi/perfabi-run" -a -s "$inst/perfabi/abi-map.txt" -a -x "$inst/run.sh"
built=$(cd "$BUILD" && find cases fixtures -mindepth 1 ! -type d | sort)
check "every built case and fixture is installed" \
	test "$(cd "$inst/perfabi" && find cases fixtures -mindepth 1 ! -type d | sort)" = "$built"
check "no C sources or headers are installed" test -z "$(find "$inst" -name '*.[ch]')"
check "no tests, harness or results are installed" \
	test -z "$(find "$inst" -name tests -o -name harness -o -name results)"
check "the installed run.sh does not call make" bash -c '! grep -qE "^[^#]*\<make\>" "$1"' _ "$inst/run.sh"

# the same results from the installed tree, run from another directory
lvl=$(cat $PARANOID)
results() { grep -E '^(not )?ok ' | sed -E 's/^((not )?ok) [0-9]+ ([^ ]+).*( # (SKIP|XFAIL|XPASS|TODO [A-Z]+)).*/\1 \3\4/; t; s/^((not )?ok) [0-9]+ ([^ ]+).*/\1 \3/'; }
"$RUN" --no-results --identity root --paranoid "$lvl" 'open/*' 2>&1 | results >"$tmp/source"
want=${PIPESTATUS[0]}
(cd "$tmp/elsewhere" && "$inst/run.sh" --no-results --identity root --paranoid "$lvl" 'open/*') 2>&1 |
	results >"$tmp/installed"
got=${PIPESTATUS[0]}
check "the source tree's run gave results" test -s "$tmp/source"
check "the installed run gives the same results" cmp -s "$tmp/source" "$tmp/installed"
check "and the same exit status" test "$got" -eq "$want"
one=$(head -1 "$tmp/source" | sed -E 's/^(not )?ok ([^@]+)@.*/\2/')
(cd "$tmp/elsewhere" && "$inst/run.sh" --identity root --paranoid "$lvl" "$one" >/dev/null 2>&1)
check "results go to ./results of the caller" test -s "$(echo "$tmp"/elsewhere/results/*/run.tap)"
check "and not into the install" test ! -e "$inst/results" -a ! -e "$inst/perfabi/results"

# kselftest: collection:test lines naming executables, a timeout
list=$inst/kselftest-list.txt
check "kselftest-list.txt has one line per case" \
	test "$(wc -l <"$list")" -eq "$(cd "$BUILD" && find cases -mindepth 2 -type l | wc -l)"
check "kselftest-list.txt names only perfabi:<test> lines" bash -c '! grep -qv "^perfabi:[^:/ ]*$" "$1"' _ "$list"
check "every test it names is an executable" bash -c '
	while IFS=: read -r c t; do [ -f "$1/$c/$t" ] && [ -x "$1/$c/$t" ] || exit 1; done <"$1/kselftest-list.txt"' _ "$inst"
check "settings has a timeout" grep -qE '^timeout=[1-9][0-9]*$' "$inst/perfabi/settings"
# as kselftest's runner.sh runs one: cd into the collection, ./<test>
t=${one/\//.}
out=$(cd "$inst/perfabi" && ./"$t" 2>&1); rc=$?
check "a kselftest test runs its case under the runner" grep -q "^ok 1 $one@" <<<"$out"
check "and exits 0 or 4 (skip)" test $rc -eq 0 -o $rc -eq 4
[ $rc -eq 0 ] || [ $rc -eq 4 ] || grep -v '^ok' <<<"$out" | sed 's/^/# /'
d=$("$RUN" --list 2>/dev/null | awk '/\[destructive\]/ { print $1; exit }')
if [ -n "$d" ]; then
	(cd "$inst/perfabi" && ./"${d/\//.}" >/dev/null 2>&1); rc=$?
	check "a case whose results are all skips exits 4" test $rc -eq 4
fi
if [ -x "$SELF/selftest/fail" ]; then
	SELF=$(cd "$SELF" && pwd)
	ksft() { (cd "$inst/perfabi" && ./ksft-case "$1" --cases "$SELF" >/dev/null 2>&1); echo $?; }
	check "kselftest exit: pass 0" test "$(ksft selftest/pass)" -eq 0
	check "kselftest exit: fail 1" test "$(ksft selftest/fail)" -eq 1
	check "kselftest exit: skip 4" test "$(ksft selftest/skip)" -eq 4
	check "kselftest exit: xfail 0 (a known kernel bug)" test "$(ksft selftest/xfail)" -eq 0
fi

# a bad INSTALL_PATH: one line, exit 2, nothing built or removed
echo keep >"$tmp/file"
for bad in "$tmp/file" "$tmp/file/sub"; do
	out=$(make -s BUILD="$BUILD" install INSTALL_PATH="$bad" 2>&1); rc=$?
	check "INSTALL_PATH=${bad#"$tmp"/} exits 2" test $rc -eq 2
	check "with one line that says why" bash -c '[ "$(wc -l <<<"$1")" -eq 1 ] && grep -q "not a directory" <<<"$1"' _ "$out"
done
check "the file is untouched" test "$(cat "$tmp/file")" = keep
check "the earlier install is untouched" test -x "$inst/perfabi/perfabi-run" -a -s "$inst/kselftest-list.txt"
finish
