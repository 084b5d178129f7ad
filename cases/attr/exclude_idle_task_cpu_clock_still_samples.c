#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * exclude_idle is honoured by the cpu-clock hrtimer, which drops a sample
 * when the interrupted task is the idle task. A per-task event never runs
 * in the idle task, so with exclude_idle it is accepted and samples as
 * usual while its task runs.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_idle on a per-task cpu-clock sampling event is accepted and the busy task's samples are still delivered (only samples in the idle task are dropped)",
	.ref = "perf_event_open(2), exclude_idle: \"If this bit is set, don't count when the CPU is running the idle task\"; kernel/events/core.c perf_swevent_hrtimer(): \"if (!(event->attr.exclude_idle && is_idle_task(current)))\"",
	.covers = "attr.exclude_idle",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);
	struct pa_ring r;
	int fd, n;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.exclude_idle = 1;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(20);	/* 20 periods of 1 ms of this task's CPU time */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = pa_ring_count(&r, PERF_RECORD_SAMPLE);
	pa_diag("%d samples", n);
	EXPECT_GE(n, 1);
	pa_ring_unmap(&r);
	close(fd);
}
