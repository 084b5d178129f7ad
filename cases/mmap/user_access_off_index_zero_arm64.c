#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * arm64 PMUv3 user-space counter access (5.17): an event asks for it with
 * the "rdpmc" format term (attr.config1 bit 1); the kernel then keeps it
 * on one counter (PERF_EVENT_FLAG_USER_READ_CNT), and cap_user_rdpmc in
 * the control page says so (arch_perf_update_userpage(): cap_user_rdpmc =
 * armv8pmu_event_has_user_read(), pmc_width 32 without the "long" term).
 * Whether user space may read that counter is the sysctl
 * kernel/perf_user_access: while it is 0 the PMU's event_idx
 * (armv8pmu_user_event_idx()) is 0, so the control page's index stays 0
 * even while the event counts, and a reader must fall back to read().
 * Set to 0 here (restored after).
 */
PERFABI_CASE(
	.assertion = "arm64: with kernel/perf_user_access 0, a counting self-monitoring hardware event that asks for user access (config1 rdpmc) has index 0 in its control page while it runs (no counter to read from user space); cap_user_rdpmc 1 and pmc_width 32 describe the event",
	.ref = "Documentation/arch/arm64/perf.rst \"Perf Userspace PMU Hardware Counter Access\"; drivers/perf/arm_pmuv3.c (arch/arm64/kernel/perf_event.c before 6.2) armv8pmu_user_event_idx(), arch_perf_update_userpage(); perf_event_open(2) MMAP layout: index, cap_user_rdpmc, pmc_width",
	.covers = "mmap.capabilities attr.config1 hw.CPU_CYCLES",
	.min_kernel = "5.17",
	.alone = true,
	.root = true,
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t rdpmc = pa_arm64_rdpmc_config1();
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.config1 = rdpmc,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct pa_ring r;
	uint64_t before;
	int fd;

	ASSERT_OK(pa_sysctl_write("kernel/perf_user_access", "0"));
	fd = pa_perf_open(&a, 0, -1, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP))
		pa_skip("no CPU cycles event here (%s)", pa_errno_name(errno));
	ASSERT_TRUE(fd >= 0);
	pa_ring_map(&r, fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(1000);
	/* running now: the control page was updated when it was scheduled in */
	before = r.page->index;
	EXPECT_EQ(r.page->index, 0u);
	EXPECT_EQ((uint64_t)r.page->cap_user_rdpmc, 1);
	EXPECT_EQ(r.page->pmc_width, 32);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_NE(pa_read_one(fd), 0);	/* it did count */
	pa_diag("index %llu while running", (unsigned long long)before);
	pa_ring_unmap(&r);
	close(fd);
}
