#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a CPU-wide event (pid == -1) on a possible CPU that is offline "
		     "fails with ENODEV (after the CPU-wide permission check, EACCES)",
	.ref = "kernel/events/core.c perf_event_open(): !task && !cpuctx->online "
	       "-> -ENODEV; perf_event_open(2) ENODEV",
	.covers = "arg.cpu errno.ENODEV",
	.privileged = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int cpu = pa_cpu_possible_offline();
	int want = pa_expected_errno(PA_NEED_CPU);

	if (cpu < 0)
		pa_skip("no possible-but-offline CPU (this case never offlines one)");
	pa_diag("cpu %d is offline", cpu);
	EXPECT_OPEN_FAIL(&attr, -1, cpu, -1, 0, want ? want : ENODEV);
}
