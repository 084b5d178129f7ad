#include "perfabi.h"

#include <fcntl.h>

PERFABI_CASE(
	.assertion = "there is no splice() interface to a perf event fd: splice() "
		     "from it into a pipe, and from a pipe into it, fail with EINVAL",
	.ref = "tools/perf/design.txt \"Future work will include a splice() "
	       "interface\" (never implemented); fs/splice.c: no "
	       ".splice_read/.splice_write in perf_fops -> warn_unsupported() "
	       "-EINVAL",
	.covers = "fd.splice",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b = 0;
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0), p[2];

	ASSERT_OK(pipe(p));
	EXPECT_ERRNO(splice(fd, NULL, p[1], NULL, 8, SPLICE_F_NONBLOCK), EINVAL);
	ASSERT_EQ(write(p[1], &b, sizeof(b)), 8);
	EXPECT_ERRNO(splice(p[0], NULL, fd, NULL, 8, SPLICE_F_NONBLOCK), EINVAL);
	close(p[0]);
	close(p[1]);
	close(fd);
}
