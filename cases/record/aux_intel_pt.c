#include "perfabi.h"

#include <sys/ioctl.h>

struct aux_rec {
	struct perf_event_header h;
	uint64_t aux_offset, aux_size, flags;
};

PERFABI_CASE(
	.assertion = "an AUX-capable PMU (intel_pt) writing trace data into the mapped AUX area announces it with PERF_RECORD_AUX {aux_offset, aux_size, flags} in the ring: a non-empty range inside the AUX area",
	.ref = "perf_event_open(2), PERF_RECORD_AUX (4.1): \"This record reports that new data is available in the separate AUX buffer region\"; MMAP layout aux_head/aux_tail/aux_offset/aux_size",
	.covers = "record.AUX",
	.min_kernel = "4.1",
	.pmu = "intel_pt",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr;
	const struct perf_event_header *h;
	const struct aux_rec *a = NULL;
	long psz = sysconf(_SC_PAGESIZE);
	volatile unsigned long x = 0;
	struct pa_ring r;
	int fd;

	pa_intel_pt_attr(&attr);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_ring_map_aux(&r, 16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 10000; i++)
		x += (unsigned long)i & 3 ? 1 : 2;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	h = pa_ring_find(&r, PERF_RECORD_AUX);
	ASSERT_TRUE(h != NULL);
	a = (const struct aux_rec *)h;
	EXPECT_EQ(h->size, sizeof(*a));
	EXPECT_GT(a->aux_size, 0u);
	EXPECT_LE(a->aux_offset + a->aux_size, (uint64_t)psz * 16);
	EXPECT_EQ(r.page->aux_head, a->aux_offset + a->aux_size);
}
