#!/usr/bin/env bash
# perfabi-run --junit FILE / --json FILE write the results in those forms
# whatever else the run writes; a path that cannot be written is refused
# before anything runs; the stream itself is KTAP with kselftest's version
# line, TAP version 13.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); chmod 755 "$tmp"; trap 'rm -rf "$tmp"' EXIT
ARGS=(--cases "$SELF" --no-results --identity "$ME" --paranoid "$(cat "$PARANOID")")
set -- selftest/pass selftest/fail selftest/skip selftest/xfail

out=$("$RUN" "${ARGS[@]}" --junit "$tmp/r.xml" --json "$tmp/r.json" "$@" 2>&1); rc=$?
check "the run with a failing case exits 1" test $rc -eq 1
check "the version line (TAP version 13) first, then the plan" bash -c 'head -n2 <<<"$1" | tr "\n" " " | grep -qx "TAP version 13 1..4 "' _ "$out"
check "JUnit: one testcase per result" test "$(grep -c '<testcase ' "$tmp/r.xml")" -eq 4
check "JUnit: the failure, with its message" grep -q '<failure message="1 check(s) failed' "$tmp/r.xml"
check "JUnit: skip and xfail are skipped" test "$(grep -c '<skipped message=' "$tmp/r.xml")" -eq 2
check "JUnit: the suite's counts" grep -q 'tests="4" failures="1" errors="0" skipped="2"' "$tmp/r.xml"
check "JSON: the counts" grep -q '"counts": {"pass": 1, "fail": 1, "skip": 1, "xfail": 1, "xpass": 0}' "$tmp/r.json"
check "JSON: every result" test "$(grep -c '{"name": "selftest/' "$tmp/r.json")" -eq 4

for bad in "--junit $tmp/no/such/dir/r.xml" "--json $tmp/no/such/dir/r.json"; do
	# shellcheck disable=SC2086
	out=$("$RUN" "${ARGS[@]}" $bad selftest/pass 2>&1); rc=$?
	check "'${bad%% *} <unwritable>' is refused with exit 2" test $rc -eq 2
	check "in one line, before anything ran" bash -c '[ "$(wc -l <<<"$1")" -eq 1 ] && grep -q "^perfabi-run: cannot write .*: No such file or directory$" <<<"$1"' _ "$out"
done
finish
