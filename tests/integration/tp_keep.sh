#!/usr/bin/env bash
# The runner keeps the tracepoints the cases name registered for the rest
# of the run (runner/tpkeep.c): one disabled event of its own per static
# tracepoint named (twice named: one), none for ftrace:function, a name the
# kernel does not have or a line of junk; none in a run where no case named
# one or the case declared .tracepoint_unkept; and the FIFO goes with the
# run's private directory.
. "$(dirname "$0")/lib.bash"
[ "$(id -u)" -eq 0 ] || skip_all "only a root runner keeps tracepoints"
A=(--cases "$SELF" --no-results --identity root --paranoid "$(cat "$PARANOID")" -j1 -v)

out=$(PERFABI_SELFTEST_KEPT=0 "$RUN" "${A[@]}" selftest/tpkeep_count 2>&1)
check "a run where no case named a tracepoint keeps none" grep -q "^ok .* selftest/tpkeep_count" <<<"$out"
out=$(PERFABI_SELFTEST_KEPT=1 "$RUN" "${A[@]}" selftest/tpkeep_ask selftest/tpkeep_count 2>&1)
if grep -q "^ok .* selftest/tpkeep_ask.*# SKIP" <<<"$out"; then
	skip "a case named sched:sched_switch: the runner keeps one event" \
		"$(grep -m1 -o 'tpkeep_ask.*# SKIP.*' <<<"$out")"
else
	check "a case named sched:sched_switch twice, ftrace:function, an unknown tracepoint and junk: the runner keeps one event" \
		grep -q "^ok .* selftest/tpkeep_count" <<<"$out"
fi
grep -q "^not ok" <<<"$out" && echo "$out" | grep -E "^not ok|holds" | sed 's/^/# /'
out=$(PERFABI_SELFTEST_KEPT=0 "$RUN" "${A[@]}" selftest/tpkeep_asks_unkept selftest/tpkeep_count 2>&1)
if grep -q "^ok .* selftest/tpkeep_asks_unkept.*# SKIP" <<<"$out"; then
	skip "a case declared .tracepoint_unkept: the runner keeps none it names" \
		"$(grep -m1 -o 'tpkeep_asks_unkept.*# SKIP.*' <<<"$out")"
else
	check "a case declared .tracepoint_unkept: the runner keeps none it names" \
		grep -q "^ok .* selftest/tpkeep_count" <<<"$out"
fi
check "no FIFO is left behind" test -z "$(ls -d /run/perfabi.*/tracepoint-keep /tmp/perfabi.*/tracepoint-keep 2>/dev/null)"
finish
