#!/usr/bin/env bash
# Time-dependent cases hold on a busy machine: a sample of those that
# compare times, wait, or depend on staying on the CPU (task-clock against
# the thread's CPU time or switch records, time_enabled/time_running, sleeps,
# PERIOD's due overflow) runs under harness/tools/load.sh, one CPU hog per online
# CPU, and none of them FAILs. A few seconds; ./run.sh --bench N --load is the
# whole suite this way.
. "$(dirname "$0")/lib.bash"
cd "$(dirname "$0")/../.." || exit 2
[ -x "$RUN" ] && [ -d "$BUILD/cases/ioctl" ] || skip_all "build the suite first (make)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"	# the cases run as uid 65534 too
# a state directory of our own: runs beside a suite run (the level is the
# current one, so nothing global is changed)
export PERFABI_STATE_DIR=$tmp/state

CASES=(
	ioctl/period_running_ends_current_period
	ioctl/period_running_sw_old_period_once
	regress/task_ctx_switch_between_threads_counts_own_work
	type/sw_task_clock_equals_thread_cputime
	type/sw_task_clock_stops_while_sleeping
	read/time_enabled_stops_while_task_sleeps
	read/time_enabled_equals_running_sw
	group/pinned_sw_leader_always_on
	group/members_times_identical_to_leader
	mmap/control_page_times_equal_read
	type/exclude_all_bits_task_clock_counts_unchanged
)
for c in "${CASES[@]}"; do
	[ -x "$BUILD/cases/$c" ] || { not_ok "case $c is built"; finish; exit 1; }
done
args=(--no-results --destructive --paranoid "$(cat $PARANOID)")
[ "$(id -u)" -eq 0 ] && args+=(--identity root,user)

t0=$(date +%s)
harness/tools/load.sh -- "$RUN" "${args[@]}" "${CASES[@]}" >"$tmp/out" 2>&1
rc=$?
t1=$(date +%s)
# the machine-wide lock of another checkout's run: not ours to wait for
if [ $rc -ne 0 ] && grep -q "^perfabi-run: another perfabi run holds" "$tmp/out"; then
	skip_all "$(sed -n 's/^perfabi-run: //p' "$tmp/out" | head -n1)"
fi
check "under load the runner exits 0" test $rc -eq 0
for c in "${CASES[@]}"; do
	if grep -Eq "^not ok [0-9]+ $c@" "$tmp/out"; then
		not_ok "$c: no FAIL under load" "$(grep -E "^not ok [0-9]+ $c@" "$tmp/out" | head -n2 | cut -c1-300)"
	elif grep -Eq "^ok [0-9]+ $c@" "$tmp/out"; then
		ok "$c: no FAIL under load"
	else
		not_ok "$c: no FAIL under load" "no result for it: $(tail -n1 "$tmp/out")"
	fi
done
echo "# $((t1 - t0)) s under $(getconf _NPROCESSORS_ONLN) hog(s)"
sleep 0.3
check "no hog is left" test -z "$(pgrep -f -- "harness/tools/load.sh -- $RUN")"
finish
