#!/usr/bin/env bash
# The runner's command line: bad input is a one-line error and exit 2,
# results are never overwritten, and the TAP stream satisfies prove.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PERFABI_STATE_DIR=$tmp/state

out=$("$RUN" --bogus 2>&1); rc=$?
check "unknown option exits 2" test $rc -eq 2
check "unknown option says so" grep -q "unknown option '--bogus'" <<<"$out"
out=$("$RUN" --cases "$SELF" no/such 2>&1); rc=$?
check "unknown case exits 2" test $rc -eq 2
check "unknown case is named" grep -q "no case matches 'no/such'" <<<"$out"
out=$("$RUN" --cases "$SELF" -a nosuch 2>&1); rc=$?
check "unknown area exits 2" test $rc -eq 2
out=$("$RUN" --cases "$tmp/empty" 2>&1); rc=$?
check "no built cases exits 2" test $rc -eq 2

"$RUN" --cases "$SELF" --results "$tmp/r" --run-id one selftest/pass >/dev/null; rc=$?
check "a passing run exits 0" test $rc -eq 0
check "run files written" test -s "$tmp/r/one/run.tap" -a -s "$tmp/r/one/results.tsv" -a -s "$tmp/r/one/summary.json"
cp "$tmp/r/one/results.tsv" "$tmp/before"
out=$("$RUN" --cases "$SELF" --results "$tmp/r" --run-id one selftest/pass 2>&1); rc=$?
check "reusing a run id exits 2" test $rc -eq 2
check "the earlier run is untouched" cmp -s "$tmp/before" "$tmp/r/one/results.tsv"
"$RUN" --cases "$SELF" --results "$tmp/r" selftest/pass >/dev/null
"$RUN" --cases "$SELF" --results "$tmp/r" selftest/pass >/dev/null
check "default run ids never collide" test "$(ls "$tmp/r" | wc -l)" -eq 3

"$RUN" --cases "$SELF" --no-results selftest/fail >/dev/null; rc=$?
check "a failing case makes the run exit 1" test $rc -eq 1
out=$("$RUN" --cases "$SELF" --no-results selftest/skip selftest/xfail selftest/pass); rc=$?
check "skip and xfail do not fail the run" test $rc -eq 0
check "skip carries its reason" grep -q "# SKIP no 'no_such_pmu' PMU" <<<"$out"
check "xfail is kselftest's ok # XFAIL" grep -q "^ok [0-9]* selftest/xfail@[a-z]*,paranoid=[0-9-]* # XFAIL selftest" <<<"$out"
# as root both cells (root, user) run; otherwise only the runner's own
if [ "$ME" = root ]; then closing="2 passed, 0 failed, 2 skipped"; else closing="1 passed, 0 failed, 1 skipped"; fi
check "closing count is a diagnostic on a pipe" grep -qx "# $closing" <<<"$out"
check "nothing on stdout but KTAP" bash -c '! grep -vE "^(TAP version 13|1\.\.[0-9]+|(not )?ok [0-9]+ [^ ]+( # (SKIP|XFAIL|XPASS)( .*)?)?|#( .*)?)$" <<<"$1"' _ "$out"
out=$("$RUN" --cases "$SELF" --no-results selftest/fail selftest/pass)
check "a failure's reason is a diagnostic before its line" bash -c 'grep -A1 "^# detail: 1 check(s) failed" <<<"$1" | grep -q "^not ok [0-9]* selftest/fail@[a-z]*,paranoid=[0-9-]*$"' _ "$out"
check "the run ends with its failures listed" grep -q "^#   selftest/fail@[a-z]*,paranoid=[0-9-]*: 1 check(s) failed: " <<<"$out"
if command -v script >/dev/null; then
	tty_out=$(script -qec "$RUN --cases $SELF --no-results selftest/pass" /dev/null | tr -d '\r')
	check "a person at a terminal sees the plain closing line" grep -qE "^[0-9]+ passed, 0 failed, 0 skipped$" <<<"$tty_out"
fi
if command -v prove >/dev/null; then
	"$RUN" --cases "$SELF" --results "$tmp/r" --run-id p selftest/pass selftest/skip selftest/xfail >/dev/null
	check "prove accepts run.tap" bash -c "prove -Q -e cat $tmp/r/p/run.tap >/dev/null"
fi
grep -q '"kernel": ' "$tmp/r/one/summary.json" && grep -q '"pmus": \[{"name"' "$tmp/r/one/summary.json"
check "summary has kernel and PMU inventory" test $? -eq 0
finish
