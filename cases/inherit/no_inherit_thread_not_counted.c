#include "perfabi.h"
#include <pthread.h>

static void *worker(void *arg)
{
	(void)arg;
	pa_touch_pages(512);
	return NULL;
}

PERFABI_CASE(
	.assertion = "without inherit, an event on the calling thread does not count another thread of the process",
	.ref = "perf_event_open(2), pid == 0 measures the calling thread; inherit clear",
	.covers = "attr.inherit arg.pid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t before;
	pthread_t t;
	int fd;

	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_read_one(fd);
	ASSERT_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	/* thread stack set-up faults in the caller are few */
	EXPECT_LT(pa_read_one(fd) - before, 128);
	close(fd);
}
