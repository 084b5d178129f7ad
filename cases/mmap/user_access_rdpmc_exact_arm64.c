#include "perfabi.h"

#include <sys/ioctl.h>

#define K 100000ULL	/* loop iterations */

/*
 * arm64 PMUv3 user-space counter access: with kernel/perf_user_access 1
 * (set here, restored after), a self-monitoring event opened with the
 * "rdpmc" format term (config1 bit 1) runs on one counter that EL0 may
 * read (PMUSERENR_EL0.ER/CR set by armv8pmu_start() while such an event is
 * scheduled), and its control page gives cap_user_rdpmc 1, pmc_width 32
 * and index = counter + 1 (32 for the cycle counter PMCCNTR_EL0, n + 1
 * for PMEVCNTR<n>_EL0). The documented self-monitoring read (lock
 * seqcount; offset + the counter's pmc_width bits, sign-extended) is then
 * the count. Under an exact PMU (QEMU -icount shift=0, one vCPU) the user
 * reads around K more iterations of pa_loop3() differ by exactly 3K more
 * instructions (the same code reads both times, so its own cost cancels
 * out); and once disabled (index 0) the read is offset alone, equal to
 * read(). INSTRUCTIONS with rdpmc is kept off the dedicated instruction
 * counter (armv8pmu_get_event_idx()), so it reads a PMEVCNTR.
 */
static __attribute__((noinline, unused)) uint64_t user_delta(volatile struct perf_event_mmap_page *pc,
							     uint64_t k, uint32_t *index)
{
	uint64_t v0 = pa_arm64_self_read(pc, NULL), v1;

	pa_loop3(k);
	v1 = pa_arm64_self_read(pc, index);
	return v1 - v0;
}

PERFABI_CASE(
	.assertion = "arm64: with kernel/perf_user_access 1, a self-monitoring INSTRUCTIONS event with config1 rdpmc has cap_user_rdpmc 1, pmc_width 32 and index != 0 while running, and the documented user-space read of that counter is exact: K more loop iterations read exactly 3K more; disabled, index is 0 and the read equals read()",
	.ref = "Documentation/arch/arm64/perf.rst \"Perf Userspace PMU Hardware Counter Access\"; include/uapi/linux/perf_event.h struct perf_event_mmap_page (index, offset, pmc_width, the self-monitoring read); drivers/perf/arm_pmuv3.c armv8pmu_user_event_idx(), armv8pmu_enable_user_access()",
	.covers = "mmap.capabilities attr.config1 hw.INSTRUCTIONS",
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
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.config1 = rdpmc,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	uint64_t one, two, after;
	uint32_t idx1 = 0, idx2 = 0, idx_off = 1;
	struct pa_ring r;
	int fd;

#if defined(__aarch64__)
	pa_need_exact_pmu();
	ASSERT_OK(pa_sysctl_write("kernel/perf_user_access", "1"));
	fd = pa_perf_open(&a, 0, -1, -1, 0);
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP))
		pa_skip("no INSTRUCTIONS event here (%s)", pa_errno_name(errno));
	ASSERT_TRUE(fd >= 0);
	pa_ring_map(&r, fd, 0);
	pa_loop3(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	(void)user_delta(r.page, 1, NULL);	/* fault everything in */
	one = user_delta(r.page, K, &idx1);
	two = user_delta(r.page, 2 * K, &idx2);
	EXPECT_EQ((uint64_t)r.page->cap_user_rdpmc, 1);
	EXPECT_EQ(r.page->pmc_width, 32);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_diag("index %u/%u; user reads: %llu over %llu iterations, %llu over %llu",
		idx1, idx2, (unsigned long long)one, (unsigned long long)K,
		(unsigned long long)two, (unsigned long long)(2 * K));
	EXPECT_NE(idx1, 0);
	EXPECT_EQ(idx2, idx1);
	EXPECT_EQ(two - one, 3 * K);
	after = pa_arm64_self_read(r.page, &idx_off);
	EXPECT_EQ(idx_off, 0);
	EXPECT_EQ(after, pa_read_one(fd));
	pa_ring_unmap(&r);
	close(fd);
#else
	(void)a; (void)one; (void)two; (void)after; (void)idx1; (void)idx2; (void)idx_off; (void)r; (void)fd;
	pa_skip("user-space PMUv3 counter reads are arm64's");
#endif
}
