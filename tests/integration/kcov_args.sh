#!/usr/bin/env bash
# ./run.sh --kcov without booting anything: bad input is a one-line error
# with exit status 2, and --compare attributes the lines only one run
# reached to their functions (two handmade lcov tracefiles).
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
K=harness/tools/kcov.sh

one_line_2() { # description command...: exit 2 and one line of error
	local d=$1 out rc
	shift
	out=$("$@" 2>&1); rc=$?
	check "$d exits 2" test $rc -eq 2
	check "$d says it in one line" test "$(grep -c . <<<"$out")" -eq 1
	LAST=$out
}
one_line_2 "an unknown option" $K --bogus
check "and points at --help" grep -q "try --help" <<<"$LAST"
one_line_2 "a pattern before --" $K 'read/*'
one_line_2 "a bad --timeout" $K --timeout 0
one_line_2 "a --tree that is not a kernel tree" $K --tree "$tmp"
check "and names the tree" grep -q "bad --tree" <<<"$LAST"
one_line_2 "a bad --run-id" $K --run-id '../x'
one_line_2 "--compare with one run" $K --compare "$tmp"
one_line_2 "--compare of a run without coverage" $K --compare "$tmp" "$tmp"
check "and says what is missing" grep -q "no kernel coverage" <<<"$LAST"
one_line_2 "--report of a run without counters" $K --report "$tmp"
check "and says what is missing" grep -q "no gcov counters" <<<"$LAST"
one_line_2 "--compare after other options" $K --timeout 5 --compare "$tmp" "$tmp"

# two runs: A reaches f's lines 10-11 and g's 20; B reaches f's 10 and h's 30-32
mkdir -p "$tmp/A/kcov" "$tmp/B"
info() { # name: DA lines "line,hits" ...
	{
		echo "TN:suite"
		echo "SF:/src/linux/kernel/events/core.c"
		echo "FN:9,f"; echo "FN:19,g"; echo "FN:29,h"
		shift
		for d in "$@"; do echo "DA:$d"; done
		echo "end_of_record"
	}
}
info A 10,3 11,1 12,0 20,5 21,0 30,0 31,0 32,0 >"$tmp/A/kcov/suite.info"
info B 10,1 11,0 12,0 20,0 21,0 30,2 31,2 32,1 >"$tmp/B/suite.info"
out=$($K --compare "$tmp/A" "$tmp/B" 2>&1); rc=$?
check "--compare of two runs exits 0" test $rc -eq 0
check "counts the lines each reached" grep -q "lines reached: A 3 .* B 4 " <<<"$out"
check "A only: 2 lines" grep -q "reached by A only: 2 lines" <<<"$out"
check "B only: 3 lines" grep -q "reached by B only: 3 lines" <<<"$out"
check "h's lines are B's, by function" grep -Eq "core\.c +h +3 line\(s\) 30-32" <<<"$out"
check "f's line 11 is A's" grep -Eq "core\.c +f +1 line\(s\) 11-11" <<<"$out"
check "g's line 20 is A's" grep -Eq "core\.c +g +1 line\(s\) 20-20" <<<"$out"
check "f's line 10, reached by both, is in neither list" bash -c '! grep -q "10-10" <<<"$1"' _ "$out"

# the rules that group unentered functions: four tab-separated fields, a
# yes/no verdict, and patterns awk accepts
bad=$(awk -F'\t' '!/^#/ && NF && (NF != 4 || ($3 != "yes" && $3 != "no") || $4 == "") { print NR": "$0 }' fixtures/kernel/kcov-groups.tsv)
check "every rule of kcov-groups.tsv has pattern, group, yes/no and a reason" test -z "$bad"
check "every pattern is a valid awk regular expression" \
	awk -F'\t' '!/^#/ && NF { if ("x" ~ ("^(" $1 ")$")) n++ } END { exit 0 }' fixtures/kernel/kcov-groups.tsv
finish
