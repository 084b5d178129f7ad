#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_FORMAT_GROUP on the leader reads the whole group at once: nr (leader + siblings), then one {value, id} per member, leader first and siblings in the order they were added",
	.ref = "perf_event_open(2), Reading results: struct read_format with PERF_FORMAT_GROUP",
	.covers = "attr.read_format read_format.GROUP read_format.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[16] = { 0 }, id[3];
	int fd[3];

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.disabled = 0;	/* siblings follow the leader */
	attr.config = PERF_COUNT_SW_DUMMY;	/* counts nothing: 0 */
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	/* fault in the code the counted part runs, so only fresh pages fault */
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + 3 * 16);
	EXPECT_EQ(b[0], 3);		/* nr */
	EXPECT_EQ(b[1], 16);		/* leader value: one fault per page */
	EXPECT_EQ(b[2], id[0]);
	EXPECT_EQ(b[3], 0);		/* dummy sibling */
	EXPECT_EQ(b[4], id[1]);
	EXPECT_EQ(b[5], 16);		/* page-fault sibling */
	EXPECT_EQ(b[6], id[2]);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
