#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_FORMAT_GROUP|PERF_FORMAT_ID|PERF_FORMAT_LOST reads nr, then "
		     "one {value, id, lost} per member, leader first and siblings in "
		     "the order they joined; each id is the member's "
		     "PERF_EVENT_IOC_ID and each lost its own lost-sample count",
	.ref = "perf_event_open(2), Reading results: struct read_format with "
	       "PERF_FORMAT_GROUP, \"u64 lost; /* if PERF_FORMAT_LOST */\" (since "
	       "Linux 6.0); kernel/events/core.c __perf_read_group_add()",
	.covers = "read_format.GROUP read_format.ID read_format.LOST ioctl.ID ioctl.PAUSE_OUTPUT",
	.min_kernel = "6.0",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr lead = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr sib = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	uint64_t fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	uint64_t b[16] = { 0 }, id[3];
	struct pa_ring ring;
	int fd[3], warm;

	/* the same ioctl/touch path once on a throwaway event: later only
	 * the 16 fresh pages fault */
	warm = ASSERT_OPEN(&sib, 0, -1, -1, 0);
	ASSERT_OK(ioctl(warm, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	ASSERT_OK(ioctl(warm, PERF_EVENT_IOC_DISABLE, 0));
	close(warm);

	/* leader: samples every fault into a paused ring, so each is lost */
	lead.sample_type = PERF_SAMPLE_IP;
	lead.read_format = fmt;
	lead.disabled = 1;
	fd[0] = ASSERT_OPEN(&lead, 0, -1, -1, 0);
	sib.read_format = fmt;
	sib.disabled = 0;	/* siblings follow the leader */
	fd[1] = ASSERT_OPEN(&sib, 0, -1, fd[0], 0);	/* counts nothing */
	sib.config = PERF_COUNT_SW_PAGE_FAULTS;	/* counts, never samples */
	fd[2] = ASSERT_OPEN(&sib, 0, -1, fd[0], 0);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	pa_ring_map(&ring, fd[0], 1);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_PAUSE_OUTPUT, 1));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + 3 * 24);
	EXPECT_EQ(b[0], 3);		/* nr */
	EXPECT_EQ(b[1], 16);		/* leader: value */
	EXPECT_EQ(b[2], id[0]);		/*         id */
	EXPECT_EQ(b[3], 16);		/*         lost: every sample */
	EXPECT_EQ(b[4], 0);		/* dummy sibling: value */
	EXPECT_EQ(b[5], id[1]);
	EXPECT_EQ(b[6], 0);		/*         lost */
	EXPECT_EQ(b[7], 16);		/* counting sibling: value */
	EXPECT_EQ(b[8], id[2]);
	EXPECT_EQ(b[9], 0);		/*         lost: it never samples */
	EXPECT_EQ(pa_ring_head(&ring), 0);
	pa_ring_unmap(&ring);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
