#include "perfabi.h"

#include <sys/ioctl.h>

struct hwid_rec {
	struct perf_event_header h;
	uint64_t hw_id;
};

PERFABI_CASE(
	.assertion = "a PEBS event with aux_output in an intel_pt group (PEBS-via-PT) reports the hardware counter its records carry with PERF_RECORD_AUX_OUTPUT_HW_ID {hw_id} when it is scheduled",
	.ref = "include/uapi/linux/perf_event.h PERF_RECORD_AUX_OUTPUT_HW_ID (5.16): \"Data written to the AUX area by hardware due to aux_output, may need to be matched to the event by an architecture-specific hardware ID\"; arch/x86/events/intel/core.c perf_report_aux_output_id()",
	.covers = "record.AUX_OUTPUT_HW_ID attr.aux_output",
	.min_kernel = "5.16",
	.pmu = "intel_pt",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr pt, pebs = pa_sw_sampling_attr(PERF_COUNT_HW_CPU_CYCLES, 100003);
	const struct perf_event_header *h;
	volatile unsigned long x = 0;
	struct pa_ring r, rm;
	int lfd, mfd;

	pa_intel_pt_attr(&pt);
	lfd = ASSERT_OPEN(&pt, 0, -1, -1, 0);
	pa_ring_map(&r, lfd, 8);
	pa_ring_map_aux(&r, 16);
	pebs.type = PERF_TYPE_HARDWARE;
	pebs.precise_ip = 1;
	pebs.aux_output = 1;
	pebs.sample_type = PERF_SAMPLE_IP;
	mfd = pa_perf_open(&pebs, 0, -1, lfd, 0);
	if (mfd < 0 && (errno == EINVAL || errno == EOPNOTSUPP || errno == ENOENT))
		pa_skip("no PEBS-via-PT (aux_output) on this CPU: %s", strerror(errno));
	ASSERT_GE(mfd, 0);
	pa_ring_map(&rm, mfd, 8);
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	for (int i = 0; i < 100000; i++)
		x += (unsigned long)i;
	ASSERT_OK(ioctl(lfd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	h = pa_ring_find(&rm, PERF_RECORD_AUX_OUTPUT_HW_ID);
	if (!h)
		h = pa_ring_find(&r, PERF_RECORD_AUX_OUTPUT_HW_ID);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(h->size, sizeof(struct hwid_rec));
}
