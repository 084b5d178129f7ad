#!/usr/bin/env bash
# perf_event_paranoid is the same after a run: after a normal end, after
# SIGINT and SIGTERM mid-run, and after SIGKILL once the next run started.
# A second concurrent run is refused. Needs root (it changes the sysctl).
. "$(dirname "$0")/lib.bash"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to change perf_event_paranoid"
[ -w "$PARANOID" ] || skip_all "perf_event_paranoid is not writable"
tmp=$(mktemp -d)
export PERFABI_STATE_DIR=$tmp/state
before=$(cat "$PARANOID")
# whatever happens to this script, the machine keeps its setting
trap 'echo "$before" > "$PARANOID"; rm -rf "$tmp"' EXIT
other=0; [ "$before" = 0 ] && other=1

"$RUN" --cases "$SELF" --no-results --paranoid -1,0,1,4 selftest/sleep_privileged >/dev/null
check "normal end restores the level" test "$(cat $PARANOID)" = "$before"

changed() { [ "$(cat $PARANOID)" = "$other" ]; }
for sig in INT TERM HUP; do
	PERFABI_SELFTEST_SLEEP=30 "$RUN" --cases "$SELF" --results "$tmp/r" --run-id $sig --paranoid $other \
		selftest/sleep_privileged >"$tmp/out.$sig" 2>&1 &
	pid=$!
	wait_for 60 changed
	check "the run changed the level before SIG$sig" changed
	kill -$sig $pid
	wait $pid; rc=$?
	check "SIG$sig restores the level" test "$(cat $PARANOID)" = "$before"
	code=$((128 + $(kill -l $sig)))
	check "SIG$sig run exits $code (interrupted, not failed)" test $rc -eq $code
	check "SIG$sig: the running case is not a failure" grep -q "^ok 1 selftest/sleep_privileged@.* # SKIP interrupted by signal" "$tmp/out.$sig"
	check "SIG$sig: the plan stays whole" grep -q "^ok 4 selftest/sleep_privileged@user,.* # SKIP not run: the run was interrupted" "$tmp/out.$sig"
	check "SIG$sig: results.tsv has no result for it" test ! -s "$tmp/r/$sig/results.tsv"
	check "SIG$sig: summary.json says interrupted" grep -q '"interrupted": {"signal": '"$(kill -l $sig)"', "completed": 0, "planned": 4, "during": "selftest/sleep_privileged@root' "$tmp/r/$sig/summary.json"
	if command -v prove >/dev/null; then
		check "SIG$sig: prove accepts the stream" bash -c "prove -Q -e cat $tmp/r/$sig/run.tap >/dev/null 2>&1 || prove -e cat $tmp/r/$sig/run.tap 2>&1 | grep -q 'Result: PASS'"
	fi
	check "SIG$sig leaves no case running" bash -c "! pgrep -f [t]estcases/selftest/sleep_privileged >/dev/null"
done

# the lock: a second run is refused while the first holds it
PERFABI_SELFTEST_SLEEP=30 "$RUN" --cases "$SELF" --no-results --paranoid $other \
	selftest/sleep_privileged >/dev/null 2>&1 &
pid=$!
wait_for 60 changed
out=$("$RUN" --cases "$SELF" --no-results selftest/pass 2>&1); rc=$?
check "a concurrent run exits 2" test $rc -eq 2
check "a concurrent run says why" grep -q "another perfabi run holds" <<<"$out"
# another checkout (its own state directory) is refused too: the sysctls
# are the machine's
out=$(PERFABI_STATE_DIR=$tmp/other-state "$RUN" --cases "$SELF" --no-results selftest/pass 2>&1); rc=$?
check "a concurrent run from another state directory exits 2" test $rc -eq 2
check "and names the machine-wide lock" grep -q "another perfabi run holds ${PERFABI_MACHINE_LOCK:-/run/perfabi.lock}" <<<"$out"

# SIGKILL: nothing can restore now; the next run must, first thing
kill -KILL $pid; wait $pid 2>/dev/null
pkill -KILL -f testcases/selftest/sleep_privileged
check "after SIGKILL the level is still changed" changed
check "the journal survived" test -s "$PERFABI_STATE_DIR/journal"
out=$("$RUN" --cases "$SELF" --no-results selftest/pass 2>&1); rc=$?
check "the next run restores from the journal" test "$(cat $PARANOID)" = "$before"
check "and says so" grep -q "restored it to $before" <<<"$out"
check "the journal is gone" test ! -e "$PERFABI_STATE_DIR/journal"
# the private directory (tracepoint id list) a run hands to unprivileged cells goes with it,
# also the one the SIGKILLed run left
check "no private directory is left behind" bash -c "! ls -d /run/perfabi.$pid.* /tmp/perfabi.$pid.* >/dev/null 2>&1"
finish
