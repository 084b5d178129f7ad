#include "perfabi.h"

/*
 * A sample_stack_user that is a multiple of 8 and fits a record is
 * accepted, and the samples then carry a stack dump of that size: the
 * size field is the requested 8192 (the user stack pointer is far below
 * TASK_SIZE, so perf_sample_ustack_size() does not cut it), followed by
 * dyn_size, the bytes actually copied (at most the size).
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_STACK_USER with sample_stack_user a multiple of 8 below USHRT_MAX (8192) is accepted, and a page-fault sample's stack dump has size 8192 and a dyn_size of at most 8192",
	.ref = "perf_event_open(2), sample_stack_user; PERF_RECORD_SAMPLE \"size, data[size], dyn_size\"; kernel/events/core.c perf_copy_attr() stack user size checks, perf_sample_ustack_size()",
	.covers = "attr.sample_stack_user sample.STACK_USER",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_sample s;
	struct pa_ring r;
	int fd;

	if (!pa_regs_valid_mask())
		pa_skip("not known whether this architecture can dump user stacks");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 8192;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_count_over(fd, pa_work_pages, 2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.var.stack_size, 8192);
	EXPECT_LE(s.stack_dyn_size, 8192);
	pa_diag("dyn_size %llu", (unsigned long long)s.stack_dyn_size);
	pa_ring_unmap(&r);
	close(fd);
}
