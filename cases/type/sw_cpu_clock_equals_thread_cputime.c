#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * A per-task cpu-clock event is added to the CPU when its task is scheduled
 * in and removed when it is scheduled out; while added it adds up
 * local_clock() (cpu_clock_event_update()). So it counts the time the task
 * is on a CPU, on the clock the scheduler's sum_exec_runtime
 * (CLOCK_THREAD_CPUTIME_ID) is taken from, less interrupt time
 * (CONFIG_IRQ_TIME_ACCOUNTING) and stolen time
 * (CONFIG_PARAVIRT_TIME_ACCOUNTING) on the scheduler's side:
 *
 *   - below: at least the thread's CPU time measured around ENABLE..DISABLE,
 *     less the syscalls of the bracket and the few microseconds of each
 *     context switch that sum_exec_runtime charges and the event does not
 *     (1 ms + 5 %);
 *   - above: at most the wall time of the bracket less the time the task
 *     waited on a run queue (run_delay of /proc/thread-self/schedstat), plus
 *     0.2 ms + 2 % for local_clock() against CLOCK_MONOTONIC. Without
 *     CONFIG_SCHED_INFO run_delay reads 0 and the bound is the wall time.
 *
 * The upper bound compares with CLOCK_MONOTONIC, which on a jiffies clock
 * can fall behind local_clock(): "hrtimer".
 *
 * bc4394e5e79c ("perf: Fix the throttle error of some clock events", 6.16)
 * made cpu_clock_event_stop() update the count only with PERF_EF_UPDATE,
 * which the del() of a sched-out or DISABLE never passes: a counting
 * cpu-clock read after DISABLE stays near 0 until f1f96511b1c4 ("perf: Fix
 * 0 count issue of cpu-clock", 6.18, stable 6.17.y).
 *
 * The allowances, and why: pa_clock_event_vs_cputime() (harness/lib/open.c).
 */

PERFABI_CASE(
	.assertion = "a per-task PERF_COUNT_SW_CPU_CLOCK counts the time the task "
		     "is on a CPU: "
		     "over 200 ms of busy CPU time it is at least the thread's CPU "
		     "time (CLOCK_THREAD_CPUTIME_ID) less 1 ms + 5 %, and at most the "
		     "wall time less the time the task waited for a CPU, plus "
		     "0.2 ms + 2 %, either bound widened by 50 us per context "
		     "switch",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CPU_CLOCK \"the CPU clock, a "
	       "high-resolution per-CPU timer\"; kernel/events/core.c "
	       "cpu_clock_event_add()/del(), cpu_clock_event_update() "
	       "(local_clock()); "
	       "kernel/sched/fair.c update_curr() (sum_exec_runtime); "
	       "kernel/sched/stats.h sched_info_arrive() (run_delay)",
	.covers = "sw.CPU_CLOCK attr.config",
	.features = "hrtimer",
	.xfail = {
		.from = "6.16",
		.to = "6.18",
		.why = "bc4394e5e79c made cpu_clock_event_stop() skip the count update "
		       "without PERF_EF_UPDATE, which del() never passes: a counting "
		       "cpu-clock loses the time since its last read at every sched-out "
		       "and DISABLE; fixed in 6.18 and, by the stable backport, 6.17.y "
		       "[unconfirmed which 6.17.y]",
		.fix = "f1f96511b1c4",
	},
	.probe = pa_probe_self_perf,
	.timeout = 20,
) {
	pa_clock_event_vs_cputime(PERF_COUNT_SW_CPU_CLOCK, "cpu clock");
}
