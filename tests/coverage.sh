#!/usr/bin/env bash
# make coverage: build the harness with --coverage, run the project's tests
# and the suite against it, and write an lcov HTML report of the harness.
# (Kernel coverage of kernel/events/ from a GCOV kernel is a separate,
# VM-based step.)
set -eu
cd "$(dirname "$0")/.."
tests/ensure-deps.sh lcov prove
export BUILD=build-cov
rm -rf build-cov/obj build-cov/*.info build-cov/abi-check.stamp
make -s -j"$(nproc)" COV=1 all units
for t in build-cov/tests/test_*; do [ -x "$t" ] && [ -f "$t" ] || continue; "$t" >/dev/null; done
prove -Q tests/integration/*.sh
# the suite in its default matrix: the cells that run as uid 65534 write
# their counts (.gcda) next to the objects too, so let them
chmod -R a+rwX build-cov/obj
build-cov/perfabi-run --no-results >/dev/null || true
lcov -q --capture --directory build-cov/obj --output-file build-cov/harness.info
lcov -q --extract build-cov/harness.info "$PWD/harness/*" --output-file build-cov/harness.info
genhtml -q build-cov/harness.info --output-directory build-cov/coverage-html
lcov --summary build-cov/harness.info 2>&1 | grep -E 'lines|functions'
echo "report: build-cov/coverage-html/index.html"
