#!/usr/bin/env bash
# make check-bisect: prove that ./run.sh bisect names an injected kernel
# regression. tests/bisect/make-history.sh makes (or reuses) a git history
# on Debian's linux-source-6.12 with one commit that breaks the documented
# ENOSPC of a short read() buffer; the bisection of read/short_buffer_enospc
# between its ends must name exactly that commit. The trees, builds and
# kernels stay in ~/.cache/perfabi (PERFABI_CACHE_ROOT), so a rerun is fast.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
CASE=read/short_buffer_enospc@root,paranoid=2
t0=$(date +%s)

# Debian's linux-source-6.12, unpacked once into the cache (installed as root)
harness/tools/kernel.sh source 6.12 >/dev/null || { echo "check-bisect: no linux-source-6.12 to build the history from" >&2; exit 1; }
hist=$(tests/bisect/make-history.sh) || { echo "check-bisect: could not make the history" >&2; exit 1; }
good=$(awk '$1 == "good" { print $2 }' <<<"$hist")
bad=$(awk '$1 == "bad" { print $2 }' <<<"$hist")
want=$(awk '$1 == "regression" { print $2 }' <<<"$hist")
tree=${PERFABI_CACHE_ROOT:-${HOME:-/tmp}/.cache/perfabi}/bisect/linux-6.12-git
if [ -z "$good" ] || [ -z "$bad" ] || [ -z "$want" ]; then
	echo "check-bisect: make-history.sh gave no good/bad/regression commits" >&2
	exit 1
fi
t1=$(date +%s)
echo "check-bisect: history ready in $((t1 - t0)) s; bisecting $CASE in $tree" >&2
out=$(./run.sh bisect "$CASE" --good "$good" --bad "$bad" --tree "$tree" --runs 2)
rc=$?
printf '%s\n' "$out"
first=$(sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' <<<"$out")
t2=$(date +%s)
if [ $rc -ne 0 ] || [ "$first" != "$want" ]; then
	echo "check-bisect: FAIL: ./run.sh bisect exited $rc and named '${first:-nothing}', the injected regression is $want ($((t2 - t0)) s)" >&2
	exit 1
fi
echo "check-bisect: ok: the bisection named the injected commit $want (history $((t1 - t0)) s, bisection $((t2 - t1)) s)"
