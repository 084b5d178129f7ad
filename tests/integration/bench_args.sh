#!/usr/bin/env bash
# ./run.sh --bench: bad input is refused (exit 2, one line, nothing
# written); the report's numbers and the flake list come from the runs'
# results (a stand-in runner here, whose second run flips one result).
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
B=harness/tools/bench.sh

out=$($B --help 2>&1); rc=$?
check "--help exits 0" test $rc -eq 0
for bad in "0" "101" "--runs x" "--run-id a/b" "--bogus" "-- --no-results" "-- --results /tmp"; do
	# shellcheck disable=SC2086
	out=$($B --results "$tmp" $bad 2>&1); rc=$?
	check "'$bad' is refused with exit 2" test $rc -eq 2
	check "'$bad' gets one line" test "$(wc -l <<<"$out")" -eq 1
done
check "nothing was written for refused input" test -z "$(ls "$tmp")"

cat >"$tmp/runner" <<'R'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
	case "$1" in --results) R=$2; shift 2 ;; --run-id) I=$2; shift 2 ;; *) shift ;; esac
done
mkdir -p "$R/$I"
o=pass; [ "$I" = run-2 ] && [ -n "${FLIP:-}" ] && o=fail
printf 'a/one@root,paranoid=2\tpass\t30\t\na/two@root,paranoid=2\t%s\t10\t\na/two@user,paranoid=2\tskip\t5\tno\n' "$o" >"$R/$I/results.tsv"
sleep 0.2
R
chmod +x "$tmp/runner"
out=$(PERFABI_BENCH_RUNNER=$tmp/runner $B --runs 3 --results "$tmp" --run-id same 2>/dev/null); rc=$?
check "three agreeing runs: exit 0" test $rc -eq 0
check "no flakes reported" grep -q "^flakes: none: every result had the same outcome in all 3 runs$" <<<"$out"
check "a line per run with its results" test "$(grep -cE '^[123] +[0-9.]+ +[0-9.]+ +3 ' <<<"$out")" -eq 3
check "the slowest case first" grep -A1 "the 10 slowest" <<<"$out" | grep -q "30  a/one$"
check "per cell time" grep -qE "^  user,paranoid=2 +0\.01$" <<<"$out"
check "the report is kept" test -s "$tmp/same/bench.txt"
out=$(FLIP=1 PERFABI_BENCH_RUNNER=$tmp/runner $B --runs 3 --results "$tmp" --run-id flaky 2>/dev/null); rc=$?
check "a result that differs between runs: exit 1" test $rc -eq 1
check "named with each run's outcome" grep -q "^  FLAKE a/two@root,paranoid=2: 1:pass 2:fail 3:pass$" <<<"$out"
check "and counted" grep -q "^flakes: 1 result(s) differed between runs" <<<"$out"
# --load: one hog per CPU during the runs, the report says so, none is
# left afterwards (the hogs are subshells of bench.sh: its command line)
out=$(PERFABI_BENCH_RUNNER=$tmp/runner $B --runs 2 --load --results "$tmp" --run-id loaded 2>"$tmp/load.err"); rc=$?
check "--load: exit 0" test $rc -eq 0
check "--load: the report says so" grep -q "^# under load: $(getconf _NPROCESSORS_ONLN) CPU hog(s)" <<<"$out"
check "--load: pass/fail/skip per run" test "$(grep -cE '^[12] .* 0 +2 +0 +1$' <<<"$out")" -eq 2
sleep 0.3
check "--load: no hog left" test -z "$(pgrep -f -- "--run-id loaded")"
PERFABI_BENCH_RUNNER=$tmp/runner $B --runs 3 --load --results "$tmp" --run-id stopped >/dev/null 2>&1 &
bench=$!
sleep 0.3
kill -TERM "$bench"; wait "$bench"; rc=$?
check "--load, SIGTERM: exit 143" test $rc -eq 143
sleep 0.3
check "--load, SIGTERM: no hog left" test -z "$(pgrep -f -- "--run-id stopped")"
finish
