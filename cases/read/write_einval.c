#include "perfabi.h"

#include <fcntl.h>

PERFABI_CASE(
	.assertion = "a perf event fd is opened O_RDWR but cannot be written: "
		     "write() fails with EINVAL, even for 0 bytes, and does not "
		     "change the value read() returns",
	.ref = "fs/read_write.c vfs_write(): FMODE_WRITE without FMODE_CAN_WRITE "
	       "-> -EINVAL before the count is looked at (perf_fops has no "
	       ".write); kernel/events/core.c perf_event_open(): f_flags = O_RDWR",
	.covers = "fd.write",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v = 12345, b[2] = { 7, 7 };
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	EXPECT_EQ(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
	EXPECT_ERRNO(write(fd, &v, sizeof(v)), EINVAL);
	EXPECT_ERRNO(write(fd, &v, 0), EINVAL);
	/* never enabled: still exactly 0, not the value written */
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 0);
	close(fd);
}
