#include "perfabi.h"

/*
 * An "exclusive" PMU (PERF_PMU_CAP_EXCLUSIVE: intel_pt here; also
 * arm_spe, cs_etm, ...) takes one event per context: a second matching
 * event on the same task fails with EBUSY. Machines without intel_pt
 * SKIP (no other exclusive PMU is known to be reachable from a case).
 */
PERFABI_CASE(
	.assertion = "a second event of an exclusive PMU (intel_pt) on the same task, while the first is open, fails with EBUSY",
	.ref = "perf_event_open(2), EBUSY (since 4.1): \"another event already has exclusive access to the PMU\"; kernel/events/core.c exclusive_event_installable() -> -EBUSY",
	.covers = "errno.EBUSY",
	.min_kernel = "4.1",
	.pmu = "intel_pt",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr;
	int fd;

	if (pa_intel_pt_attr(&attr) < 0)
		pa_skip("no intel_pt PMU (no exclusive PMU to contend for)");
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EBUSY);
	close(fd);
	/* once the first is closed the PMU is free again */
	close(ASSERT_OPEN(&attr, 0, -1, -1, 0));
}
