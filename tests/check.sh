#!/usr/bin/env bash
# make check: the project's own tests, then the suite on this kernel.
#  1. cmocka unit tests of the harness and runner pieces
#  2. integration tests of the runner and case supervisor (TAP, via prove)
#  3. the ABI coverage map: every element has a case or a written reason
#  4. ./run.sh on the running kernel, which must exit 0
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
export BUILD
status=0
section() { printf '\n=== %s\n' "$*"; }

tests/ensure-deps.sh prove || exit 1
if [ "$(id -u)" -ne 0 ]; then
	echo "make check: not root (uid $(id -u)): the suite runs only as this user (the"
	echo "  identity 'user') at the current paranoid level, one result per case (the"
	echo "  run's header says what it leaves out), and the tests that need root (they"
	echo "  change perf_event_paranoid or switch identity) are skipped; run it as"
	echo "  root for the whole privilege matrix"
fi
section "build"
make -s -j"$(nproc)" all units || exit 1

section "unit tests (cmocka)"
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] && [ -f "$t" ] || continue	# not the .gcno of a coverage build
	"$t" || status=1
done

section "integration tests"
if ! prove -Q tests/integration/*.sh; then
	prove -v tests/integration/*.sh 2>&1 | grep -E '^(not ok|#)' || true
	status=1
fi

section "ABI coverage map"
"$BUILD"/perfabi-run --abi-check cases/abi-map.txt || status=1

section "the suite on $(uname -r)"
./run.sh || status=1
if [ $status -ne 0 ]; then
	echo "make check: FAILED (see the sections above)"
fi
exit $status
