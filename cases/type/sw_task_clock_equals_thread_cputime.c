#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * The task clock adds up local_clock() while the task's perf context is
 * scheduled in (task_clock_event_update() on ctx->time), that is while the
 * task is on a CPU. CLOCK_THREAD_CPUTIME_ID is the scheduler's
 * sum_exec_runtime, the same on-CPU time on rq->clock_task (the same clock
 * less interrupt time with CONFIG_IRQ_TIME_ACCOUNTING and less time stolen
 * by a hypervisor with CONFIG_PARAVIRT_TIME_ACCOUNTING). So:
 *
 *   - below: the task clock is at least the thread's CPU time measured
 *     around ENABLE..DISABLE, less the syscalls of the bracket (1 ms + 5 %)
 *     and the few microseconds of each context switch that sum_exec_runtime
 *     charges and the perf context does not;
 *   - above: it is at most the wall time of the bracket less the time the
 *     task waited on a run queue (run_delay of /proc/thread-self/schedstat,
 *     accounted when the task gets the CPU back), plus 0.2 ms + 2 % for
 *     local_clock() against CLOCK_MONOTONIC. Busy and alone on its CPU, that
 *     is its CPU time plus interrupt and stolen time; under contention the
 *     waits are taken out, so a task clock that ran on while the task was
 *     preempted fails. Without CONFIG_SCHED_INFO run_delay reads 0 and the
 *     bound is the wall time.
 *
 * The upper bound compares with CLOCK_MONOTONIC, which on a jiffies clock
 * can fall behind local_clock(): "hrtimer".
 *
 * The allowances, and why: pa_clock_event_vs_cputime() (harness/lib/open.c).
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_TASK_CLOCK counts the time the task is on a CPU: "
		     "over 200 ms of busy CPU time it is at least the thread's CPU "
		     "time (CLOCK_THREAD_CPUTIME_ID) less 1 ms + 5 %, and at most the "
		     "wall time less the time the task waited for a CPU, plus "
		     "0.2 ms + 2 %, either bound widened by 50 us per context "
		     "switch",
	.ref = "perf_event_open(2), PERF_COUNT_SW_TASK_CLOCK \"a clock count "
	       "specific to the task that is running\"; kernel/events/core.c "
	       "task_clock_event_update() (ctx->time, perf_clock()); "
	       "kernel/sched/fair.c update_curr() (sum_exec_runtime); "
	       "kernel/sched/stats.h sched_info_arrive() (run_delay)",
	.covers = "sw.TASK_CLOCK attr.config",
	.features = "hrtimer",
	.probe = pa_probe_self_perf,
	.timeout = 20,
) {
	pa_clock_event_vs_cputime(PERF_COUNT_SW_TASK_CLOCK, "task clock");
}
