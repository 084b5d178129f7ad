#include "perfabi.h"

/*
 * arm64's user callchain walks frame records from x29 and never reads the
 * link register (arch_stack_walk_user(): the pc, then the lr of each
 * record). At a function's first instruction the return address into its
 * caller is only in x30 (the callee has not pushed its record yet) and
 * x29 is still the caller's record, whose lr is the caller's own return
 * address. So a breakpoint on the first instruction of f, in
 * pa_arm64_cc_h -> g -> f, gives exactly {PERF_CONTEXT_USER, f, the return
 * address in h, h's return address into its caller}: the return address
 * in g, f's real caller, is not in the chain.
 */
PERFABI_CASE(
	.assertion = "arm64: a user callchain sampled at a function's first instruction lacks the immediate caller (the return address is only in x30, which the frame-record walk does not read): for h -> g -> f with a breakpoint on f's entry, exactly {USER, f, return into h, return into h's caller}",
	.ref = "perf_event_open(2), PERF_SAMPLE_CALLCHAIN; arch/arm64/kernel/stacktrace.c arch_stack_walk_user() (consume regs->pc, then unwind_user_frame() from regs->regs[29]); AAPCS64 frame records",
	.covers = "sample.CALLCHAIN type.BREAKPOINT attr.exclude_callchain_kernel",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_X, pa_arm64_cc_f, HW_BREAKPOINT_LEN_4);
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
	ASSERT_EQ(s.var.callchain_nr, 4);
	EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
	EXPECT_EQ(s.callchain[1], (uint64_t)(uintptr_t)pa_arm64_cc_f);
	EXPECT_EQ(s.callchain[2], (uint64_t)(uintptr_t)pa_arm64_cc_ret_h);
	EXPECT_EQ(s.callchain[3], ret_caller);
	pa_ring_unmap(&r);
	close(fd);
#else
	pa_skip("the frame-record walk checked here is arm64's");
#endif
}
