#include "perfabi.h"

/*
 * arm64 PMUv3: an event that asks for user-space counter access (the
 * "rdpmc" format term, config1 bit 1) must be bound to a task: user space
 * can only read the counter of an event that runs in its own context.
 * __armv8_pmuv3_map_event() refuses it without PERF_ATTACH_TASK, so a
 * CPU-wide event (pid -1, cpu 0) with rdpmc is EINVAL, whatever
 * kernel/perf_user_access says; the same event without rdpmc opens, and
 * with rdpmc on this task (pid 0, cpu -1) it opens. Opening CPU-wide
 * needs the CPU-wide permission first (pa_expected_errno(PA_NEED_CPU)).
 */
PERFABI_CASE(
	.assertion = "arm64: a hardware event with config1 rdpmc (user-space counter access) opened CPU-wide (pid -1, cpu 0) is refused with EINVAL; the same event without rdpmc opens CPU-wide, and with rdpmc opens on the calling task",
	.ref = "Documentation/arch/arm64/perf.rst \"Perf Userspace PMU Hardware Counter Access\"; drivers/perf/arm_pmuv3.c __armv8_pmuv3_map_event(): armv8pmu_event_want_user_access() && !(event->attach_state & PERF_ATTACH_TASK) -> -EINVAL",
	.covers = "attr.config1 arg.pid errno.EINVAL hw.CPU_CYCLES",
	.min_kernel = "5.17",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t rdpmc = pa_arm64_rdpmc_config1();
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd, need = pa_expected_errno(PA_NEED_CPU);

	if (need)
		pa_skip("opening CPU-wide is refused here (%s) before the rdpmc term is looked at", pa_errno_name(need));
	fd = pa_perf_open(&a, -1, 0, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP))
		pa_skip("no CPU cycles event here (%s)", pa_errno_name(errno));
	ASSERT_TRUE(fd >= 0);
	close(fd);
	a.config1 = rdpmc;
	EXPECT_OPEN_FAIL(&a, -1, 0, -1, 0, EINVAL);
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
}
