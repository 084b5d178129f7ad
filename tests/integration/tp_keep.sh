#!/usr/bin/env bash
# The runner keeps the tracepoints the cases name registered for the rest
# of the run (runner/tpkeep.c): one disabled event of its own per static
# tracepoint named (twice named: one), none for ftrace:function, a name the
# kernel does not have or a line of junk; one kprobe on getppid's entry and
# none on a function a FIFO line spells out (SKIP without the kprobe PMU);
# none in a run where no case named one or the case declared
# .tracepoint_unkept; and the FIFO goes with the run's private directory.
. "$(dirname "$0")/lib.bash"
[ "$(id -u)" -eq 0 ] || skip_all "only a root runner keeps tracepoints"
A=(--cases "$SELF" --no-results --identity root --paranoid "$(cat "$PARANOID")" -j1 -v)

out=$(PERFABI_SELFTEST_KEPT=0 "$RUN" "${A[@]}" selftest/tpkeep_count 2>&1)
check "a run where no case named a tracepoint keeps none" grep -q "^ok .* selftest/tpkeep_count" <<<"$out"
# kept N ASKER DESCRIPTION: after selftest/ASKER, the runner holds N events
# (a SKIP where ASKER skipped: no tracefs or no such tracepoint)
kept() {
	local out
	out=$(PERFABI_SELFTEST_KEPT=$1 "$RUN" "${A[@]}" "selftest/$2" selftest/tpkeep_count 2>&1)
	if grep -q "^ok .* selftest/$2.*# SKIP" <<<"$out"; then
		skip "$3" "$(grep -m1 -o "$2.*# SKIP.*" <<<"$out")"
	else
		if grep -q "^ok .* selftest/tpkeep_count" <<<"$out"; then ok "$3"
		else not_ok "$3" "$(grep -E "^not ok|holds" <<<"$out" | tr '\n' ' ')"; fi
	fi
}
kept 1 tpkeep_ask "a case named sched:sched_switch twice, ftrace:function, an unknown tracepoint and junk: the runner keeps one event"
kept 1 tpkeep_ask_kprobe "a case asked for a kprobe on getppid's entry twice (once a kretprobe), on getpid's (a kretprobe attr: no ask) and, by hand, on commit_creds, a path and nothing: the runner keeps one event"
kept 0 tpkeep_asks_unkept "a case declared .tracepoint_unkept: the runner keeps none it names"
check "no FIFO is left behind" test -z "$(ls -d /run/perfabi.*/tracepoint-keep /tmp/perfabi.*/tracepoint-keep 2>/dev/null)"
finish
