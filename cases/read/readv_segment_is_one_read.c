#include "perfabi.h"

#include <sys/uio.h>

/*
 * perf_fops has .read but no .read_iter, so vfs_readv() falls back to
 * do_loop_readv_writev(): one perf_read() per segment, stopping at the
 * first error or short segment. Each segment is therefore checked against
 * the whole read_format layout on its own.
 */
PERFABI_CASE(
	.assertion = "readv() on a perf event fd reads each iovec segment as a "
		     "separate read(): a first segment smaller than the read_format "
		     "layout fails with ENOSPC even when the segments add up, and "
		     "two segments of the layout's size each get a whole copy",
	.ref = "perf_event_open(2), Reading results (ENOSPC); fs/read_write.c "
	       "vfs_readv() -> do_loop_readv_writev() for a file without "
	       ".read_iter",
	.covers = "fd.readv read.ENOSPC attr.read_format read_format.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[4] = { 7, 7, 7, 7 }, id = 0;
	struct iovec split[2] = { { &b[0], 8 }, { &b[1], 8 } };
	struct iovec two[2] = { { &b[0], 16 }, { &b[2], 16 } };
	int fd;

	attr.read_format = PERF_FORMAT_ID;	/* 16 bytes: value, id */
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_ERRNO(readv(fd, split, 2), ENOSPC);
	EXPECT_EQ(b[0], 7);			/* nothing copied */
	EXPECT_EQ(readv(fd, two, 2), 32);
	EXPECT_EQ(b[0], 0);			/* never enabled */
	EXPECT_EQ(b[1], id);
	EXPECT_EQ(b[2], 0);
	EXPECT_EQ(b[3], id);
	close(fd);
}
