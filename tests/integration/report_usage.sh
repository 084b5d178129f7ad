#!/usr/bin/env bash
# perfabi-report's command line: help, bad input (a one-line error and exit
# 2), outputs that cannot be written, and the HTML/JUnit of outcomes and
# details that need escaping.
. "$(dirname "$0")/lib.bash"
REPORT="$BUILD/perfabi-report"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t=$'\t'

one_line_2() { # description command...: exit 2 with one line on stderr, nothing on stdout
	local d=$1 out err rc; shift
	out=$("$@" 2>"$tmp/err"); rc=$?
	err=$(cat "$tmp/err")
	if [ $rc -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		ok "$d"
	else
		not_ok "$d" "rc $rc, stdout '$out', stderr '$err'"
	fi
	last_err=$err
}

out=$("$REPORT" --help); rc=$?
check "--help exits 0" test $rc -eq 0
check "--help shows both commands" grep -q "usage: perfabi-report matrix" <<<"$out"
out=$("$REPORT" compare -h); rc=$?
check "compare -h exits 0" test $rc -eq 0
check "compare -h shows the usage" grep -q "perfabi-report compare" <<<"$out"
out=$("$REPORT" 2>&1 >/dev/null); rc=$?
check "no command exits 2" test $rc -eq 2
check "and prints the usage on stderr" grep -q "usage: perfabi-report" <<<"$out"
one_line_2 "an unknown command exits 2" "$REPORT" frobnicate
check "and is named" grep -q "unknown command 'frobnicate': matrix, compare, kcidb" <<<"$last_err"
one_line_2 "kcidb with a bad origin exits 2" "$REPORT" kcidb --origin Bad-Origin "$tmp"
check "and says what an origin is" grep -q "bad --origin 'Bad-Origin': lower-case letters, digits and '_'" <<<"$last_err"
one_line_2 "kcidb without a run exits 2" "$REPORT" kcidb
one_line_2 "matrix without a run exits 2" "$REPORT" matrix
check "and says a RUNDIR is needed" grep -q "matrix needs at least one RUNDIR" <<<"$last_err"
one_line_2 "matrix: an unknown option exits 2" "$REPORT" matrix --bogus "$tmp"
check "and is named" grep -q "matrix: unknown option or missing argument '--bogus'" <<<"$last_err"
one_line_2 "matrix: --html without a file exits 2" "$REPORT" matrix --html
one_line_2 "matrix: a run that cannot be read exits 2" "$REPORT" matrix "$tmp/none"

# a run with every outcome, and details with characters HTML must escape
mkdir -p "$tmp/r/6.1"
printf '%s\n' "x/p@root,paranoid=2${t}pass${t}1${t}" \
	"x/q@root,paranoid=2${t}xpass${t}1${t}it's \"fixed\" <now>" \
	"x/r@root,paranoid=2${t}xfail${t}1${t}known & old" \
	"x/s@user,paranoid=2${t}skip${t}1${t}no pmu" >"$tmp/r/6.1/results.tsv"
out=$("$REPORT" matrix --quiet --html "$tmp/m.html" --junit-dir "$tmp/j" -- "$tmp/r"); rc=$?
check "matrix --quiet exits 0" test $rc -eq 0
check "and prints nothing" test -z "$out"
check "HTML escapes a quote" grep -q "it&#39;s &quot;fixed&quot; &lt;now&gt;" "$tmp/m.html"
check "HTML escapes an ampersand" grep -q "known &amp; old" "$tmp/m.html"
check "JUnit reports an xpass as output" grep -q "<system-out>XPASS: it&#39;s" "$tmp/j/6.1.xml"
out=$("$REPORT" matrix -q "$tmp/r"); rc=$?
check "-q is --quiet" test $rc -eq 0 -a -z "$out"

: >"$tmp/file"
one_line_2 "matrix: an HTML file that cannot be written exits 2" \
	"$REPORT" matrix --quiet --html "$tmp/file/m.html" "$tmp/r"
check "and names it" grep -q "cannot write $tmp/file/m.html: Not a directory" <<<"$last_err"
one_line_2 "matrix: a JUnit directory that cannot be made exits 2" \
	"$REPORT" matrix --quiet --junit-dir "$tmp/file/j" "$tmp/r"
check "and names it" grep -q "cannot create $tmp/file/j: Not a directory" <<<"$last_err"
mkdir -p "$tmp/j2/6.1.xml"	# a directory where the file should go
one_line_2 "matrix: a JUnit file that cannot be written exits 2" \
	"$REPORT" matrix --quiet --junit-dir "$tmp/j2" "$tmp/r"
check "and names it" grep -q "cannot write $tmp/j2/6.1.xml: Is a directory" <<<"$last_err"

# compare: VM runs without a kernel in common
mkdir -p "$tmp/v1/6.1" "$tmp/v1/6.12" "$tmp/v2/7.0"
for d in v1/6.1 v1/6.12 v2/7.0; do cp "$tmp/r/6.1/results.tsv" "$tmp/$d/"; done
out=$("$REPORT" compare "$tmp/v1" "$tmp/v2" 2>"$tmp/err"); rc=$?
check "compare: no kernel in common exits 2" test $rc -eq 2
check "and says there is nothing to compare" \
	grep -q "no kernel of $tmp/v1 is in $tmp/v2: nothing to compare" "$tmp/err"
finish
