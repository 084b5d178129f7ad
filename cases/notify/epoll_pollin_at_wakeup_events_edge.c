#include "perfabi.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * epoll(7) on a sampling event sees the same edge as poll(): with
 * wakeup_events = N, EPOLLIN is reported at the N-th sample, not at the
 * (N-1)-th. epoll learns of readiness from the wait-queue wake-up
 * (perf_pending_irq() -> perf_event_wakeup(), run from irq_work after the
 * sample), so the positive check waits for it (bounded at 10 s) and the
 * negative one gives it 50 ms to show up wrongly. Level-triggered epoll
 * then re-polls the fd, which hands out the state once
 * (perf_poll(): atomic_xchg), so a second epoll_wait() reports nothing.
 *
 * A page-fault sampler with period 1 and PERF_SAMPLE_IP writes one 16-byte
 * record per fault; the case touches one fresh page at a time and reads
 * data_head after each, so it knows the exact sample count. What the
 * measured steps execute runs once before ENABLE; a step that wrote other
 * than one record (an incidental fault) makes the attempt start over;
 * the same step going wrong the same way in all 3 attempts is the
 * kernel's doing, a FAIL (pa_retry()).
 */
#define N 8
#define WAIT_MS 10000

static int ep_wait(int ep, int ms, uint32_t *events)
{
	struct epoll_event ev = { 0 };
	int n = epoll_wait(ep, &ev, 1, ms);

	if (n < 0) {
		pa_fail("epoll_wait: %s", pa_errno_name(errno));
		pa_abort();
	}
	*events = n ? ev.events : 0;
	return n;
}

static bool attempt(void *arg, char *seen, size_t len)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct epoll_event ev = { .events = EPOLLIN };
	uint32_t e_before, e_at, e_again;
	int n_before, n_at, n_again;
	struct pa_ring r;
	uint64_t rec;
	bool whole;
	int fd, ep;

	(void)arg;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = N;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	ASSERT_LT(N * rec, r.data_size / 2);
	ep = ASSERT_OK(epoll_create1(EPOLL_CLOEXEC));
	ev.data.fd = fd;
	ASSERT_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	pa_touch_pages(1);
	(void)ep_wait(ep, 0, &e_before);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, (N - 1) * rec, rec);
	n_before = ep_wait(ep, 50, &e_before);
	whole = whole && pa_ring_fill_to(&r, N * rec, rec);
	n_at = ep_wait(ep, WAIT_MS, &e_at);
	n_again = ep_wait(ep, 0, &e_again);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	close(ep);
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("epoll_wait after %d samples: %d (%#x), after %d: %d (%#x), again: %d (%#x)",
		N - 1, n_before, e_before, N, n_at, e_at, n_again, e_again);
	EXPECT_EQ(n_before, 0);		/* N-1 samples: nothing */
	EXPECT_EQ(n_at, 1);		/* the N-th sample: ready ... */
	EXPECT_EQ(e_at, EPOLLIN);	/* ... for reading */
	EXPECT_EQ(n_again, 0);		/* reported once */
	return true;
}

PERFABI_CASE(
	.assertion = "epoll on a sampling event with wakeup_events = N reports EPOLLIN at the N-th sample and not at the (N-1)-th (N = 8), like poll()",
	.ref = "perf_event_open(2), Overflow handling: \"Overflow conditions can be captured by monitoring the event file descriptor with poll(2), select(2), or epoll(7)\"; "
	       "kernel/events/core.c perf_poll(), perf_pending_irq() -> perf_event_wakeup()",
	.covers = "fd.epoll attr.wakeup_events",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
