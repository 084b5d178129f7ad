#include "perfabi.h"
#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "read() into a buffer that is not mapped fails with EFAULT",
	.ref = "read(2) EFAULT; kernel/events/core.c perf_read_one()/perf_read_group(): copy_to_user() failure -> -EFAULT",
	.covers = "read.EFAULT",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	long psz = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd, g;

	ASSERT_TRUE(p != MAP_FAILED);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_ERRNO(read(fd, p, 8), EFAULT);
	close(fd);

	attr.read_format = PERF_FORMAT_GROUP;
	g = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_ERRNO(read(g, p, 16), EFAULT);
	close(g);
	munmap(p, (size_t)psz);
}
