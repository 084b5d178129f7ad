#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the PERF_SAMPLE_RAW restriction is a tracepoint rule: a software event sampling RAW on the own task opens for every identity at every upstream paranoid level",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm() is the only perf_allow_tracepoint() caller for RAW; perf_event_open(2) perf_event_paranoid \"-1 ... raw tracepoint access\"",
	.covers = "sample.RAW sysctl.perf_event_paranoid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
