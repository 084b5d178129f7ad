#include "perfabi.h"

#include <sys/mman.h>

/*
 * PERF_EVENT_IOC_SET_FILTER copies the filter string in (strndup_user(),
 * at most a page) before it looks at the event; an argument that is not
 * readable user memory fails with EFAULT whatever the event is. A software
 * event is used: with a readable string it is refused with EINVAL instead
 * (no tracepoint, no address filters), so EFAULT can only come from the copy.
 */
PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_FILTER with a filter pointer that is not readable user memory (NULL, an unmapped page, a kernel address) fails with EFAULT; a readable string on the same software event fails with EINVAL",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_FILTER (the argument is a pointer to a filter string); kernel/events/core.c perf_event_set_filter(): strndup_user(arg, PAGE_SIZE) error -> returned (-EFAULT), before the tracepoint / address-filter dispatch (-EINVAL)",
	.covers = "ioctl.SET_FILTER errno.EFAULT errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	char *hole;
	int fd;

	/* a page that was mapped and is now gone */
	hole = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(hole != MAP_FAILED);
	ASSERT_OK(munmap(hole, psz));
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, NULL), EFAULT);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, hole), EFAULT);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, (char *)~0UL - psz), EFAULT);
	/* the control: a readable string reaches the event, which has no filter */
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid != 0"), EINVAL);
	close(fd);
}
