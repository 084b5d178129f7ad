#!/usr/bin/env bash
# The runner asks once per cell (an identity at a paranoid level) which of
# the cell's cases cannot run there (perfabi-cases --unmet): those results
# are the SKIPs the cases would have given, with the same reason and the
# same lines before the result, without an exec of each case. Where a cell
# has fewer than three cases of one program, each case checks for itself.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp"	# the cells of uid 65534 write the probe file too
export PERFABI_STATE_DIR=$tmp/state PERFABI_SELFTEST_DIR=$tmp
cells=1
[ "$ME" = root ] && cells=2	# root and user run the plain cases

# the program itself, as the runner calls it
out=$("$SELF/perfabi-testcases" --unmet=selftest/pass,selftest/skip,selftest/skip_probed,selftest/bad_feature,selftest/no_assertion,nosuch/case); rc=$?
check "--unmet exits 0" test $rc -eq 0
check "it names the two cases whose requirements are unmet, with their reasons" \
	test "$(grep '^unmet: ' <<<"$out")" = "$(printf 'unmet: selftest/skip\tno '"'"'no_such_pmu'"'"' PMU in /sys/bus/event_source/devices\nunmet: selftest/skip_probed\tselftest: the probe says no ever')"
check "each after the lines the case prints first" \
	test "$(grep -B2 '^unmet: selftest/skip_probed' <<<"$out" | head -n2)" = "$(printf '# selftest/skip_probed: selftest: skips by its probe\n# ref: tests/integration/cell_check.sh')"
check "a case at fault (an unknown feature, no assertion) is left to its own run" \
	bash -c "! grep -q 'bad_feature\|no_assertion' <<<\"\$1\"" _ "$out"
check "the program by its own name ran the probe" test "$(cat "$tmp/probes")" = perfabi-testcases
rm -f "$tmp/probes"
out=$("$SELF/selftest/pass" --unmet=selftest/pass,selftest/skip_probed); rc=$?
check "any case of the program answers for all" \
	test "$rc:$(grep '^unmet: ' <<<"$out")" = "$(printf '0:unmet: selftest/skip_probed\tselftest: the probe says no ever')"
check "running the probe there" test "$(cat "$tmp/probes")" = pass
rm -f "$tmp/probes"

# a run of four cases
"$RUN" --cases "$SELF" --results "$tmp/r" --run-id many -v selftest/pass selftest/skip selftest/skip_probed selftest/xfail >"$tmp/many.out" 2>&1
check "the probe ran once per cell, in the cell's check (run as its first case)" \
	test "$(cat "$tmp/probes")" = "$(yes pass | head -n $cells)"
check "its results are the skips the case gives" \
	test "$(grep -c $'^selftest/skip_probed@[a-z]*,paranoid=[0-9-]*\tskip\t[0-9]*\tselftest: the probe says no ever$' "$tmp/r/many/results.tsv")" -eq $cells
check "after the case's own lines, in run.tap" \
	grep -B2 -q "^ok [0-9]* selftest/skip_probed@$ME,paranoid=[0-9-]* # SKIP selftest: the probe says no ever$" "$tmp/r/many/run.tap"
check "which say what it asserts" \
	test "$(grep -B2 "^ok [0-9]* selftest/skip_probed@$ME," "$tmp/r/many/run.tap" | head -n2)" = "$(printf '# selftest/skip_probed: selftest: skips by its probe\n# ref: tests/integration/cell_check.sh')"
check "and on stdout with -v" \
	grep -B2 -q "^ok [0-9]* selftest/skip_probed@$ME,paranoid=[0-9-]* # SKIP selftest: the probe says no ever$" "$tmp/many.out"
check "a requirement the cell check found unmet is a skip too" \
	grep -q $'^selftest/skip@'"$ME"$',paranoid=[0-9-]*\tskip\t[0-9]*\tno \'no_such_pmu\' PMU in /sys/bus/event_source/devices$' "$tmp/r/many/results.tsv"
check "the other cases ran" \
	grep -q $'^selftest/pass@'"$ME"$',paranoid=[0-9-]*\tpass' "$tmp/r/many/results.tsv"
rm -f "$tmp/probes"

# the case alone: it checks for itself
"$RUN" --cases "$SELF" --no-results selftest/skip_probed >"$tmp/one.out" 2>&1
check "one case alone checks its own requirements" \
	test "$(cat "$tmp/probes")" = "$(yes skip_probed | head -n $cells)"
check "with the same result" \
	grep -q "^ok [0-9]* selftest/skip_probed@$ME,paranoid=[0-9-]* # SKIP selftest: the probe says no ever$" "$tmp/one.out"
finish
