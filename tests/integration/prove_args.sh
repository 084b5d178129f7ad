#!/usr/bin/env bash
# ./run.sh prove: bad input is refused with one line and exit 2; the
# verdicts come from the two VM runs (a stand-in VM here: the real one
# needs QEMU and a kernel build, minutes per fix).
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
P=harness/tools/prove.sh

out=$($P --help 2>&1); rc=$?
check "--help exits 0" test $rc -eq 0
check "--help says what proven means" grep -q "A fix is proven when" <<<"$out"
for bad in "123" "--tree /nonexistent" "--run-id a/b" "--timeout 0" "--bogus" "ffffffffffff"; do
	# shellcheck disable=SC2086
	out=$($P --results "$tmp" $bad 2>&1); rc=$?
	check "'$bad' is refused with exit 2" test $rc -eq 2
	check "'$bad' gets one line" test "$(wc -l <<<"$out")" -eq 1
done
check "nothing was written for refused input" test -z "$(ls "$tmp")"

# Each Case: line (a patch may have several, as prove.sh reads them) names a
# case that exists and names the fix. Where Debian's 6.12 tree is in the
# cache, each patch applies to it exactly (a dry run: the tree is only read).
TREE612=${PERFABI_CACHE_ROOT:-${HOME:-/tmp}/.cache/perfabi}/src/linux-source-6.12
for p in fixtures/kernel/revert/*.patch; do
	c=$(basename "$p" .patch)
	check "$c.patch names at least one case" grep -q '^Case: *[^ ]' "$p"
	for k in $(sed -n 's/^Case: *\([^ ]*\).*/\1/p' "$p"); do
		check "$c.patch names $k, which exists and names $c" bash -c \
			'[ -f "cases/$1.c" ] && grep -q "$2" "cases/$1.c"' _ "$k" "$c"
	done
	check "$c.patch touches files with +++ lines" grep -q '^+++ b/' "$p"
	if [ -d "$TREE612/kernel/events" ]; then
		check "$c.patch applies to linux-source-6.12 without fuzz or offset" bash -c \
			'out=$(patch -p1 -d "$1" --dry-run -r - --no-backup-if-mismatch <"$2" 2>&1) &&
			 ! grep -qi "fuzz\|offset\|hunk" <<<"$out"' _ "$TREE612" "$p"
	else
		skip "$c.patch applies to linux-source-6.12" "no tree at $TREE612"
	fi
done

for bad in "--revert 123" "--revert ffffffffffff"; do
	# shellcheck disable=SC2086
	out=$(harness/tools/kernel.sh build $bad 6.12 2>&1); rc=$?
	check "kernel.sh build '$bad' is refused with exit 2 before any work" test $rc -eq 2
	check "kernel.sh build '$bad' gets one line" test "$(wc -l <<<"$out")" -eq 1
done

# A stand-in VM: the result of every case is $UNMOD on the unmodified
# kernel and $REV on a reverted one, written where vm.sh writes it.
cat >"$tmp/vm" <<'VM'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
	case "$1" in
	--results) R=$2; shift 2 ;; --run-id) I=$2; shift 2 ;; --timeout) shift 2 ;;
	--) shift; break ;; *) SPEC=$1; shift ;;
	esac
done
d=$R/$I/6.12-src; mkdir -p "$d"
o=$UNMOD; [[ $SPEC == *+revert=* ]] && o=$REV
for k in "$@"; do printf '%s@root,paranoid=2\t%s\t1\t\n%s@user,paranoid=2\tskip\t1\tneeds root\n' "$k" "$o" "$k"; done >"$d/results.tsv"
echo "kernel.sh: built 6.12.117 in 12.5 s: /x/bzImage (1 KiB)"
VM
chmod +x "$tmp/vm"
C=913a90bc5a3a
out=$(PERFABI_PROVE_VM=$tmp/vm UNMOD=pass REV=fail $P --results "$tmp" --run-id good $C 2>&1); rc=$?
check "a case passing unmodified and failing reverted: proven, exit 0" test $rc -eq 0
check "the summary says proven" grep -q "^$C	regress/ioc_period_bit63_einval	pass	fail	12.5	[0-9]*	proven$" "$tmp/good/summary.tsv"
out=$(PERFABI_PROVE_VM=$tmp/vm UNMOD=pass REV=pass $P --results "$tmp" --run-id missed $C 2>&1); rc=$?
check "a case passing on the reverted kernel too: exit 1" test $rc -eq 1
check "the summary says NOT CAUGHT" grep -q "NOT CAUGHT: pass on the reverted kernel" "$tmp/missed/summary.tsv"
out=$(PERFABI_PROVE_VM=$tmp/vm UNMOD=fail REV=fail $P --results "$tmp" --run-id broken $C 2>&1); rc=$?
check "a case failing unmodified cannot prove anything: exit 1" test $rc -eq 1
check "the summary says why" grep -q "not judged: fail on the unmodified kernel" "$tmp/broken/summary.tsv"
out=$(PERFABI_PROVE_VM=$tmp/vm $P --results "$tmp" --run-id good $C 2>&1); rc=$?
check "an existing run directory is refused (exit 2), not overwritten" test $rc -eq 2
finish
