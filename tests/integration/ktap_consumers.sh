#!/usr/bin/env bash
# The parsers that kernel CI rings put between perfabi and their reports,
# fed a host run, an interrupted run and a two-kernel --vm stream (the
# stand-in QEMU of standin_vm.bash): the kernel's kunit_tool (kunit.py
# parse, from linux-source-6.12), tap.py (Debian's python3-tap), tap-parser
# in strict mode (npm), prove, junitparser (python3-junitparser) on the
# --junit file and a JSON-schema check (python3-jsonschema) of --kcidb
# against tests/kcidb/kcidb-v5.3.schema.json. Each must read the outputs
# with the counts the suite's results.tsv gives. As root the missing Debian
# packages are installed; a consumer that cannot be had is a SKIP with the
# reason.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
PY=/usr/bin/python3
SCHEMA=tests/kcidb/kcidb-v5.3.schema.json
CACHE=${PERFABI_CACHE_DIR:-${HOME:-/tmp}/.cache/perfabi}

# ---- the consumers
pymods() { "$PY" -c 'import tap, junitparser, jsonschema' 2>/dev/null; }
if ! pymods && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-tap python3-junitparser python3-jsonschema \
		>/dev/null 2>&1
fi
pymods && have_py=1 || have_py=
why_py="python3-tap, python3-junitparser and python3-jsonschema are not installed (apt-get install them)"
# kunit_tool: from the unpacked tree ./run.sh kernel keeps, else only its
# tools/testing/kunit out of Debian's linux-source-6.12 tarball
kunit=
for d in "$CACHE/src/linux-source-6.12/tools/testing/kunit" "$CACHE/kunit-6.12/linux-source-6.12/tools/testing/kunit"; do
	[ -f "$d/kunit.py" ] && { kunit=$d/kunit.py; break; }
done
if [ -z "$kunit" ]; then
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n1)
	if [ -z "$tarball" ] && [ "$(id -u)" -eq 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-source-6.12 >/dev/null 2>&1
		tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n1)
	fi
	if [ -n "$tarball" ] && mkdir -p "$CACHE/kunit-6.12" &&
	   tar -xf "$tarball" -C "$CACHE/kunit-6.12" linux-source-6.12/tools/testing/kunit 2>/dev/null; then
		kunit=$CACHE/kunit-6.12/linux-source-6.12/tools/testing/kunit/kunit.py
	fi
fi
# tap-parser: npm's, kept in the cache
tapp=$CACHE/npm/node_modules/.bin/tap-parser
if [ ! -x "$tapp" ] && command -v npm >/dev/null; then
	mkdir -p "$CACHE/npm" && (cd "$CACHE/npm" && timeout 300 npm install --silent --no-audit --no-fund tap-parser@18 >/dev/null 2>&1)
fi
[ -x "$tapp" ] && command -v node >/dev/null || tapp=

# ---- the outputs
# counts of a results.tsv: pass fail skip xfail xpass total
counts() { awk -F'\t' '{ n[$2]++; t++ } END { printf "%d %d %d %d %d %d\n", n["pass"], n["fail"], n["skip"], n["xfail"], n["xpass"], t }' "$@"; }
cases=(selftest/pass selftest/skip selftest/xfail selftest/fail)
"$RUN" --cases "$SELF" --results "$tmp/r" --run-id host --junit "$tmp/host.xml" --kcidb "$tmp/host.json" \
	"${cases[@]}" >"$tmp/host.tap" 2>/dev/null
read -r h_pass h_fail h_skip h_xfail h_xpass h_total < <(counts "$tmp/r/host/results.tsv")
check "the host run has every outcome but xpass" test "$h_pass" -gt 0 -a "$h_fail" -gt 0 -a "$h_skip" -gt 0 -a "$h_xfail" -gt 0

# interrupted: SIGINT while the second result runs (selftest/sleep_privileged
# sleeps in every cell); the plan stays whole with "# SKIP not run"
PERFABI_SELFTEST_SLEEP=30 "$RUN" --cases "$SELF" --results "$tmp/r" --run-id intr selftest/pass selftest/sleep_privileged \
	>"$tmp/intr.tap" 2>/dev/null &
pid=$!
wait_for 60 grep -q '^ok 1 ' "$tmp/intr.tap"
sleep 0.5
kill -INT $pid
wait $pid
i_total=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/intr.tap")
i_skip=$(grep -c '^ok [0-9]* [^ ]* # SKIP' "$tmp/intr.tap")
i_pass=$(grep -cE '^ok [0-9]+ [^ ]+$' "$tmp/intr.tap")
check "the interrupted run was interrupted" grep -q '^# interrupted by signal 2' "$tmp/intr.tap"

# two kernels under --vm (the stand-in): one passes, one fails
vm_ok=
if command -v busybox >/dev/null && [[ $(LC_ALL=C ldd "$(command -v busybox)" 2>&1) == *"not a dynamic executable"* ]] &&
   command -v cpio >/dev/null; then
	. "$(dirname "$0")/standin_vm.bash"
	standin_vm good bad
	one=$("$RUN" --list 2>/dev/null | awk 'NR == 1 { print $1 }')
	harness/tools/vm.sh --accel tcg --results "$tmp/r" --run-id vm --kcidb "$tmp/vm.json" \
		"$tmp/k/good" "$tmp/k/bad" -- "$one" >"$tmp/vm.tap" 2>/dev/null
	read -r v_pass v_fail v_skip v_xfail v_xpass v_total < <(counts "$tmp/r/vm/good/results.tsv" "$tmp/r/vm/bad/results.tsv")
	vm_ok=1
fi
why_vm="vm.sh needs busybox-static and cpio"

# ---- names: stable, no space, under 100 characters (LKFT writes a file per
# result), the same on every outcome
check "no result name has a space or a ' - ' suffix" \
	bash -c '! grep -hE "^ *(not )?ok [0-9]+ [^ #]+ [^#]" "$@"' _ "$tmp/host.tap" "$tmp/intr.tap" ${vm_ok:+"$tmp/vm.tap"}
longest=$("$RUN" --list 2>/dev/null | awk '{ n = length($1) } n > m { m = n } END { print m + 0 }')
check "every result name is under 100 characters (the longest case and cell: $((longest + 21)))" \
	test $((longest + 21)) -lt 100 -a "$longest" -gt 0

# ---- kunit_tool: kunit.py parse; passed counts xfail and xpass, failed fail
kunit_counts() { "$PY" "$kunit" parse "$1" 2>&1 | sed -n 's/.*Ran \([0-9]*\) tests\?: \(.*\)$/\1 \2/p' | tail -n1; }
kunit_n() { # line word
	sed -n "s/.*$2: \\([0-9]*\\).*/\\1/p" <<<"$1" | grep . || echo 0
}
if [ -n "$kunit" ]; then
	out=$(kunit_counts "$tmp/host.tap")
	check "kunit.py parse: the host run's counts (${out:-nothing})" \
		test "${out%% *}" = "$h_total" -a "$(kunit_n "$out" passed)" = $((h_pass + h_xfail + h_xpass)) \
		-a "$(kunit_n "$out" failed)" = "$h_fail" -a "$(kunit_n "$out" skipped)" = "$h_skip"
	"$PY" "$kunit" parse "$tmp/host.tap" >/dev/null 2>&1 && rc=0 || rc=$?
	check "kunit.py parse: exit 1 for a run with a failure" test $rc -eq 1
	out=$(kunit_counts "$tmp/intr.tap")
	check "kunit.py parse: the interrupted run's counts (${out:-nothing})" \
		test "${out%% *}" = "$i_total" -a "$(kunit_n "$out" skipped)" = "$i_skip" -a "$(kunit_n "$out" passed)" = "$i_pass"
	if [ -n "$vm_ok" ]; then
		out=$(timeout 60 "$PY" "$kunit" parse "$tmp/vm.tap" 2>&1 | sed -n 's/.*Ran \([0-9]*\) tests\?: \(.*\)$/\1 \2/p' | tail -n1)
		check "kunit.py parse: the two-kernel stream finishes with the leaf counts (${out:-nothing})" \
			test "${out%% *}" = "$v_total" -a "$(kunit_n "$out" passed)" = $((v_pass + v_xfail + v_xpass)) \
			-a "$(kunit_n "$out" failed)" = "$v_fail" -a "$(kunit_n "$out" skipped)" = "$v_skip"
	else
		skip "kunit.py parse: the two-kernel stream" "$why_vm"
	fi
else
	skip "kunit.py parse" "no kunit_tool: linux-source-6.12 is not installed (apt-get install linux-source-6.12)"
fi

# ---- tap.py: every line in its place, a test per top-level result
tappy() { # file -> "tests failures skipped errors-about-the-stream"
	"$PY" - "$1" <<'EOF'
import sys, unittest
from tap.loader import Loader
r = unittest.TestResult()
Loader().load_suite_from_file(sys.argv[1]).run(r)
bad = [str(m).strip().splitlines()[-1] for t, m in r.failures
       if any(w in str(m) for w in ("plan", "version", "Expected", "Bailed"))]
print(r.testsRun - len(bad), len(r.failures) - len(bad), len(r.skipped), len(bad), *bad[:1])
EOF
}
# the three streams through a TAP parser FN that prints "tests failed
# skipped stream-errors [the first error]"; a kernel is one test of --vm's
tap_checks() { # label fn
	local label=$1 fn=$2 t f s e rest
	read -r t f s e rest < <("$fn" "$tmp/host.tap")
	check "$label: the host run ($t tests, $f failed, $s skipped, stream errors: $e ${rest:-})" \
		test "$t" = "$h_total" -a "$f" = "$h_fail" -a "$s" = "$h_skip" -a "$e" = 0
	read -r t f s e rest < <("$fn" "$tmp/intr.tap")
	check "$label: the interrupted run ($t tests, $s skipped, stream errors: $e ${rest:-})" \
		test "$t" = "$i_total" -a "$s" = "$i_skip" -a "$e" = 0
	[ -n "$vm_ok" ] || return 0
	read -r t f s e rest < <("$fn" "$tmp/vm.tap")
	check "$label: the two-kernel stream is two tests, one failed (stream errors: $e ${rest:-})" \
		test "$t" = 2 -a "$f" = 1 -a "$e" = 0
}
if [ -n "$have_py" ]; then
	tap_checks tap.py tappy
else
	skip "tap.py" "$why_py"
fi

# ---- tap-parser --strict: no non-TAP data, the counts
tapparser() { # file -> "count fail skip tap-errors"
	"$tapp" --strict -j <"$1" | "$PY" -c '
import json, sys
c = [e for e in json.load(sys.stdin) if e[0] == "complete"][-1][1]
errs = [f for f in c.get("failures", []) if f.get("tapError")]
print(c["count"], c["fail"] - len(errs), c["skip"], len(errs), repr(errs[0].get("data", "")[:60]) if errs else "")'
}
if [ -n "$tapp" ] && [ -n "$have_py" ]; then
	tap_checks "tap-parser --strict" tapparser
else
	skip "tap-parser --strict" "no tap-parser: npm (and network to its registry) is needed to install it"
fi

# ---- prove: no parse errors, the counts
if command -v prove >/dev/null; then
	for x in host intr ${vm_ok:+vm}; do
		out=$(prove -e cat "$tmp/$x.tap" 2>&1)
		check "prove reads the $x stream without parse errors" bash -c '! grep -qi "parse error" <<<"$1"' _ "$out"
	done
	out=$(prove -e cat "$tmp/host.tap" 2>&1)
	check "prove: the host run's count and failures" grep -q "Tests: $h_total Failed: $h_fail)" <<<"$out"
fi

# ---- junitparser: a testcase per result; failures; skipped = skip + xfail
if [ -n "$have_py" ]; then
	read -r t f s < <("$PY" - "$tmp/host.xml" <<'EOF'
import sys
from junitparser import JUnitXml, Failure, Skipped, Error
x = JUnitXml.fromfile(sys.argv[1])
t = f = s = 0
for suite in ([x] if x._tag == "testsuite" else x):
    for case in suite:
        t += 1
        f += any(isinstance(r, (Failure, Error)) for r in case.result)
        s += any(isinstance(r, Skipped) for r in case.result)
print(t, f, s)
EOF
)
	check "junitparser: the --junit file ($t cases, $f failed, $s skipped)" \
		test "$t" = "$h_total" -a "$f" = "$h_fail" -a "$s" = $((h_skip + h_xfail))
else
	skip "junitparser" "$why_py"
fi

# ---- KCIDB: valid, one test per result, the status mapping
kcidb() { # file -> "error-or-ok tests PASS FAIL SKIP ERROR builds"
	"$PY" - "$SCHEMA" "$1" <<'EOF'
import json, sys, collections, jsonschema
schema, doc = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errs = list(jsonschema.Draft7Validator(schema).iter_errors(doc))
st = collections.Counter(t.get("status") for t in doc.get("tests", []))
print("ok" if not errs else "invalid:" + errs[0].message.replace(" ", "_")[:80],
      len(doc.get("tests", [])), st["PASS"], st["FAIL"], st["SKIP"], st["ERROR"], len(doc.get("builds", [])))
EOF
}
if [ -n "$have_py" ]; then
	read -r v t p f s e b < <(kcidb "$tmp/host.json")
	check "--kcidb: valid against the KCIDB v5.3 field rules ($v)" test "$v" = ok
	check "--kcidb: a test per result, PASS/FAIL/SKIP as the README maps them ($t: $p $f $s $e)" \
		test "$t" = "$h_total" -a "$p" = $((h_pass + h_xpass)) -a "$f" = $((h_fail + h_xfail)) -a "$s" = "$h_skip" -a "$b" = 1
	check "--kcidb: test paths are dotted and stable" \
		grep -q '"path": "perfabi\.selftest\.fail\.'"$ME"'_p[0-9-]*"' "$tmp/host.json"
	if [ -n "$vm_ok" ]; then
		read -r v t p f s e b < <(kcidb "$tmp/vm.json")
		check "--vm --kcidb: valid, a build per kernel, a test per result ($v, $b builds, $t tests)" \
			test "$v" = ok -a "$b" = 2 -a "$t" = "$v_total"
	fi
	# the check can fail: a status KCIDB does not have is refused
	sed 's/"status": "SKIP"/"status": "XSKIP"/' "$tmp/host.json" >"$tmp/bad.json"
	read -r v _ < <(kcidb "$tmp/bad.json")
	check "the KCIDB check refuses a status KCIDB does not have" test "$v" != ok
else
	skip "KCIDB schema check" "$why_py"
fi
[ -z "${KEEP:-}" ] || echo "# kept $tmp"
finish
