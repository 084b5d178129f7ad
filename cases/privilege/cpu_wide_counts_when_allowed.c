#include "perfabi.h"

PERFABI_CASE(
	.assertion = "where the rules allow a cpu-wide event it counts the page faults this task makes on that CPU",
	.ref = "perf_event_open(2), Arguments: \"pid == -1 and cpu >= 0 ... measures all processes/threads on the specified CPU\"",
	.alone = true,
	.covers = "arg.pid arg.cpu cap.CAP_PERFMON",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_CPU);
	uint64_t n;
	int cpu, fd;

	ASSERT_EQ(pa_allowed_cpus(&cpu, 1), 1);
	ASSERT_EQ(pa_pin_cpu(cpu), 0);
	fd = EXPECT_OPEN_RESULT(&attr, -1, cpu, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	n = pa_count_over(fd, pa_work_pages, 64);
	EXPECT_GE(n, 64);
	close(fd);
}
