#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_OUTPUT sends an event's records into another event's mmapped ring buffer; an argument of -1 stops the redirection",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_OUTPUT: \"tells the kernel to report event notifications to the specified file descriptor ... -1 ignores output\"",
	.covers = "ioctl.SET_OUTPUT ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct perf_event_attr b = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring ring;
	struct pa_sample s;
	uint64_t bid;
	int fa, fb, n = 0;

	a.sample_type = b.sample_type = PERF_SAMPLE_IDENTIFIER;
	b.disabled = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ID, &bid));
	pa_ring_map(&ring, fa, 8);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched */
	pa_touch_pages(1);
	ASSERT_EQ(pa_read_one(fb), 0);

	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_SET_OUTPUT, fa));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_DISABLE, 0));
	while (pa_ring_head(&ring) != ring.tail) {
		const struct perf_event_header *h = pa_ring_find(&ring, PERF_RECORD_SAMPLE);

		if (!h)
			break;
		if (!pa_sample_parse(&b, h, &s))
			break;
		EXPECT_EQ(s.identifier, bid);
		n++;
	}
	EXPECT_EQ(n, 8);	/* period 1: one sample per page */

	/* -1 (as a long: the kernel compares the unsigned long argument) */
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_ring_count(&ring, PERF_RECORD_SAMPLE), 0);
	EXPECT_EQ(pa_read_one(fb), 16);	/* it kept counting */
	pa_ring_unmap(&ring);
	close(fb);
	close(fa);
}
