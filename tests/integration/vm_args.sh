#!/usr/bin/env bash
# harness/tools/vm.sh's command line (nothing is booted: every case here is
# rejected before QEMU starts) and perfabi-report compare/matrix on
# synthetic result directories.
. "$(dirname "$0")/lib.bash"
VM=harness/tools/vm.sh
REPORT="$BUILD/perfabi-report"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PERFABI_CACHE=$tmp/cache

out=$("$VM" --help 2>&1); rc=$?
check "--help exits 0" test $rc -eq 0
check "--help shows the usage" grep -q '^usage: ./run.sh --vm' <<<"$out"
check "--help names the series" grep -q '6.12-rt' <<<"$out"
out=$("$VM" 2>&1); rc=$?
check "no kernel exits 2" test $rc -eq 2
check "no kernel says so" grep -q 'no KERNEL given' <<<"$out"
out=$("$VM" --results "$tmp/r" no-such-kernel 2>&1); rc=$?
check "unknown kernel exits 2" test $rc -eq 2
check "unknown kernel is named" grep -q "no-such-kernel" <<<"$out"
out=$("$VM" --results "$tmp/r" 9.99 2>&1); rc=$?
check "unknown series exits 2" test $rc -eq 2
check "unknown series is named" grep -q "unknown kernel '9.99'\|apt-cache is needed" <<<"$out"
out=$("$VM" --results "$tmp/r" "$tmp/no/bzImage" 2>&1); rc=$?
check "missing image exits 2" test $rc -eq 2
check "missing image is named" grep -q "does not exist" <<<"$out"
out=$("$VM" --results "$tmp/r" 'no such kernel!' 2>&1); rc=$?
check "a name that cannot be a kernel exits 2" test $rc -eq 2
check "without asking apt first" bash -c '! grep -q "refreshing the package lists" <<<"$1"' _ "$out"
for bad in 0 x -2; do
	out=$("$VM" --results "$tmp/r" --parallel "$bad" 6.1 2>&1); rc=$?
	check "--parallel $bad exits 2 with one line naming it" \
		bash -c '[ "$1" -eq 2 ] && [ "$(grep -c . <<<"$2")" -eq 1 ] && grep -q "bad --parallel" <<<"$2"' _ "$rc" "$out"
done
out=$("$VM" --results "$tmp/r" 'read/*' 2>&1); rc=$?
check "a case pattern before -- exits 2" test $rc -eq 2
check "and hints at --" grep -q "go after '--'" <<<"$out"
out=$("$VM" --results "$tmp/r" build:"$tmp/no-tree" 2>&1); rc=$?
check "build: of a missing tree exits 2" test $rc -eq 2
check "and says what build: takes" grep -q "build:6.12, build:6.1 or build:DIR" <<<"$out"
out=$(harness/tools/kernel.sh build "$tmp/no-tree" 2>&1); rc=$?
check "kernel build of a missing tree exits 2" test $rc -eq 2
check "and names it" grep -q "unknown SOURCE" <<<"$out"
out=$(harness/tools/kernel.sh build --variant nosuch 6.12 2>&1); rc=$?
check "an unknown variant exits 2" test $rc -eq 2
check "and lists the variants" grep -q "variants: .*noacpi" <<<"$out"
out=$(harness/tools/kernel.sh frobnicate 2>&1); rc=$?
check "an unknown kernel command exits 2" test $rc -eq 2
out=$("$VM" --bogus 6.1 2>&1); rc=$?
check "unknown option exits 2" test $rc -eq 2
check "unknown option says so" grep -q "unknown option '--bogus'" <<<"$out"
out=$("$VM" --timeout soon 6.1 2>&1); rc=$?
check "bad --timeout exits 2" test $rc -eq 2
out=$("$VM" --accel magic 6.1 2>&1); rc=$?
check "bad --accel exits 2" test $rc -eq 2
out=$("$VM" 6.1 -- --results /x 2>&1); rc=$?
check "runner --results is refused" test $rc -eq 2
check "and explained" grep -q "chosen by vm.sh" <<<"$out"
: >"$tmp/bzImage"	# an image path that exists; nothing boots it
out=$("$VM" --results "$tmp/r" "$tmp/bzImage" -- 'no/such*' 2>&1); rc=$?
check "a runner pattern matching nothing exits 2" test $rc -eq 2
check "and is named" grep -q "runner options rejected: no case matches 'no/such\*'" <<<"$out"
out=$("$VM" --results "$tmp/r" "$tmp/bzImage" -- --bogus 2>&1); rc=$?
check "an unknown runner option exits 2" test $rc -eq 2
check "nothing was written" test ! -e "$tmp/r"

# compare: synthetic runs
mk() { # dir lines...
	mkdir -p "$1"
	local d=$1; shift
	printf '%s\n' "$@" >"$d/results.tsv"
}
t=$'\t'
mk "$tmp/a" "x/one@root,paranoid=2${t}pass${t}1${t}" "x/two@root,paranoid=2${t}fail${t}1${t}bad" \
	"x/three@user,paranoid=2${t}pass${t}1${t}"
mk "$tmp/b" "x/one@root,paranoid=2${t}fail${t}3${t}now EINVAL" "x/two@root,paranoid=2${t}pass${t}1${t}" \
	"x/three@user,paranoid=2${t}skip${t}1${t}no tracefs" "x/four@root,paranoid=2${t}pass${t}1${t}"
out=$("$REPORT" compare "$tmp/a" "$tmp/b"); rc=$?
check "a regression exits 1" test $rc -eq 1
check "the regression is listed" grep -q "pass    -> fail    x/one@root,paranoid=2  # now EINVAL" <<<"$out"
check "the fix is listed" grep -q "fail    -> pass    x/two@root,paranoid=2" <<<"$out"
check "newly skipped is listed" grep -q "pass    -> skip    x/three@user,paranoid=2  # no tracefs" <<<"$out"
check "a new result is counted, not listed" grep -q "^# 1 result(s) only in B, 0 only in A: not compared (--all lists them)" <<<"$out"
check "and not listed by default" bash -c '! grep -q "x/four" <<<"$1"' _ "$out"
out=$("$REPORT" compare --all "$tmp/a" "$tmp/b")
check "--all lists a new result" grep -q "missing -> pass    x/four@root,paranoid=2" <<<"$out"
out=$("$REPORT" compare --all "$tmp/b" "$tmp/a")
check "--all lists a removed result" grep -q "pass    -> missing x/four@root,paranoid=2" <<<"$out"
# an interrupted run: said so, and what it did not reach is no regression
mk "$tmp/int" "x/one@root,paranoid=2${t}pass${t}1${t}"
printf '{\n  "interrupted": {"signal": 2, "completed": 1, "planned": 3, "during": "x/two@root,paranoid=2"},\n}\n' >"$tmp/int/summary.json"
out=$("$REPORT" compare "$tmp/a" "$tmp/int"); rc=$?
check "an interrupted run is no regression" test $rc -eq 0
check "an interrupted run is named" grep -q "int was interrupted by signal 2 after 1 of 3 runs" <<<"$out"
out=$("$REPORT" compare "$tmp/a" "$tmp/a"); rc=$?
check "no regression exits 0" test $rc -eq 0
check "no regression says so" grep -qx "no regression" <<<"$out"
"$REPORT" compare "$tmp/a" "$tmp/none" >/dev/null 2>&1; rc=$?
check "an unreadable run exits 2" test $rc -eq 2
"$REPORT" compare "$tmp/a" >/dev/null 2>&1; rc=$?
check "one run is bad usage" test $rc -eq 2
mk "$tmp/bad" "not a result line"
"$REPORT" compare "$tmp/a" "$tmp/bad" >/dev/null 2>&1; rc=$?
check "a malformed results.tsv exits 2" test $rc -eq 2

# VM runs (one directory per kernel) pair up by kernel
mkdir -p "$tmp/vm1" "$tmp/vm2"
cp -r "$tmp/a" "$tmp/vm1/6.1"; cp -r "$tmp/a" "$tmp/vm1/6.12"
cp -r "$tmp/a" "$tmp/vm2/6.1"; cp -r "$tmp/b" "$tmp/vm2/6.12"
out=$("$REPORT" compare "$tmp/vm1" "$tmp/vm2"); rc=$?
check "VM runs: a regression on one kernel exits 1" test $rc -eq 1
check "VM runs: per kernel" grep -q "^# kernel 6.12" <<<"$out"
mkdir -p "$tmp/vm3"; cp -r "$tmp/a" "$tmp/vm3/6.1"; cp -r "$tmp/a" "$tmp/vm3/7.0"
out=$("$REPORT" compare "$tmp/vm1" "$tmp/vm3")
check "VM runs: a kernel only one side has is named" grep -q "^# kernel 7.0 is only in $tmp/vm3: not compared" <<<"$out"
check "VM runs: and the other side's" grep -q "^# kernel 6.12 is only in $tmp/vm1: not compared" <<<"$out"

out=$("$REPORT" matrix --html "$tmp/m.html" --junit-dir "$tmp/junit" "$tmp/vm2"); rc=$?
check "matrix exits 0" test $rc -eq 0
check "matrix has a row per case" grep -q '^x/one  *P\. F\.$' <<<"$out"
check "matrix writes HTML" grep -q '<td class="fail first" title="6.12: x/one@root,paranoid=2 .* fail: now EINVAL">' "$tmp/m.html"
check "matrix HTML can show only the rows that differ" grep -q 'id="differ"' "$tmp/m.html"
check "a case with the same outcome everywhere is marked" grep -q '<tr class="same"><th class="case">x/four' "$tmp/m.html"
check "a case that differs is not" grep -q '<tr><th class="case">x/one' "$tmp/m.html"
check "matrix writes JUnit per kernel" test -s "$tmp/junit/6.1.xml" -a -s "$tmp/junit/6.12.xml"
check "JUnit counts the failure" grep -q 'failures="1"' "$tmp/junit/6.12.xml"
finish
