#include "perfabi.h"

PERFABI_CASE(
	.assertion = "positional I/O is refused on a perf event fd: pread() and "
		     "pwrite() fail with ESPIPE, at offset 0 too",
	.ref = "fs/read_write.c ksys_pread64()/ksys_pwrite64(): no FMODE_PREAD/"
	       "FMODE_PWRITE -> -ESPIPE (an anon inode file from "
	       "anon_inode_getfile() gets neither); pread(2) ESPIPE",
	.covers = "fd.pread",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[2] = { 7, 7 };
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	EXPECT_ERRNO(pread(fd, b, sizeof(b), 0), ESPIPE);
	EXPECT_ERRNO(pread(fd, b, sizeof(b), 8), ESPIPE);
	EXPECT_EQ(b[0], 7);	/* nothing was copied */
	EXPECT_ERRNO(pwrite(fd, b, 8, 0), ESPIPE);
	/* plain read() works on the same fd */
	EXPECT_EQ(read(fd, b, sizeof(b)), 8);
	EXPECT_EQ(b[0], 0);
	close(fd);
}
