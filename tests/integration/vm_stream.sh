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

# a guest's console: the init's lines, the runner's stream, its results
console() { # name rc-of-guest runner-args...
	local name=$1 end=$2
	shift 2
	{
		echo "[    0.000000] Linux version 6.12.0-fake"
		echo "perfabi-vm: init at 1.50s uptime, kernel 6.12.0-$name, paranoid 2"
		echo "perfabi-vm: suite at 1.60s uptime"
		echo "perfabi-vm: starting perfabi-run $*"
		"$RUN" --cases "$SELF" --results "$tmp/guest-$name" --run-id run --identity "$ME" "$@" \
			>"$tmp/stream-$name" 2>/dev/null
		local rc=$?
		if [ "$end" = hang-after ]; then
			cat "$tmp/stream-$name"
			return
		fi
		if [ "$end" = hang ]; then
			# the guest stops inside the case after the first result
			sed -n '1,/^ok 1 /p' "$tmp/stream-$name"
			echo "perfabi-vm: running ${2}@$ME,paranoid=2"
			return
		fi
		cat "$tmp/stream-$name"
		echo "perfabi-vm: runner exited $rc at 3.00s uptime"
		echo "===PERFABI-RESULTS-BEGIN==="
		tar -C "$tmp/guest-$name/run" -cz . | base64
		echo "===PERFABI-RESULTS-END rc=$rc==="
	} >"$tmp/k/$name.console"
}
mkdir -p "$tmp/k" "$tmp/bin"
for k in good bad hung late; do : >"$tmp/k/$k"; done
console good ok selftest/pass selftest/skip selftest/xfail
console bad ok selftest/pass selftest/fail
console hung hang selftest/pass selftest/skip
console late hang-after selftest/pass selftest/skip
cat >"$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/usr/bin/env bash
# stand-in: print the console kept beside the -kernel image; a guest
# without its end marker "hangs" (exits as timeout(1) does)
while [ $# -gt 0 ]; do [ "$1" = -kernel ] && img=$2; shift; done
cat "$img.console"
grep -q '^===PERFABI-RESULTS-END' "$img.console" || exit 124
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"

# the initramfs packs the cases the runner arguments select: one real case
# keeps it small (the stand-in never runs it)
one=$("$RUN" --list 2>/dev/null | awk 'NR == 1 { print $1 }')
PATH=$tmp/bin:$PATH harness/vm.sh --accel tcg --results "$tmp/r" --run-id s \
	"$tmp/k/good" "$tmp/k/bad" "$tmp/k/hung" "$tmp/k/late" -- "$one" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a failing kernel makes --vm exit 1" test $rc -eq 1
out=$(cat "$tmp/out")
check "the version line and the plan (4 kernels) come first" \
	bash -c '[ "$(head -n2 <<<"$1" | tr "\n" " ")" = "KTAP version 1 1..4 " ]' _ "$out"
check "each kernel is an indented subtest with its own version line and plan" \
	test "$(grep -c '^  KTAP version 1$' <<<"$out")" -eq 4
check "whose plan comes before its results" \
	bash -c 'awk "/^  KTAP version 1\$/ { getline; if (\$0 !~ /^  1\\.\\.[0-9]+\$/) bad = 1 } END { exit bad }" <<<"$1"' _ "$out"
check "a kernel whose suite passed is ok" grep -q '^ok 1 good$' <<<"$out"
check "a kernel with a failed result is not ok" grep -q '^not ok 2 bad$' <<<"$out"
check "saying why, on the line before" result_with_detail "$out" '^not ok 2 bad$' '^# detail: 1 result(s) failed'
check "a hung guest's kernel is not ok" result_with_detail "$out" '^not ok 3 hung$' '^# detail: hung: guest killed'
check "the case running when the guest hung fails inside its subtest" \
	grep -qx "  not ok 2 selftest/skip@$ME,paranoid=2" <<<"$(sed -n '/^not ok 2 /,/^not ok 3 /p' <<<"$out")"
check "a guest that hung after its last result: its kernel is not ok" result_with_detail "$out" '^not ok 4 late$' '^# detail: hung: '
check "and its subtest holds no more results than its plan" \
	test "$(sed -n '/^not ok 3 /,/^not ok 4 /p' <<<"$out" | grep -c '^  \(not \)\{0,1\}ok ')" -eq 2
check "the guest's results keep their names" grep -q "^  ok [0-9]* selftest/pass@$ME,paranoid=[0-9-]*$" <<<"$out"
check "a failure's reason is the diagnostic before it" \
	result_with_detail "$out" "^  not ok [0-9]* selftest/fail@$ME,paranoid=[0-9-]*$" '^  # detail: 1 check(s) failed'
check "no plan at the end" bash -c '! tail -n1 <<<"$1" | grep -q "^1\\.\\."' _ "$out"
check "nothing but KTAP on stdout" bash -c '! grep -vE "^( *KTAP version 1| *1\\.\\.[0-9]+| *(not )?ok [0-9]+ [^ ]+( # (SKIP|XFAIL|XPASS)( .*)?)?| *#( .*)?)$" <<<"$1"' _ "$out"
check "each kernel's result directory is written" test -f "$tmp/r/s/good/results.tsv" -a -f "$tmp/r/s/bad/results.tsv"
if command -v prove >/dev/null; then
	check "prove reads it" bash -c 'prove -e cat "$1" >/dev/null 2>&1; [ $? -ne 255 ]' _ "$tmp/out"
fi
[ -z "${KEEP:-}" ] || echo "# kept $tmp"
finish
