#!/usr/bin/env bash
# ./run.sh --vm's standard output as one KTAP document whose tests are the
# kernels (ktap.rst's nested tests), with a stand-in for QEMU: a
# qemu-system-x86_64 first on PATH that prints, as the guest's console, what
# the perfabi init prints (the runner's stream of real results from the
# self-test cases, then the results directory as base64). Three kernels: one
# whose suite passes, one with a failing result, one whose guest hangs
# while a case runs, and one that hangs after its last result.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

command -v busybox >/dev/null && [[ $(LC_ALL=C ldd "$(command -v busybox)" 2>&1) == *"not a dynamic executable"* ]] &&
	command -v cpio >/dev/null || skip_all "vm.sh needs busybox-static and cpio (apt-get install busybox-static cpio)"

. "$(dirname "$0")/standin_vm.bash"
standin_vm good bad hung late

# the initramfs packs the cases the runner arguments select: one real case
# keeps it small (the stand-in never runs it)
one=$("$RUN" --list 2>/dev/null | awk 'NR == 1 { print $1 }')
PATH=$tmp/bin:$PATH harness/tools/vm.sh --accel tcg --results "$tmp/r" --run-id s \
	"$tmp/k/good" "$tmp/k/bad" "$tmp/k/hung" "$tmp/k/late" -- "$one" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a failing kernel makes --vm exit 1" test $rc -eq 1
out=$(cat "$tmp/out")
check "the version line and the plan (4 kernels) come first" \
	bash -c '[ "$(head -n2 <<<"$1" | tr "\n" " ")" = "TAP version 13 1..4 " ]' _ "$out"
check "each kernel is a subtest indented by four spaces with its own version line and plan" \
	test "$(grep -c '^    TAP version 13$' <<<"$out")" -eq 4
check "whose plan comes before its results" \
	bash -c 'awk "/^    TAP version 13\$/ { getline; if (\$0 !~ /^    1\\.\\.[0-9]+\$/) bad = 1 } END { exit bad }" <<<"$1"' _ "$out"
check "a kernel whose suite passed is ok" grep -q '^ok 1 good$' <<<"$out"
check "a kernel with a failed result is not ok" grep -q '^not ok 2 bad$' <<<"$out"
check "saying why, on the line before" result_with_detail "$out" '^not ok 2 bad$' '^# detail: 1 result(s) failed'
check "a hung guest's kernel is not ok" result_with_detail "$out" '^not ok 3 hung$' '^# detail: hung: guest killed'
check "the case running when the guest hung fails inside its subtest" \
	grep -qx "    not ok 2 selftest/skip@$ME,paranoid=2" <<<"$(sed -n '/^not ok 2 /,/^not ok 3 /p' <<<"$out")"
check "a guest that hung after its last result: its kernel is not ok" result_with_detail "$out" '^not ok 4 late$' '^# detail: hung: '
check "and its subtest holds no more results than its plan" \
	test "$(sed -n '/^not ok 3 /,/^not ok 4 /p' <<<"$out" | grep -c '^    \(not \)\{0,1\}ok ')" -eq 2
check "the guest's results keep their names" grep -q "^    ok [0-9]* selftest/pass@$ME,paranoid=[0-9-]*$" <<<"$out"
check "a failure's reason is the diagnostic before it" \
	result_with_detail "$out" "^    not ok [0-9]* selftest/fail@$ME,paranoid=[0-9-]*$" '^    # detail: 1 check(s) failed'
check "no plan at the end" bash -c '! tail -n1 <<<"$1" | grep -q "^1\\.\\."' _ "$out"
check "nothing but KTAP on stdout" bash -c '! grep -vE "^( *TAP version 13| *1\\.\\.[0-9]+| *(not )?ok [0-9]+ [^ ]+( # (SKIP|XFAIL|XPASS)( .*)?)?| *#( .*)?)$" <<<"$1"' _ "$out"
check "each kernel's result directory is written" test -f "$tmp/r/s/good/results.tsv" -a -f "$tmp/r/s/bad/results.tsv"
if command -v prove >/dev/null; then
	check "prove reads it" bash -c 'prove -e cat "$1" >/dev/null 2>&1; [ $? -ne 255 ]' _ "$tmp/out"
fi
[ -z "${KEEP:-}" ] || echo "# kept $tmp"
finish
