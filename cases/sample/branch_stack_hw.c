#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_BRANCH_STACK on a hardware event with branch sampling gives {bnr, lbr[bnr] {from, to, flags}} in the sample; user-only branch filtering records user addresses only",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"bnr, lbr[bnr]: If PERF_SAMPLE_BRANCH_STACK is enabled, then a 64-bit value indicating the number of records is included, followed by bnr perf_branch_entry structures\"; branch_sample_type PERF_SAMPLE_BRANCH_USER",
	.covers = "sample.BRANCH_STACK attr.branch_sample_type hw.INSTRUCTIONS",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_HW_INSTRUCTIONS, 100003);
	struct pa_ring r;
	struct pa_sample s;
	const uint64_t *e;
	int fd;

	attr.type = PERF_TYPE_HARDWARE;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY;
	fd = pa_perf_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == ENOENT || errno == EINVAL))
		pa_skip("this PMU has no branch stack sampling: %s", strerror(errno));
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 16);
	ASSERT_TRUE(pa_ring_spin_for_data(&r, 2000));
	pa_ring_sample(&r, &attr, &s);
	e = s.branches;
	/* the sample follows user code with taken branches: the filter keeps
	 * them, so the stack is not empty (an LBR that records nothing, or a
	 * kernel that writes bnr 0, fails here) */
	EXPECT_GE(s.var.branch_nr, 1u);
	EXPECT_LE(s.var.branch_nr, 256u);
	for (uint64_t i = 0; i < s.var.branch_nr; i++) {
		EXPECT_LT(e[3 * i], (uint64_t)1 << 63);		/* from: user */
		EXPECT_LT(e[3 * i + 1], (uint64_t)1 << 63);	/* to: user */
	}
}
