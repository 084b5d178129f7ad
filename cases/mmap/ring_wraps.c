#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "a consumer that advances data_tail keeps a one-page ring usable indefinitely: records keep coming across the wrap-around, every one well-formed, none lost",
	.ref = "perf_event_open(2), MMAP layout: data_head / data_tail protocol (rmb after reading data_head; write data_tail after consuming)",
	.covers = "record.SAMPLE mmap.data_head mmap.data_tail",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	uint64_t count;
	int fd, n = 0;

	/* 40-byte samples: 4096 is not a multiple, so records straddle the end */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 4 * psz / 40; i += 16) {
		pa_touch_pages(16);
		while ((h = pa_ring_next(&r))) {
			EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
			if (h->type == PERF_RECORD_SAMPLE && !pa_sample_parse(&attr, h, &s))
				pa_abort();
			n++;
		}
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = pa_ring_next(&r)))
		n++;
	pa_read_u64(fd, &count, 1);
	EXPECT_GT(r.tail, (uint64_t)psz * 3);	/* wrapped several times */
	EXPECT_EQ((uint64_t)n, count);
}
