#!/usr/bin/env bash
# ./run.sh bisect and bisect-step without booting anything: bad input is a
# one-line error (exit 2; 128 for bisect-step, which git bisect run must not
# take for "bad"), a wrong end stops the bisection, and an interrupted one
# leaves the tree as it was (HEAD, branch, work tree) for the next.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'pkill -f "sleep 61[.]25" 2>/dev/null; rm -rf "$tmp"' EXIT
export PERFABI_BISECT_RUN=$tmp/run
CASE=read/value_only

# a kernel-shaped git tree of three commits on branch "work"
tree=$tmp/tree
mkdir -p "$tree/kernel/events"
git -C "$tree" init -q -b work
git -C "$tree" config user.email t@example.org
git -C "$tree" config user.name t
for i in 1 2 3; do
	echo "$i" >"$tree/kernel/events/core.c"
	echo "all:" >"$tree/Makefile"
	git -C "$tree" add -A && git -C "$tree" commit -q -m "c$i"
done
c1=$(git -C "$tree" rev-parse HEAD~2)
c3=$(git -C "$tree" rev-parse HEAD)

out=$(./run.sh bisect 2>&1); rc=$?
check "no case: exit 2" test $rc -eq 2
check "no case: one line" test "$(grep -c '^bisect: ' <<<"$out")" -eq 1
out=$(./run.sh bisect no/such --good "$c1" --bad "$c3" --tree "$tree" 2>&1); rc=$?
check "unknown case: exit 2" test $rc -eq 2
check "unknown case: named" grep -q "no case 'no/such'" <<<"$out"
out=$(./run.sh bisect-step "$CASE@root,paranoid=x" --tree "$tree" 2>&1); rc=$?
check "bisect-step bad cell: exit 128" test $rc -eq 128
out=$(./run.sh bisect "$CASE" --good "$c3" --bad "$c1" --tree "$tree" 2>&1); rc=$?
check "good not an ancestor of bad: exit 2" test $rc -eq 2
check "good not an ancestor of bad: said" grep -q 'not an ancestor' <<<"$out"
out=$(./run.sh bisect "$CASE" --good "$c1" --bad "$c3" --tree "$tmp" 2>&1); rc=$?
check "not a git kernel tree: exit 2" test $rc -eq 2
echo dirty >>"$tree/Makefile"
out=$(./run.sh bisect "$CASE" --good "$c1" --bad "$c3" --tree "$tree" 2>&1); rc=$?
check "uncommitted changes: exit 2" test $rc -eq 2
check "uncommitted changes: said" grep -q 'uncommitted changes' <<<"$out"
git -C "$tree" checkout -q -- Makefile

# a kernel that does not build: bisect-step says 125, bisect stops at the
# good end, and the tree is back on its branch
printf '#!/bin/sh\necho "kernel.sh: stand-in build failed" >&2\nexit 1\n' >"$tmp/builder"
chmod +x "$tmp/builder"
export PERFABI_BISECT_BUILDER=$tmp/builder
out=$(cd "$tree" && "$OLDPWD/run.sh" bisect-step "$CASE" 2>/dev/null); rc=$?
check "a build failure is 125 (cannot judge)" test $rc -eq 125
check "... with one line saying so" grep -q '^bisect-step: SKIP (125) .*does not build' <<<"$out"
out=$(./run.sh bisect "$CASE" --good "$c1" --bad "$c3" --tree "$tree" 2>&1); rc=$?
check "a good end that cannot be judged stops the bisection (exit 1)" test $rc -eq 1
check "... and names the good end" grep -q 'the good end .* is not good' <<<"$out"
check "... and the tree is back on its branch" test "$(git -C "$tree" symbolic-ref --short HEAD)" = work
check "... at its commit" test "$(git -C "$tree" rev-parse HEAD)" = "$c3"

# interrupted in the middle of a step (the build): exit 130, tree restored,
# nothing of the step left running, and the next bisection starts cleanly
# (a sleep of a length no other run of this test uses: pgrep sees every
# user's processes, and a match of another run's step would send the
# SIGINT before this one's step began)
mark=61.$$$RANDOM
printf '#!/bin/sh\nsleep %s\n' "$mark" >"$tmp/builder"
step_running() { pgrep -f "sleep ${mark/./[.]}\$" >/dev/null; }
no_step_left() { ! step_running; }
# job control on: a background job of a script otherwise ignores SIGINT;
# and a shell cannot trap a signal that was ignored when it started (this
# test run in the background by a non-interactive shell, as a CI job may
# be, inherits SIGINT ignored): the bisection starts with SIGINT at its
# default
set -m
perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!\n"' \
	./run.sh bisect "$CASE" --good "$c1" --bad "$c3" --tree "$tree" >"$tmp/int.out" 2>&1 &
pid=$!
set +m
wait_for 60 step_running
check "the step started" step_running
kill -INT "$pid"
wait "$pid"; rc=$?
check "SIGINT: exit 130 (got $rc)" test $rc -eq 130
[ $rc -eq 130 ] || sed "s/^/# /" "$tmp/int.out"
check "SIGINT: the tree is back on its branch" test "$(git -C "$tree" symbolic-ref --short HEAD)" = work
check "SIGINT: at its commit, work tree clean" \
	bash -c "[ \"\$(git -C '$tree' rev-parse HEAD)\" = $c3 ] && [ -z \"\$(git -C '$tree' status --porcelain)\" ]"
check "SIGINT: the step's processes are gone" wait_for 30 no_step_left
printf '#!/bin/sh\nexit 1\n' >"$tmp/builder"
out=$(./run.sh bisect "$CASE" --good "$c1" --bad "$c3" --tree "$tree" 2>&1); rc=$?
check "the next bisection runs (and stops at the unbuildable good end)" test $rc -eq 1
check "... saying so" grep -q 'the good end' <<<"$out"
finish
