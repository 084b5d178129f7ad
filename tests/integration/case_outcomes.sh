#!/usr/bin/env bash
# A case binary's own verdicts on a body that misbehaves (killed by a
# signal, an exit status of its own, too many sysctls), on a case that is
# declared wrong (no .assertion, an unknown feature), and on a signal to
# its supervisor; and the knobs a body changed are put back.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

out=$("$SELF/selftest/crash"); rc=$?
check "a body killed by a signal fails" test $rc -eq 1
check "naming the signal" result_with_detail "$out" "^not ok 1 selftest/crash$" "^# detail: body killed by signal 9 (Killed)$"
out=$("$SELF/selftest/exit_status"); rc=$?
check "a body that exits 3 fails" test $rc -eq 1
check "naming the status" result_with_detail "$out" "^not ok 1 selftest/exit_status$" "^# detail: body exited with status 3$"
out=$("$SELF/selftest/no_assertion" 2>&1); rc=$?
check "a case without .assertion fails" test $rc -eq 1
check "and says so" grep -qx "selftest/no_assertion: the case declares no .assertion" <<<"$out"
out=$("$SELF/selftest/bad_feature"); rc=$?
check "an unknown feature is a failure, not a skip" test $rc -eq 1
check "naming it" result_with_detail "$out" "^not ok 1 selftest/bad_feature$" "^# detail: unknown feature 'bogus'"
out=$("$SELF/selftest/pass" --help); rc=$?
check "--help exits 0" test $rc -eq 0
check "--help names the case and the exit codes" \
	grep -q "Runs the case selftest/pass" <<<"$out"
check "--help gives the exit codes" grep -q "0 pass, 1 fail, 2 xfail, 3 xpass, 4 skip, 64 bad usage" <<<"$out"

for i in $(seq 0 16); do echo "old$i" >"$tmp/k$i"; done
out=$(PERFABI_SELFTEST_DIR=$tmp "$SELF/selftest/many_sysctls"); rc=$?
check "a 17th knob fails the case" test $rc -eq 1
check "saying how many a case may change" \
	result_with_detail "$out" "^not ok 1 selftest/many_sysctls$" "^# detail: 1 check(s) failed: .*too many sysctls changed by one case (max 16)"
restored=0
for i in $(seq 0 15); do [ "$(cat "$tmp/k$i")" = "old$i" ] && restored=$((restored + 1)); done
check "the 16 knobs are back at their first values" test $restored -eq 16
check "the refused one was not written" test "$(cat "$tmp/k16")" = old16
check "an unreadable knob is not created" test ! -e "$tmp/absent"

# a signal to the supervisor: a failure that says so, then the signal
PERFABI_SELFTEST_SLEEP=20 "$SELF/selftest/sleep_privileged" >"$tmp/out" &
pid=$!
wait_for 60 grep -q "^# ref\|^# selftest/sleep_privileged" "$tmp/out"
wait_for 60 pgrep -P $pid >/dev/null
kill -TERM $pid; wait $pid; rc=$?
check "an interrupted case dies of the signal" test $rc -eq 143
check "after a failure line" result_with_detail "$(cat "$tmp/out")" "^not ok 1 selftest/sleep_privileged$" "^# detail: interrupted$"
check "that names the signal" grep -q "^# harness: interrupted by signal 15$" "$tmp/out"
check "the body is gone" bash -c "! pgrep -P $pid >/dev/null"
out=$("$SELF/selftest/race"); rc=$?
check "pa_race_run keeps its round and time budgets and stops when told" test $rc -eq 0
check "and says how much it ran" grep -q "^# race: 500 round(s) in [0-9]* ms (budget 500 rounds, 5000 ms)$" <<<"$out"
out=$(PERFABI_PARALLEL=0 "$SELF/selftest/global_undeclared"); rc=$?
check "a case that pins itself passes when it runs alone" test $rc -eq 0
out=$(PERFABI_PARALLEL=1 "$SELF/selftest/global_undeclared"); rc=$?
check "beside other cases (-j) and not .alone, it fails" test $rc -eq 1
check "saying what it did and what to declare" result_with_detail "$out" "^not ok 1 selftest/global_undeclared$" "^# detail: harness: the case pinned itself to a CPU while other cases ran beside it (perfabi-run -j): declare .alone = true$"
finish
