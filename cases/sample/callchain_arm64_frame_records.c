#include "perfabi.h"

/*
 * arm64's user callchain is a frame-record walk (arch_stack_walk_user(),
 * before 6.x perf_callchain_user()/user_backtrace()): the sample's pc,
 * then from x29 each record {fp, lr}: its lr (PAC bits stripped), then on
 * to fp while fp grows. In pa_arm64_cc_h -> g -> f, each with a record,
 * a breakpoint on the nop after f's prologue has x29 = f's record: the
 * callchain is exactly {PERF_CONTEXT_USER, the nop, the return address
 * in g, the return address in h, h's return address into its caller},
 * and no more: h's record has fp 0, which ends the walk.
 */
PERFABI_CASE(
	.assertion = "arm64: the user callchain of a breakpoint sample is PERF_CONTEXT_USER, the pc, then the lr of each AAPCS64 frame record from x29 on: after f's prologue in h -> g -> f, exactly {USER, pc, return into g, return into h, return into h's caller}, the walk ending at a record with fp 0",
	.ref = "perf_event_open(2), PERF_SAMPLE_CALLCHAIN; arch/arm64/kernel/stacktrace.c arch_stack_walk_user(), unwind_user_frame() (\"Frame pointers should strictly progress back up the stack\"); arch/arm64/kernel/perf_callchain.c",
	.covers = "sample.CALLCHAIN type.BREAKPOINT attr.exclude_callchain_kernel",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_X, pa_arm64_cc_f_body, HW_BREAKPOINT_LEN_4);
	uint64_t ret_caller = 0;
	struct pa_sample s;
	struct pa_ring r;
	int fd;

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a.exclude_callchain_kernel = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_arm64_cc_h(&ret_caller);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 1);
	pa_ring_sample(&r, &a, &s);
	for (uint64_t i = 0; i < s.var.callchain_nr; i++)
		pa_diag("callchain[%llu] 0x%llx", (unsigned long long)i,
			(unsigned long long)s.callchain[i]);
	ASSERT_EQ(s.var.callchain_nr, 5);
	EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
	EXPECT_EQ(s.callchain[1], (uint64_t)(uintptr_t)pa_arm64_cc_f_body);
	EXPECT_EQ(s.callchain[2], (uint64_t)(uintptr_t)pa_arm64_cc_ret_g);
	EXPECT_EQ(s.callchain[3], (uint64_t)(uintptr_t)pa_arm64_cc_ret_h);
	EXPECT_EQ(s.callchain[4], ret_caller);
	EXPECT_EQ(s.ip, (uint64_t)(uintptr_t)pa_arm64_cc_f_body);
	pa_ring_unmap(&r);
	close(fd);
#else
	pa_skip("the frame-record walk checked here is arm64's");
#endif
}
