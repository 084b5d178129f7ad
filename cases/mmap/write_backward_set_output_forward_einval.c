#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * A ring buffer is written in one direction: an event with write_backward
 * cannot send its output into the ring of a forward event (and vice
 * versa). Both events are otherwise alike (same task, any CPU, same clock)
 * and the target is mmapped, so the direction is the only mismatch.
 */
PERFABI_CASE(
	.assertion = "attr.write_backward: PERF_EVENT_IOC_SET_OUTPUT from a write_backward event to a mmapped forward event of the same task fails with EINVAL",
	.ref = "perf_event_open(2), write_backward (4.7); kernel/events/core.c perf_event_set_output(): \"if (is_write_backward(output_event) != is_write_backward(event)) goto out\" (-EINVAL)",
	.covers = "attr.write_backward ioctl.SET_OUTPUT errno.EINVAL",
	.min_kernel = "4.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr fw = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr bw = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	int ff, fb;

	fw.sample_type = bw.sample_type = PERF_SAMPLE_IP;
	fw.disabled = bw.disabled = 1;
	bw.write_backward = 1;
	ff = ASSERT_OPEN(&fw, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&bw, 0, -1, -1, 0);
	pa_ring_map(&r, ff, 4);
	EXPECT_ERRNO(ioctl(fb, PERF_EVENT_IOC_SET_OUTPUT, (long)ff), EINVAL);
	pa_ring_unmap(&r);
	close(fb);
	close(ff);
}
