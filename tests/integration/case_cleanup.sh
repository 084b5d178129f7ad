#!/usr/bin/env bash
# A case binary leaves nothing behind: a sysctl its body changed is restored
# even when the body hangs and is killed, and processes it started in a new
# session are killed.
. "$(dirname "$0")/lib.bash"
rate=/proc/sys/kernel/perf_event_max_sample_rate
if [ "$(id -u)" -eq 0 ] && [ -w $rate ]; then
	before=$(cat $rate)
	"$SELF/selftest/sysctl_timeout" >/dev/null; rc=$?
	check "a hung body times out as a failure" test $rc -eq 1
	check "its sysctl is restored" test "$(cat $rate)" = "$before"
fi
"$SELF/selftest/leftover" >/dev/null; rc=$?
check "a case with a daemon child still passes" test $rc -eq 0
check "the daemon is gone" bash -c "! pgrep -f '[s]leep 4242' >/dev/null"
"$SELF/selftest/skip" >/dev/null; rc=$?
check "a skip exits 4" test $rc -eq 4
"$SELF/selftest/xfail" >/dev/null; rc=$?
check "an xfail exits 2" test $rc -eq 2
out=$("$SELF/selftest/no_check"); rc=$?
check "a body that evaluates no check fails" test $rc -eq 1
check "and says why" grep -q 'without evaluating a single check' <<<"$out"
"$SELF/selftest/pass" --bogus >/dev/null 2>&1; rc=$?
check "a case given a bad option exits 64" test $rc -eq 64
finish
