#include "perfabi.h"

/*
 * A branch_sample_type without any privilege bit (USER, KERNEL, HV) takes
 * the event's: every level the event does not exclude (kernel/events/
 * core.c perf_copy_attr()). Asking for kernel or hypervisor branches needs
 * perf_allow_kernel() (paranoid < 2 or CAP_PERFMON), checked right there,
 * before the PMU is asked; a software PMU then refuses branch sampling
 * with EOPNOTSUPP. So, for a user-only page-fault sampler:
 * - exclude_hv = 1: the branch level is USER: EOPNOTSUPP for anyone who
 *   may monitor itself at all;
 * - exclude_hv = 0: the branch level gains HV: EACCES where kernel
 *   measurement is not allowed (the same event opens without
 *   BRANCH_STACK, privilege/exclude_hv_clear_not_restricted);
 * - an explicit PERF_SAMPLE_BRANCH_KERNEL with exclude_kernel = 1: the
 *   explicit level is kept ("do not have to match"): the same EACCES;
 * - exclude_kernel = 0: KERNEL joins: EOPNOTSUPP where allowed.
 */
struct plm_try {
	const char *what;
	unsigned excl_kernel, excl_hv;
	uint64_t bst;
	bool needs_kernel;
};

PERFABI_CASE(
	.assertion = "a branch_sample_type with no privilege level bit takes the event's privilege level (exclude_kernel/exclude_user/exclude_hv): with exclude_hv = 0 the branch level includes HV and the open fails with EACCES where kernel measurement is not allowed; with exclude_kernel and exclude_hv set it is user-only and reaches the software PMU's EOPNOTSUPP",
	.ref = "perf_event_open(2), branch_sample_type: \"If the user does not set privilege level explicitly, the kernel will use the event's privilege level. Event and branch privilege levels do not have to match.\"; EACCES; kernel/events/core.c perf_copy_attr() (PERF_SAMPLE_BRANCH_PERM_PLM -> perf_allow_kernel())",
	.covers = "attr.branch_sample_type attr.exclude_hv attr.exclude_kernel sample.BRANCH_STACK errno.EACCES errno.EOPNOTSUPP sysctl.perf_event_paranoid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	static const struct plm_try tries[] = {
		{ "no level, exclude_kernel exclude_hv", 1, 1,
		  PERF_SAMPLE_BRANCH_ANY, false },
		{ "no level, exclude_kernel, exclude_hv = 0", 1, 0,
		  PERF_SAMPLE_BRANCH_ANY, true },
		{ "explicit KERNEL, exclude_kernel exclude_hv", 1, 1,
		  PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL, true },
		{ "no level, exclude_kernel = 0, exclude_hv", 0, 1,
		  PERF_SAMPLE_BRANCH_ANY_CALL, true },
	};

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		const struct plm_try *t = &tries[i];
		struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
		/* PA_NEED_SELF: where even self-monitoring is refused (a
		 * paranoid level above 2 on kernels that have one) */
		int want = pa_expected_errno_or(t->needs_kernel ? PA_NEED_KERNEL : PA_NEED_SELF,
						EOPNOTSUPP);

		attr.disabled = 1;
		attr.exclude_kernel = t->excl_kernel;
		attr.exclude_hv = t->excl_hv;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = t->bst;
		pa_diag("%s: expect %s", t->what, pa_errno_name(want));
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
	}
}
