#include "perfabi.h"

PERFABI_CASE(
	.assertion = "perf_event_max_contexts_per_stack is readable (0..1000, default 8), rejects 1001 with EINVAL, and takes a value in range",
	.ref = "Documentation/admin-guide/sysctl/kernel.rst perf_event_max_contexts_per_stack; kernel/events/callchain.c (4.8 c85b0334)",
	.alone = true,
	.covers = "sysctl.perf_event_max_contexts_per_stack",
	.min_kernel = "4.8",
	.root = true,
) {
	long v = pa_sysctl_long("kernel/perf_event_max_contexts_per_stack");

	EXPECT_GE(v, 0);
	EXPECT_LE(v, 1000);
	EXPECT_ERRNO(pa_sysctl_write("kernel/perf_event_max_contexts_per_stack", "1001"), EINVAL);
	if (pa_sysctl_write("kernel/perf_event_max_contexts_per_stack", "4")) {
		if (errno == EBUSY)
			pa_skip("callchain events of other processes keep it busy");
		pa_fail("write 4: %s", pa_errno_name(errno));
		return;
	}
	EXPECT_EQ(pa_sysctl_long("kernel/perf_event_max_contexts_per_stack"), 4);
}
