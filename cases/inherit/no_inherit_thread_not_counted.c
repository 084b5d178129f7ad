#include "perfabi.h"

#include <pthread.h>

/*
 * Two counters on the main thread: "plain" (inherit = 0) and "inh"
 * (inherit = 1, the control). A worker thread, created after both were
 * opened, touches on command 1 or 1 + 512 fresh pages while the main
 * thread waits on a pipe. The main thread does the same in either window
 * (write a command, read the answer), so the plain counter, which counts
 * the main thread alone, grows by the same amount both times: the
 * worker's 512 extra page faults add exactly 0. The inherited counter
 * shows that the worker did take them (exactly 512 more). A warm-up
 * command first.
 */
struct deltas {
	uint64_t plain, inh;
};

static int cmd[2], ack[2];

static void *worker(void *unused)
{
	int pages;

	(void)unused;
	while (read(cmd[0], &pages, sizeof(pages)) == (ssize_t)sizeof(pages) && pages > 0) {
		pa_touch_pages(pages);
		if (write(ack[1], "a", 1) != 1)
			break;
	}
	return NULL;
}

static struct deltas window(int plain, int inh, int pages)
{
	uint64_t p0, i0;
	struct deltas d;
	char c;

	p0 = pa_read_one(plain);
	i0 = pa_read_one(inh);
	ASSERT_EQ(write(cmd[1], &pages, sizeof(pages)), (ssize_t)sizeof(pages));
	ASSERT_EQ(read(ack[0], &c, 1), 1);
	d.plain = pa_read_one(plain) - p0;
	d.inh = pa_read_one(inh) - i0;
	return d;
}

PERFABI_CASE(
	.assertion = "without inherit, an event on the calling thread does not count another thread of the process: a thread touching 512 more fresh pages adds exactly 0 to it",
	.ref = "perf_event_open(2), pid == 0 measures the calling thread; inherit clear",
	.covers = "attr.inherit arg.pid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	struct deltas base, more;
	int plain, inh, stop = 0;
	pthread_t t;

	ASSERT_OK(pipe(cmd));
	ASSERT_OK(pipe(ack));
	a.disabled = 0;
	b.disabled = 0;
	b.inherit = 1;
	plain = ASSERT_OPEN(&a, 0, -1, -1, 0);
	inh = ASSERT_OPEN(&b, 0, -1, -1, 0);
	ASSERT_EQ(pthread_create(&t, NULL, worker, NULL), 0);
	window(plain, inh, 1);		/* warm-up */
	base = window(plain, inh, 1);
	more = window(plain, inh, 1 + 512);
	ASSERT_EQ(write(cmd[1], &stop, sizeof(stop)), (ssize_t)sizeof(stop));
	ASSERT_EQ(pthread_join(t, NULL), 0);
	pa_diag("without inherit: +%llu (thread touching 1 page), +%llu (513 pages); with inherit: +%llu, +%llu",
		(unsigned long long)base.plain, (unsigned long long)more.plain,
		(unsigned long long)base.inh, (unsigned long long)more.inh);
	EXPECT_EQ(more.plain, base.plain);
	EXPECT_EQ(more.inh - base.inh, 512u);	/* control */
	close(inh);
	close(plain);
}
