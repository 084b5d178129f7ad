#!/usr/bin/env bash
# The runner's places outside the tree cannot be steered by another local
# user: a planted symbolic link or foreign file at the state directory or a
# lock is refused (exit 2, one line, the target untouched), the tracepoint
# id list goes into a mkdtemp() directory of the run's own (a link planted
# at the old fixed names is left alone), a kernel without flock() still
# gets a lock, and a tree under a 0700 directory runs its unprivileged
# cells (bind-mounted where uid 65534 reaches it).
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
planted=()
trap 'rm -f "${planted[@]}"; rm -rf "$tmp"' EXIT
export PERFABI_STATE_DIR=$tmp/state
echo keep >"$tmp/target"
untouched() { [ "$(cat "$tmp/target")" = keep ] && [ "$(stat -c %u "$tmp/target")" = "$(id -u)" ]; }
refused() { # refused WHAT-GREP command...
	local want=$1 out rc; shift
	out=$("$@" 2>&1); rc=$?
	[ $rc -eq 2 ] && grep -q "$want" <<<"$out" && [ "$(grep -c . <<<"$out")" -eq 1 ] ||
		{ echo "# rc $rc: $out"; return 1; }
}

# the state directory: a link, writable by others, another user's
ln -s "$tmp/target.d" "$tmp/state-link"; mkdir -m 700 "$tmp/target.d"
check "a state directory that is a symbolic link is refused" \
	refused "refusing the state directory.*symbolic link" env PERFABI_STATE_DIR="$tmp/state-link" "$RUN" --cases "$SELF" --no-results selftest/pass
check "and nothing was written through it" test -z "$(ls -A "$tmp/target.d")"
mkdir -m 777 "$tmp/open"; chmod 777 "$tmp/open"
check "a state directory writable by others is refused" \
	refused "refusing the state directory.*writable by others" env PERFABI_STATE_DIR="$tmp/open" "$RUN" --cases "$SELF" --no-results selftest/pass
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 755 "$tmp/theirs"; chown 65534 "$tmp/theirs"
	check "a state directory owned by another user is refused" \
		refused "refusing the state directory.*owned by another user" env PERFABI_STATE_DIR="$tmp/theirs" "$RUN" --cases "$SELF" --no-results selftest/pass
else
	ok "a state directory owned by another user is refused # SKIP needs root to chown"
fi

# the locks: a planted link at the state directory's lock, and (root) at
# the machine lock, the name /tmp/perfabi.lock has where /run is read-only
mkdir -m 755 "$tmp/state"
ln -s "$tmp/target" "$tmp/state/lock"
check "a symbolic link planted at the lock is refused" \
	refused "cannot open the lock .*symbolic link" "$RUN" --cases "$SELF" --no-results selftest/pass
check "and its target is untouched" untouched
rm "$tmp/state/lock"
if [ "$(id -u)" -eq 0 ]; then
	ln -s "$tmp/target" "$tmp/mlock"
	check "a symbolic link planted at the machine lock is refused" \
		refused "cannot open the lock $tmp/mlock.*symbolic link" env PERFABI_MACHINE_LOCK="$tmp/mlock" "$RUN" --cases "$SELF" --no-results selftest/pass
	check "and its target is untouched" untouched
	ln -f "$tmp/target" "$tmp/mlock"
	check "a hard link planted at the machine lock is refused" \
		refused "refusing the lock $tmp/mlock" env PERFABI_MACHINE_LOCK="$tmp/mlock" "$RUN" --cases "$SELF" --no-results selftest/pass
	check "and its target is untouched" untouched
	rm -f "$tmp/mlock"
else
	ok "a symbolic link planted at the machine lock is refused # SKIP only root takes the machine lock"
fi

# the tracepoint id list (root): links planted at the names it had once
if [ "$(id -u)" -eq 0 ]; then
	for d in /run /tmp; do
		[ -e $d/perfabi-tracepoint-ids ] || [ -L $d/perfabi-tracepoint-ids ] && continue
		ln -s "$tmp/target" $d/perfabi-tracepoint-ids && planted+=("$d/perfabi-tracepoint-ids")
	done
	privdirs() { ls -d /run/perfabi.[0-9]*.* /tmp/perfabi.[0-9]*.* 2>/dev/null | sort; }
	others=$(privdirs)	# other runs on this machine (a sweep, a user's run) keep theirs
	out=$("$RUN" --cases "$SELF" --no-results --identity root,user selftest/pass 2>&1)
	check "a run with links planted at the old id list names passes" grep -q "^ok 2 selftest/pass@user" <<<"$out"
	check "the planted links are left alone" bash -c 'for l in "$@"; do [ -L "$l" ] || exit 1; done' - "${planted[@]}"
	check "and their target is untouched" untouched
	check "the run's private directory is gone after it" test -z "$(comm -13 <(echo "$others") <(privdirs))"
else
	ok "a run with links planted at the old id list names passes # SKIP only root lists the ids"
fi

# a kernel without CONFIG_FILE_LOCKING: flock() fails with ENOSYS
out=$(PERFABI_TEST_NO_FLOCK=1 "$RUN" --cases "$SELF" --no-results selftest/pass 2>&1); rc=$?
check "without flock() the run still runs" test $rc -eq 0
check "and says how it locks" grep -q "flock() is missing (ENOSYS.*$tmp/state/lock.held locks the run" <<<"$out"
check "the pid lock is gone after it" test ! -e "$tmp/state/lock.held"
PERFABI_TEST_NO_FLOCK=1 PERFABI_SELFTEST_SLEEP=30 "$RUN" --cases "$SELF" --no-results --identity "$( [ "$(id -u)" -eq 0 ] && echo root || echo user)" \
	--paranoid "$(cat "$PARANOID")" selftest/sleep_privileged >/dev/null 2>&1 &
pid=$!
wait_for 60 test -e "$tmp/state/lock.held"
check "without flock() a concurrent run is refused" \
	refused "another perfabi run holds $tmp/state/lock (pid $pid)" env PERFABI_TEST_NO_FLOCK=1 "$RUN" --cases "$SELF" --no-results selftest/pass
kill -KILL $pid; wait $pid 2>/dev/null
pkill -KILL -f "$SELF/selftest/sleep_privileged"
check "a pid lock left by a killed run is taken over" \
	bash -c 'PERFABI_TEST_NO_FLOCK=1 "$1" --cases "$2" --no-results selftest/pass >/dev/null 2>&1' - "$RUN" "$SELF"
check "and removed at the end" test ! -e "$tmp/state/lock.held"

# a tree below a 0700 directory (a checkout in /root, make install under
# mktemp -d): the unprivileged cells run, with a fixture exec'd too
if [ "$(id -u)" -eq 0 ]; then
	closed=$tmp/closed; mkdir -m 700 "$closed"
	mkdir -p "$closed/b/cases/attr" "$closed/b/cases/read"
	cp -l "$RUN" "$closed/b/" 2>/dev/null || cp "$RUN" "$closed/b/"
	cp -rl "$BUILD/fixtures" "$closed/b/" 2>/dev/null || cp -r "$BUILD/fixtures" "$closed/b/"
	for c in attr/enable_on_exec_counts_after_exec read/group_three_members; do
		cp -l "$BUILD/cases/$c" "$closed/b/cases/$c" 2>/dev/null || cp "$BUILD/cases/$c" "$closed/b/cases/$c"
	done
	out=$(cd "$closed" && b/perfabi-run --no-results --identity root,user 2>&1); rc=$?
	check "a tree under a 0700 directory runs as user" test $rc -eq 0
	check "its user cells pass (a fixture exec'd too)" test "$(grep -c '^ok .*@user,paranoid=[0-9-]*$' <<<"$out")" -eq 2
	check "and it says where they ran from" grep -q "uid 65534 cannot reach $closed/b/cases.*bind mount" <<<"$out"
	check "the host's mounts are untouched" bash -c '! grep -q " /run/perfabi\.\| /tmp/perfabi\." /proc/self/mountinfo'
else
	ok "a tree under a 0700 directory runs as user # SKIP needs root to run as uid 65534"
fi
finish
