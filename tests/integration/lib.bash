# Helpers for the integration tests (sourced). Each test prints TAP lines.
BUILD=${BUILD:-build}
RUN="$BUILD/perfabi-run"
SELF="$BUILD/testcases"
PARANOID=/proc/sys/kernel/perf_event_paranoid
# The identity the runner has when these tests start it (pa_identity_current):
# root, or, as an ordinary user (uid != 0, no capabilities), user: such a
# runner runs only that identity at the current paranoid level.
if [ "$(id -u)" -eq 0 ]; then ME=root; else ME=user; fi
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }	# skip "description" "reason"
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $1"; [ -n "${2:-}" ] && echo "# $2"; }
check() { # check "description" command...
	local d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d" "command failed: $*"; fi
}
# result_with_detail TEXT RESULT-RE DETAIL-RE: the result line matching
# RESULT-RE (grep's basic regex) comes right after the "# detail: ..." line
# that matches DETAIL-RE (a failure's reason, a pass's note)
result_with_detail() { grep -B1 -e "$2" <<<"$1" | grep -q -e "$3"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
finish() { echo "1..$n"; [ "$failed" -eq 0 ]; }
# wait until a condition holds, at most $1 seconds
wait_for() { local t=$(( $1 * 10 )); shift; while [ $t -gt 0 ]; do "$@" && return 0; sleep 0.1; t=$((t - 1)); done; return 1; }
