#!/usr/bin/env bash
# make check-kselftest: `make install` into an empty directory, add the
# kernel's own run_kselftest.sh and kselftest/ (from Debian's
# linux-source-6.12, unpacked once into the cache as ./run.sh bisect does),
# and run the whole perfabi collection under it, as a KernelCI or LKFT
# job would. It must:
#   - list one perfabi:<area>.<case> test per case (run_kselftest.sh -l),
#   - give every result of every case, cell by cell, the outcome that
#     perfabi-run gives from the source tree in the same run of this script
#     (the runner's KTAP nested in runner.sh's output as "# ok N name@cell"),
#   - give, nested, KTAP that kunit_tool parses with one test per result,
#     every result name under 100 characters (LKFT writes a file per result),
#   - report each test as runner.sh does: "ok" for a pass or a known kernel
#     bug, "ok ... # SKIP" (exit 4) when every result was a skip, "not ok"
#     for a failure, so that a test's line agrees with its results.
# Root only (the privilege matrix switches identity and paranoid level).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
t0=$(date +%s)
say() { printf 'check-kselftest: %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root: the privilege matrix switches identity and paranoid level"; exit 2; }

src=$(harness/tools/kernel.sh source 6.12) || { say "no linux-source-6.12 for run_kselftest.sh"; exit 1; }
ks=$src/tools/testing/selftests
[ -f "$ks/run_kselftest.sh" ] && [ -f "$ks/kselftest/runner.sh" ] ||
	{ say "$ks has no run_kselftest.sh and kselftest/runner.sh"; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/perfabi-ksft.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"	# the unprivileged identities reach the cases through it
inst=$dir/install
make -s install INSTALL_PATH="$inst" >/dev/null || { say "make install failed"; exit 1; }
cp "$ks/run_kselftest.sh" "$inst/" && cp -r "$ks/kselftest" "$inst/" || exit 1

fail=0
bad() { say "FAIL: $*"; fail=1; }

# the list
"$inst/run_kselftest.sh" -l >"$dir/list" 2>&1
ncases=$(./build/perfabi-run --list | wc -l)
[ "$(grep -c '^perfabi:' "$dir/list")" -eq "$ncases" ] ||
	bad "run_kselftest.sh -l lists $(grep -c '^perfabi:' "$dir/list") perfabi tests, there are $ncases cases"

# the source tree's results, then the collection under run_kselftest.sh
./build/perfabi-run --no-results >"$dir/tree.tap" 2>/dev/null
t1=$(date +%s)
# through a pipe: runner.sh writes the tests' output by reopening
# /dev/stdout, which on a plain file starts again at its beginning
(cd / && "$inst/run_kselftest.sh" -c perfabi) 2>&1 | cat >"$dir/ksft.out"
rc=${PIPESTATUS[0]}
t2=$(date +%s)
say "source tree $((t1 - t0)) s (with the install), run_kselftest.sh -c perfabi $((t2 - t1)) s, exit $rc"

# outcome of each result: pass, fail, skip, xfail, xpass (from KTAP lines)
outcomes() { # file prefix-to-strip
	sed -n "s/^$2\(not ok\|ok\) [0-9]* \([^ ]*@[^ ]*\)\(.*\)$/\2 \1\3/p" "$1" |
		awk '{ o = ($2 == "ok") ? "pass" : "fail"; rest = $0
		       if (rest ~ /# SKIP/) o = "skip"
		       else if (rest ~ /# (TODO )?XFAIL/) o = "xfail"
		       else if (rest ~ /# (TODO )?XPASS/) o = "xpass"
		       print $1, o }' | LC_ALL=C sort
}
outcomes "$dir/tree.tap" "" >"$dir/tree.res"
outcomes "$dir/ksft.out" "# " >"$dir/ksft.res"
ntree=$(wc -l <"$dir/tree.res")
nksft=$(wc -l <"$dir/ksft.res")
[ "$ntree" -gt 0 ] || bad "no results from the source tree"
if ! diff -q "$dir/tree.res" "$dir/ksft.res" >/dev/null; then
	bad "results differ (source tree <, run_kselftest.sh >; $ntree and $nksft results):"
	diff "$dir/tree.res" "$dir/ksft.res" | head -20 >&2
fi

# each test's kselftest line agrees with its results
awk '
	/^# (not ok|ok) [0-9]+ [^ ]+@/ {
		o = ($2 == "ok") ? "pass" : "fail"
		if ($0 ~ /# SKIP/) o = "skip"; else if ($0 ~ /# (TODO )?X(FAIL|PASS)/) o = "known"
		n[o]++; next
	}
	/^(not ok|ok) [0-9]+ selftests: perfabi: / {
		t = $0; sub(/^.*selftests: perfabi: /, "", t); sub(/ .*/, "", t)
		want = n["fail"] ? "not ok" : (n["pass"] + n["known"] ? "ok" : "ok # SKIP")
		got = ($1 == "not") ? "not ok" : ($0 ~ /# SKIP$/ ? "ok # SKIP" : "ok")
		if (got != want) { printf "%s: kselftest says \"%s\", its results say \"%s\"\n", t, got, want; bad++ }
		tests++; delete n
	}
	END { printf "%d tests\n", tests; exit bad ? 1 : 0 }' "$dir/ksft.out" >"$dir/lines" ||
	bad "$(grep -v ' tests$' "$dir/lines" | head -5)"
ntests=$(sed -n 's/^\([0-9]*\) tests$/\1/p' "$dir/lines")
[ "${ntests:-0}" -eq "$ncases" ] || bad "run_kselftest.sh ran ${ntests:-0} tests, there are $ncases cases"

# each test's nested output is KTAP on its own: runner.sh writes it as "# "
# lines, which made subtests again (indented by four spaces, before the
# test's own line) kunit_tool parses with one test per result
awk '
	/^# selftests: perfabi: / { next }
	/^# / { sub(/^# /, "    "); print; next }
	/^(not ok|ok) [0-9]+ selftests: perfabi: / { print; next }
	{ print }' "$dir/ksft.out" >"$dir/nested.tap"
kres=$(python3 "$src/tools/testing/kunit/kunit.py" parse "$dir/nested.tap" 2>&1 |
	sed -n 's/.*Ran \([0-9]*\) tests\{0,1\}:.*/\1/p' | tail -n1)
[ "${kres:-0}" -eq "$nksft" ] || bad "kunit.py parse of the nested output counts ${kres:-no} tests, the results are $nksft"
long=$(awk 'length($1) >= 100 { print $1 }' "$dir/ksft.res" | head -n1)
[ -z "$long" ] || bad "a result name of 100 characters or more: $long"

if [ $fail -ne 0 ]; then
	say "output kept: $(cp -r "$dir" "${TMPDIR:-/tmp}/perfabi-ksft-failed" && echo "${TMPDIR:-/tmp}/perfabi-ksft-failed")"
	exit 1
fi
say "ok: $ntests tests, $nksft results, the same outcomes as the source tree ($(($(date +%s) - t0)) s)"
