#!/usr/bin/env bash
# The other perf sysctls (here perf_event_max_sample_rate, which the kernel
# itself lowers when sampling interrupts run long) are put back at the end
# of a run, after SIGTERM, and, after SIGKILL, by the next run. Needs root.
. "$(dirname "$0")/lib.bash"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to change the perf sysctls"
RATE=/proc/sys/kernel/perf_event_max_sample_rate
[ -w "$RATE" ] || skip_all "perf_event_max_sample_rate is not writable"
tmp=$(mktemp -d)
export PERFABI_STATE_DIR=$tmp/state
before=$(cat "$RATE")
trap 'echo "$before" > "$RATE"; rm -rf "$tmp"' EXIT
lower=$((before - 1))

start_run() {
	PERFABI_SELFTEST_SLEEP=30 "$RUN" --cases "$SELF" --no-results selftest/sleep_privileged \
		>"$tmp/out" 2>&1 &
	pid=$!
	wait_for 60 test -s "$PERFABI_STATE_DIR/sysctls"
}

start_run
echo "$lower" >"$RATE"		# as the kernel would, mid-run
kill -TERM $pid; wait $pid
check "SIGTERM: the rate is restored" test "$(cat $RATE)" = "$before"
check "and the run says so" grep -q "perf_event_max_sample_rate was $lower, restored it to $before" "$tmp/out"
check "the saved values are dropped" test ! -e "$PERFABI_STATE_DIR/sysctls"

start_run
echo "$lower" >"$RATE"
kill -KILL $pid; wait $pid 2>/dev/null
pkill -KILL -f testcases/selftest/sleep_privileged
check "after SIGKILL the rate is still changed" test "$(cat $RATE)" = "$lower"
out=$("$RUN" --cases "$SELF" --no-results selftest/pass 2>&1)
check "the next run restores it" test "$(cat $RATE)" = "$before"
check "and says it was left by a killed run" grep -q "restored it to $before (left by an earlier run" <<<"$out"
first_line() { [ "$(head -n1 <<<"$out")" = "TAP version 13" ]; }
check "the notes come after the TAP header" first_line
check "the run reports the level the machine has, not the killed run's" \
	grep -q ", paranoid $(cat $PARANOID), uid 0," <<<"$out"
finish
