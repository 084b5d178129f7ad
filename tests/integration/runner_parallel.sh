#!/usr/bin/env bash
# perfabi-run -j N: results run side by side print the same lines in the
# same order as one at a time; cases declared .alone run by themselves.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d); chmod 755 "$tmp"; trap 'rm -rf "$tmp"' EXIT
LV=$(cat "$PARANOID")
ARGS=(--cases "$SELF" --no-results --identity "$ME" --paranoid "$LV")

for bad in 0 65 x -1; do
	out=$("$RUN" -j "$bad" selftest/pass 2>&1); rc=$?
	check "-j $bad is refused with exit 2" test $rc -eq 2
	check "-j $bad: one line naming the range" grep -qx "perfabi-run: bad -j '$bad': a whole number from 1 to 64 is needed" <<<"$out"
done
out=$("$RUN" "${ARGS[@]}" -j3 selftest/pass 2>&1); rc=$?
check "-j3 (attached) is taken" test $rc -eq 0

results() { grep -E '^(not )?ok ' | sed 's/ # SKIP .*/ # SKIP/'; }
set -- selftest/pass selftest/fail selftest/skip selftest/xfail selftest/crash selftest/exit_status
one=$("$RUN" "${ARGS[@]}" -j1 "$@" 2>&1 | results)
four=$("$RUN" "${ARGS[@]}" -j4 "$@" 2>&1 | results)
check "-j4 prints the same result lines in the same order as -j1" test "$one" = "$four"
check "and they are all there" test "$(wc -l <<<"$four")" -eq 6

out=$(PERFABI_SELFTEST_DIR=$tmp "$RUN" "${ARGS[@]}" -j3 'selftest/overlap_*' 2>&1); rc=$?
check "the overlap cases pass" test $rc -eq 0
check "in plan order" bash -c 'grep -E "^ok " <<<"$1" | sed "s/@.*//" | tr "\n" " " | grep -qx "ok 1 selftest/overlap_a ok 2 selftest/overlap_b ok 3 selftest/overlap_z_alone "' _ "$out"
# a and b ran side by side; the .alone one beside nothing
overlapped() { # log x y: 0 their [start, end] intervals overlapped, 1 not, 2 one is missing
	awk -v x="$2" -v y="$3" '$1 == "start" { s[$2] = $3 } $1 == "end" { e[$2] = $3 }
		END { if (!(x in e) || !(y in e)) exit 2; exit !(s[x] < e[y] && s[y] < e[x]) }' "$1"
}
overlap() { overlapped "$tmp/log" "$@"; }
check "two plain cases ran at the same time under -j3" overlap a b
apart() { overlap "$@"; [ $? -eq 1 ]; }
check "the .alone case did not overlap a" apart a alone
check "the .alone case did not overlap b" apart b alone

# two cells of one case never run at once: processes of one executable
# share its page cache, and the kernel's fault-around skips pages another
# process holds locked, so exact page-fault counts would move
# (two identities: root only)
if [ "$ME" = root ]; then
	: >"$tmp/cells"; chmod 666 "$tmp/cells" "$tmp/log"
	out=$(PERFABI_SELFTEST_DIR=$tmp "$RUN" --cases "$SELF" --no-results --identity root,user \
		--paranoid "$LV" -j4 selftest/overlap_a selftest/overlap_b 2>&1); rc=$?
	check "the overlap cases pass in two cells" test $rc -eq 0
	check "four results" test "$(grep -cE '^ok ' <<<"$out")" -eq 4
	cells() { overlapped "$tmp/cells" "$@"; }
	apart_cells() { cells "$@"; [ $? -eq 1 ]; }
	some_side_by_side() {
		cells a.0 b.0 || cells a.65534 b.65534 || cells a.0 b.65534 || cells a.65534 b.0
	}
	check "a as root and a as user did not run at once" apart_cells a.0 a.65534
	check "b as root and b as user did not run at once" apart_cells b.0 b.65534
	check "different cases did run side by side" some_side_by_side
else
	for what in "the overlap cases pass in two cells" "four results" \
		"a as root and a as user did not run at once" \
		"b as root and b as user did not run at once" "different cases did run side by side"; do
		ok "# SKIP $what: two identities need a root runner"
	done
fi
finish
