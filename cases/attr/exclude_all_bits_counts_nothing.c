#include "perfabi.h"

/*
 * perf_exclude_event() drops a software event that happens in user mode
 * when exclude_user is set and one in kernel mode when exclude_kernel is
 * set: with both, every event is dropped, whatever the other exclude bits
 * (exclude_hv, exclude_idle, exclude_host, exclude_guest) say. A page-fault
 * counter with every exclude bit set counts nothing over 64 faults taken
 * in user mode and 64 taken in kernel mode, while a counter beside it that
 * differs only in the bits (the usual exclude_kernel and exclude_hv) counts
 * exactly the 64 user faults (both workloads ran once before, so their
 * code and stack are mapped and each fresh page's first store is the only
 * user-mode fault). Setting exclude_kernel keeps the open allowed for
 * every identity.
 */
PERFABI_CASE(
	.assertion = "with exclude_user, exclude_kernel, exclude_hv, exclude_idle, "
		     "exclude_host and exclude_guest all set a page-fault counter "
		     "counts 0 over 64 user-mode and 64 kernel-mode faults, while the "
		     "same counter with only exclude_kernel and exclude_hv counts the "
		     "64 user faults (exactly)",
	.ref = "perf_event_open(2), exclude_user, exclude_kernel, exclude_hv, "
	       "exclude_idle, exclude_host, exclude_guest; kernel/events/core.c "
	       "perf_exclude_event(), perf_swevent_match()",
	.covers = "attr.exclude_user attr.exclude_kernel attr.exclude_hv "
		  "attr.exclude_idle attr.exclude_host attr.exclude_guest",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr all = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr ctl = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a0, c0, a, c;
	int fa, fc;

	all.disabled = ctl.disabled = 0;
	all.exclude_user = 1;
	all.exclude_idle = 1;
	all.exclude_host = 1;
	all.exclude_guest = 1;
	fa = ASSERT_OPEN(&all, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	fc = ASSERT_OPEN(&ctl, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_touch_pages(1);	/* fault in the code of both workloads */
	pa_kernel_faults(1);
	a0 = pa_read_one(fa);
	c0 = pa_read_one(fc);
	pa_touch_pages(64);
	pa_kernel_faults(64);
	a = pa_read_one(fa) - a0;
	c = pa_read_one(fc) - c0;
	pa_diag("all bits: %llu, control: %llu", (unsigned long long)a,
		(unsigned long long)c);
	EXPECT_EQ(pa_read_one(fa), 0);
	EXPECT_EQ(c, 64);
	close(fa);
	close(fc);
}
