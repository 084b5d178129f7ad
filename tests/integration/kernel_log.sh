#!/usr/bin/env bash
# A case during which the kernel logs a WARN-like line fails in the
# runner, whatever the case said: through a stand-in log file
# (PERFABI_KMSG) always, and through the real /dev/kmsg as root.
. "$(dirname "$0")/lib.bash"
# as root at level 2; an ordinary user runs as itself at the current level
LV=2; [ "$ME" = root ] || LV=$(cat "$PARANOID")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CASE=selftest/kmsg_warn

printf '4,1,0,-;WARNING: an old line from before the run\n' >"$tmp/kmsg"
out=$(PERFABI_KMSG=$tmp/kmsg "$RUN" --cases "$SELF" --no-results --identity "$ME" --paranoid "$LV" "$CASE" 2>&1); rc=$?
check "a case that passes while the log gets a WARNING fails the run" test $rc -eq 1
check "the result is not ok, saying what the kernel logged" \
	result_with_detail "$out" "^not ok 1 $CASE@$ME,paranoid=$LV$" "^# detail: the kernel logged while it ran: WARNING: CPU: 0 PID: 1 at perfabi self-test"
check "a line from before the run is not blamed" bash -c '! grep -q "an old line" <<<"$1"' _ "$out"

printf '6,2,0,-;perf: interrupt took too long (2510 > 2500), lowering kernel.perf_event_max_sample_rate to 79000\n' >"$tmp/quiet"
out=$(PERFABI_KMSG=$tmp/quiet "$RUN" --cases "$SELF" --no-results --identity "$ME" --paranoid "$LV" selftest/pass 2>&1); rc=$?
check "ordinary kernel lines do not fail a case" test $rc -eq 0

out=$(PERFABI_KMSG=$tmp/absent "$RUN" --cases "$SELF" --no-results --identity "$ME" --paranoid "$LV" selftest/pass 2>&1); rc=$?
check "an unreadable log is said once and the run goes on" test $rc -eq 0
check "naming what cannot be read" grep -q "the kernel log is not readable ($tmp/absent: ENOENT)" <<<"$out"

if [ "$(id -u)" -eq 0 ] && [ -w /dev/kmsg ]; then
	out=$("$RUN" --cases "$SELF" --no-results --identity root --paranoid 2 "$CASE" 2>&1); rc=$?
	check "with the real /dev/kmsg the case fails too" test $rc -eq 1
	check "naming the line" result_with_detail "$out" "^not ok 1 $CASE@root,paranoid=2$" "^# detail: the kernel logged while it ran: WARNING: CPU: 0 PID: 1 at perfabi self-test"
else
	ok "# SKIP the real /dev/kmsg needs root"
fi
finish
