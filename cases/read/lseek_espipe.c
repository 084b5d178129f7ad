#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a perf event fd cannot seek: lseek() fails with ESPIPE for "
		     "SEEK_SET, SEEK_CUR and SEEK_END, and read() afterwards still "
		     "returns the whole value",
	.ref = "fs/read_write.c vfs_llseek(): no FMODE_LSEEK -> -ESPIPE (perf_fops "
	       "has no .llseek, so the anon inode file never gets FMODE_LSEEK); "
	       "lseek(2) ESPIPE",
	.covers = "fd.lseek",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[2] = { 7, 7 };
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	/* warm the counted path once, so that only the 16 fresh pages fault */
	pa_count_over(fd, pa_work_pages, 1);
	ASSERT_EQ(pa_count_over(fd, pa_work_pages, 16), 16);
	EXPECT_ERRNO(lseek(fd, 0, SEEK_SET), ESPIPE);
	EXPECT_ERRNO(lseek(fd, 8, SEEK_SET), ESPIPE);
	EXPECT_ERRNO(lseek(fd, 0, SEEK_CUR), ESPIPE);
	EXPECT_ERRNO(lseek(fd, 0, SEEK_END), ESPIPE);
	/* there is no file position to move: every read() starts at the value */
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 16);
	EXPECT_EQ(b[1], 7);
	close(fd);
}
