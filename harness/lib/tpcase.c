// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the tracepoint cases: a RAW sampler of a tracepoint on a
 * thread that is not the main thread, checked against the running kernel's
 * format file; the ftrace:function event's id.
 */
#include "perfabi.h"

#include <sys/ioctl.h>

bool pa_tp_raw_setup(struct pa_tp_raw *tr, const char *sys, const char *event, int want)
{
	memset(tr, 0, sizeof(*tr));
	tr->fd = -1;
	tr->want = want;
	tr->id = pa_tp_id_or_skip(sys, event);
	tr->attr = pa_tp_attr((uint64_t)tr->id);
	tr->attr.sample_period = 1;
	tr->attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	if (!pa_tp_format_or_skip(sys, event, &tr->fmt, want)) {
		/* refused, and the fields cannot be located here anyway */
		EXPECT_OPEN_FAIL(&tr->attr, 0, -1, -1, 0, want);
		return false;
	}
	EXPECT_EQ(tr->fmt.id, tr->id);
	return true;
}

bool pa_tp_raw_run(struct pa_tp_raw *tr, void (*prep)(void *), void (*fn)(void *),
		   void *arg)
{
	pa_thread_start(&tr->t, prep, fn, arg);
	tr->fd = EXPECT_OPEN_RESULT(&tr->attr, tr->t.tid, -1, -1, 0, tr->want);
	if (tr->want || tr->fd < 0) {
		pa_thread_run(&tr->t);
		return false;
	}
	pa_ring_map(&tr->r, tr->fd, 4);
	ASSERT_OK(ioctl(tr->fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_thread_run(&tr->t);
	ASSERT_OK(ioctl(tr->fd, PERF_EVENT_IOC_DISABLE, 0));
	return true;
}

bool pa_tp_raw_next(struct pa_tp_raw *tr)
{
	const struct perf_event_header *h = pa_ring_find(&tr->r, PERF_RECORD_SAMPLE);

	if (!h)
		return false;
	tr->n++;
	if (!pa_sample_parse(&tr->attr, h, &tr->s))
		pa_abort();
	EXPECT_EQ(tr->s.pid, (uint32_t)getpid());
	EXPECT_EQ(tr->s.tid, (uint32_t)tr->t.tid);
	pa_tp_expect_common(&tr->fmt, tr->s.raw, tr->s.var.raw_size, tr->id, tr->t.tid);
	return true;
}

void pa_tp_raw_end(struct pa_tp_raw *tr, int n)
{
	EXPECT_EQ(tr->n, n);
	pa_ring_unmap(&tr->r);
	close(tr->fd);
	tr->fd = -1;
}

long pa_ftrace_function_id_or_skip(void)
{
	const char *list = getenv("PERFABI_TRACEPOINT_IDS");
	long id = pa_tracepoint_id("ftrace", "function");

	if (id >= 0)
		return id;
	/* the event list was readable (tracefs, or the runner's list) */
	if ((geteuid() == 0 && pa_tracefs()) || (list && !access(list, R_OK)))
		pa_skip("no ftrace:function event (CONFIG_FUNCTION_TRACER is off)");
	return pa_tp_id_or_skip("ftrace", "function");
}

void pa_tp_expect_opens_on(const struct perf_event_attr *attr, const char *sys,
			   const char *event)
{
	struct perf_event_attr other = *attr;
	int fd;

	other.config = (uint64_t)pa_tp_id_or_skip(sys, event);
	fd = EXPECT_OPEN_RESULT(&other, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
