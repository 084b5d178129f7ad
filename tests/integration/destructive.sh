#!/usr/bin/env bash
# Destructive cases (those that may crash a kernel without their fix) run
# only with --destructive, after every other case, and never on a kernel
# inside their known-bug range.
. "$(dirname "$0")/lib.bash"
CASE=selftest/destructive
ARGS=(--cases "$SELF" --no-results --identity "$ME" --paranoid "$(cat /proc/sys/kernel/perf_event_paranoid)")

out=$(PERFABI_DESTRUCTIVE= "$SELF/$CASE" 2>&1); rc=$?
check "run alone without PERFABI_DESTRUCTIVE=1 it skips" test $rc -eq 4
check "saying why and which fix" grep -q "SKIP destructive: a kernel without fix 0123456789ab may crash or hang; runs only under --vm or with --destructive" <<<"$out"

out=$(PERFABI_DESTRUCTIVE=1 "$SELF/$CASE" 2>&1); rc=$?
check "with PERFABI_DESTRUCTIVE=1 it runs" test $rc -eq 0

out=$(PERFABI_DESTRUCTIVE=1 PERFABI_KERNEL_VERSION=1.5.0 "$SELF/$CASE" 2>&1); rc=$?
check "inside its known-bug range it is not run, even when allowed" test $rc -eq 4
check "saying the range and the fix" grep -q "destructive, not run: kernel 1.5.0 is in the known range of the bug (1.0..2.0) fixed by 0123456789ab" <<<"$out"

out=$(PERFABI_DESTRUCTIVE=1 "$RUN" "${ARGS[@]}" "$CASE" 2>&1); rc=$?
check "the runner without --destructive skips it, whatever the environment says" \
	grep -q "^ok 1 $CASE@$ME,paranoid=[0-9-]* # SKIP destructive:" <<<"$out"

out=$("$RUN" "${ARGS[@]}" --destructive "$CASE" selftest/pass 2>&1); rc=$?
check "the runner with --destructive runs it" grep -q "^ok [0-9] $CASE@$ME,paranoid=[0-9-]*\$" <<<"$out"
check "after every other case" bash -c 'grep -E "^(not )?ok " <<<"$1" | tail -n1 | grep -q "$2@"' _ "$out" "$CASE"

out=$("$RUN" --help 2>&1)
check "--help names --destructive" grep -q -- "--destructive" <<<"$out"
out=$("$RUN" --cases "$SELF" --fixes 2>&1); rc=$?
check "--fixes lists the cases that check a kernel fix, and exits 0" test $rc -eq 0
check "with the fix and the destructive mark" grep -q "^$CASE *\[destructive\] 0123456789ab (selftest) 9.9$" <<<"$out"
check "and only those" grep -q "^# 1 case(s) check a kernel fix$" <<<"$out"
finish
