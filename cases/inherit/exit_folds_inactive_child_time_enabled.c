#include "perfabi.h"

#include <sys/wait.h>

/*
 * An inherited event's child counts in the parent once the child exits:
 * its value and its times (perf_event_read_value() adds the children's
 * child_total_time_enabled/running). The time of a child event that was
 * enabled but never running (INACTIVE: its CPU filter never matched) must
 * be folded too: a3c3c66670ce (6.15; "the rule that timekeeping is tied
 * to state change") makes __perf_remove_from_context() set the exiting
 * child's state, and so its times, before perf_child_detach() ->
 * sync_child_event() adds them to the parent. ef54c1a476ae (5.13) had
 * folded them before the state change, and c418d8b4d7a4 (6.19; stable
 * 6.18.2, 6.17.13), made for PERF_RECORD_READ, calls sync_child_event()
 * early again: an INACTIVE child that never changed state folds 0.
 *
 * This task and its child run pinned to one CPU; the inherited event
 * (pid 0) counts only on another CPU, so neither copy ever runs. The
 * child works 100 ms of CPU time, during which its context, and so its
 * INACTIVE event's time_enabled, advances. The parent's time_enabled
 * grows by at least PA_WORKED_NS_MIN(100) over the child's life (its own
 * event, also INACTIVE, adds only what the parent itself ran), and its
 * time_running not at all. An event with inherit = 0 in the same context
 * keeps the kernel from swapping the parent's and child's contexts.
 */
#define WORK_MS 100

PERFABI_CASE(
	.assertion = "when a child exits, the time_enabled of its inherited copy of an event is added to the parent's even where that copy was enabled but never running (its CPU filter never matched): after a child that worked 100 ms of CPU time, the parent's time_enabled has grown by at least half of it and its time_running by nothing",
	.ref = "perf_event_open(2), inherit, read_format PERF_FORMAT_TOTAL_TIME_ENABLED; \"perf/core: Fix child_total_time_enabled accounting bug at task exit\" a3c3c66670ce (6.15): kernel/events/core.c __perf_remove_from_context() (DETACH_EXIT: perf_event_state() before perf_child_detach() -> sync_child_event()); undone for INACTIVE children by c418d8b4d7a4 (6.19, stable 6.18.2 and 6.17.13)",
	.covers = "attr.inherit read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING arg.cpu",
	.probe = pa_probe_self_perf,
	.alone = true,		/* pins itself to one CPU */
	.xfail = {
		/* ef54c1a476ae (5.13) to a3c3c66670ce (6.15) and its stable
		 * backports (6.12.y: the 6.12.23 review series; 6.1.185;
		 * 5.15.218); again from c418d8b4d7a4 (6.19) and its
		 * backports da07fa873059 (6.18.2) and e70bd000760a (6.17.13),
		 * not fixed when this was written */
		.from = "5.13",
		.to = "6.15",
		.fixed_in = "6.12.23 6.1.185 5.15.218",
		.windows = "6.19.. 6.18.2.. 6.17.13..",
		.why = "sync_child_event() adds an exiting child's total_time_enabled before its state change updates it: an INACTIVE child's time since its last state change is lost",
		.fix = "a3c3c66670ce",
	},
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct { uint64_t value, enabled, running; } r0, r1;
	int cpus[2], inh, own, st;
	pid_t pid;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("fewer than 2 CPUs are allowed to this task");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	a.inherit = 1;
	a.disabled = 0;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, cpus[1], -1, PERF_FLAG_FD_CLOEXEC);
	own = ASSERT_OPEN(&b, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_EQ(read(inh, &r0, sizeof(r0)), (ssize_t)sizeof(r0));
	pid = ASSERT_OK(fork());
	if (pid == 0) {
		pa_work_cpu_ms(WORK_MS);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_EQ(read(inh, &r1, sizeof(r1)), (ssize_t)sizeof(r1));
	pa_diag("over the child's life: time_enabled +%llu ns, time_running +%llu ns, value +%llu",
		(unsigned long long)(r1.enabled - r0.enabled),
		(unsigned long long)(r1.running - r0.running),
		(unsigned long long)(r1.value - r0.value));
	EXPECT_GE(r1.enabled - r0.enabled, PA_WORKED_NS_MIN(WORK_MS));
	EXPECT_EQ(r1.running - r0.running, 0u);		/* never on its CPU */
	EXPECT_EQ(r1.value - r0.value, 0u);
	close(own);
	close(inh);
}
