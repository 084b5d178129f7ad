#include "perfabi.h"
#include <pthread.h>

static void *worker(void *arg)
{
	(void)arg;
	pa_touch_pages(512);
	return NULL;
}

PERFABI_CASE(
	.assertion = "with inherit set, threads created after the event was opened are counted too: the thread's page faults show up in the event once it is joined",
	.ref = "perf_event_open(2), inherit: child tasks include threads (CLONE_THREAD)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t before;
	pthread_t t;
	int fd;

	a.inherit = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_read_one(fd);
	ASSERT_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	EXPECT_GE(pa_read_one(fd), before + 512);
	close(fd);
}
